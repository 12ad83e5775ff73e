/**
 * Errors that reach users. Each carries what the HTTP layer needs to answer
 * with an RFC 9457 problem document; none carries a stack to the user.
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

/** Base of every user-facing error; `status` is the HTTP status it maps to. */
export abstract class UserError extends Error {
  /** HTTP status code the error maps to. */
  abstract readonly status: number;
  /** A short, stable, human title (the problem document's `title`). */
  abstract readonly title: string;
}

/** A document was refused; nothing was written. Maps to 400. */
export class ImportRejected extends UserError {
  readonly status = 400;
  readonly title = "Document rejected";
  /** Every failure found, each with its JSON path. */
  readonly issues: Issue[];
  /** Creates the error from one or more issues; the message lists the first. */
  constructor(issues: Issue[] | Issue) {
    const list = Array.isArray(issues) ? issues : [issues];
    super(list.map((i) => `${i.path}: ${i.message}`).slice(0, 5).join("; "));
    this.name = "ImportRejected";
    this.issues = list;
  }
}

/** The request itself is malformed (bad parameter, bad JSON). Maps to 400. */
export class BadRequest extends UserError {
  readonly status = 400;
  readonly title = "Bad request";
  /** Failures with their paths, when known. */
  readonly issues: Issue[];
  /** Creates the error with a detail message and optional issues. */
  constructor(message: string, issues: Issue[] = []) {
    super(message);
    this.name = "BadRequest";
    this.issues = issues;
  }
}

/** The named resource does not exist. Maps to 404. */
export class NotFound extends UserError {
  readonly status = 404;
  readonly title = "Not found";
  /** Creates the error naming what was missing. */
  constructor(message: string) {
    super(message);
    this.name = "NotFound";
  }
}

/** The request conflicts with the current state. Maps to 409. */
export class Conflict extends UserError {
  readonly status = 409;
  readonly title = "Conflict";
  /** Creates the error saying what conflicts. */
  constructor(message: string) {
    super(message);
    this.name = "Conflict";
  }
}

/** A body or document exceeded a size limit. Maps to 413. */
export class TooLarge extends UserError {
  readonly status = 413;
  readonly title = "Payload too large";
  /** Creates the error naming the limit that was exceeded. */
  constructor(message: string) {
    super(message);
    this.name = "TooLarge";
  }
}

/** Authentication is missing (401) or refused (403). */
export class Unauthorized extends UserError {
  readonly title: string;
  readonly status: 401 | 403;
  /** Creates the error; `status` 401 for missing credentials, 403 for refused ones. */
  constructor(message: string, status: 401 | 403 = 401) {
    super(message);
    this.name = "Unauthorized";
    this.status = status;
    this.title = status === 401 ? "Unauthorized" : "Forbidden";
  }
}
