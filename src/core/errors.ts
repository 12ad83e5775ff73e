/**
 * Errors that reach users, typed by what went wrong (refused, malformed,
 * missing, conflicting, too large). What each means on the wire (an HTTP
 * status, an exit code) is the face's business: src/server/problem.ts maps
 * them to RFC 9457 problem documents. None carries a stack to the user.
 *
 * @module
 */

/** One validation failure: where in the document, and which rule it broke. */
export interface Issue {
  /** JSON path of the offending value, such as `$.edges[3].votes.auto`. */
  path: string;
  /** The rule that was broken, in plain words. */
  message: string;
}

/**
 * The text of anything thrown, for a report or a log line: an Error's
 * message (never its stack), anything else as `String` makes it.
 */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Base of every user-facing error. */
export abstract class UserError extends Error {
  /** A short, stable, human title (the problem document's `title`). */
  abstract readonly title: string;
  /** Creates the error with `message`, named (`name`, what logs show) after its class. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A document was refused; nothing was written. */
export class ImportRejected extends UserError {
  readonly title = "Document rejected";
  /** Every failure found, each with its JSON path. */
  readonly issues: Issue[];
  /** Creates the error from one or more issues; the message lists the first. */
  constructor(issues: Issue[] | Issue) {
    const list = Array.isArray(issues) ? issues : [issues];
    super(list.map((i) => `${i.path}: ${i.message}`).slice(0, 5).join("; "));
    this.issues = list;
  }
}

/**
 * A stored record cannot be read back: a damaged store, or a record a rule
 * refuses that a release before the rule let in. Not the caller's fault and
 * nothing a retry mends: its own route answers a problem (500) whose detail
 * names the record and what is wrong with it; a listing leaves it out and
 * says so, and answers the rest.
 */
export class StoredUnreadable extends UserError {
  readonly title = "Stored record unreadable";
}

/** The request itself is malformed (bad parameter, bad JSON). */
export class BadRequest extends UserError {
  readonly title = "Bad request";
  /** Failures with their paths, when known. */
  readonly issues: Issue[];
  /** Creates the error with a detail message and optional issues. */
  constructor(message: string, issues: Issue[] = []) {
    super(message);
    this.issues = issues;
  }
}

/** The named resource does not exist. */
export class NotFound extends UserError {
  readonly title = "Not found";
}

/** The request conflicts with the current state. */
export class Conflict extends UserError {
  readonly title = "Conflict";
}

/** A body or document exceeded a size limit. */
export class TooLarge extends UserError {
  readonly title = "Payload too large";
}
