/**
 * RFC 9457 problem documents: every error the API answers with, and the one
 * table from the application's typed errors to HTTP status codes.
 *
 * @module
 */
import {
  BadRequest,
  Conflict,
  ImportRejected,
  type Issue,
  NotFound,
  TooLarge,
  UserError,
} from "../core/errors.ts";
import { isStoreRefusal, StoreRefused } from "../core/store_refusal.ts";
import type { z } from "zod";
import type { Log } from "../app/log.ts";
import type { problemSchema } from "./openapi/problem_schema.ts";

/** Authentication is missing (401) or refused (403): an HTTP matter, so it lives here. */
export class Unauthorized extends UserError {
  readonly title: string;
  /** 401 for missing credentials, 403 for refused ones. */
  readonly status: 401 | 403;
  /** Creates the error; `status` 401 for missing credentials, 403 for refused ones. */
  constructor(message: string, status: 401 | 403 = 401) {
    super(message);
    this.status = status;
    this.title = status === 401 ? "Unauthorized" : "Forbidden";
  }
}

/**
 * A request body did not arrive in time (408): an HTTP matter. Its answer
 * asks for the connection to be closed, as the rest of the body is not
 * awaited (see src/server/idle_connections.ts, which closes it).
 */
export class RequestTimeout extends UserError {
  readonly title = "Request timeout";
}

/**
 * A request body that ended before all of it arrived (400): the client
 * closed or reset its side mid-body, or sent fewer bytes than its
 * `Content-Length`. Nothing of it is used; its answer asks for the
 * connection to be closed, as what is left of the stream means nothing.
 */
export class BodyIncomplete extends BadRequest {
  /**
   * Creates the error for a body of the `declared` length (null: not
   * announced). It names no count of bytes received: Deno fails the read
   * with what it had buffered, so the count read is no count sent.
   */
  constructor(declared: string | null, options?: ErrorOptions) {
    const all = declared !== null && /^\d+$/.test(declared) ? `all ${declared} bytes` : "all of it";
    const rule = `ended before ${all} arrived: the client stopped sending it`;
    super(`request body ${rule}; nothing was changed`, [{ path: "body", message: rule }]);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** A known path asked with a method it does not serve (405); `allow` lists those it does. */
export class MethodNotAllowed extends UserError {
  readonly title = "Method not allowed";
  /** The methods the path serves, for the `Allow` header. */
  readonly allow: readonly string[];
  /** Creates the error for `method` on `path`, which serves `allow`. */
  constructor(method: string, path: string, allow: readonly string[]) {
    super(`${path} does not serve ${method}; it serves ${allow.join(", ")}`);
    this.allow = allow;
  }
}

/** The HTTP status of a user-facing error; 500 for a kind this table does not know. */
export function statusOf(err: UserError): number {
  if (err instanceof Unauthorized) return err.status;
  if (err instanceof RequestTimeout) return 408;
  if (err instanceof MethodNotAllowed) return 405;
  if (err instanceof ImportRejected || err instanceof BadRequest) return 400;
  if (err instanceof NotFound) return 404;
  if (err instanceof Conflict) return 409;
  if (err instanceof TooLarge) return 413;
  if (err instanceof StoreRefused) return err.status;
  // A damaged record (StoredUnreadable) is the server's state, not the request's fault.
  return 500;
}

/** The body of an error response (its schema: openapi/problem_schema.ts). */
export type Problem = z.output<typeof problemSchema>;

/** Builds the problem document for `err`; unknown errors become a 500 with no internals. */
export function problemOf(err: unknown): Problem {
  if (!(err instanceof UserError) && isStoreRefusal(err)) {
    // The disk is full: nothing was written, and the caller still holds what it sent.
    err = new StoreRefused(
      `the store's disk is full, so nothing was changed (${(err as Error).message}); ` +
        "free space on it and send this again",
      507,
    );
  }
  if (err instanceof UserError) {
    const problem: Problem = {
      type: `https://sim-datalogger.dev/problems/${slugOf(err.title)}`,
      title: err.title,
      status: statusOf(err),
      detail: err.message,
    };
    const issues = (err as { issues?: Issue[] }).issues;
    if (issues && issues.length) problem.errors = issues;
    return problem;
  }
  return {
    type: "about:blank",
    title: "Internal Server Error",
    status: 500,
    detail: "the server failed to handle the request; see its log",
  };
}

/**
 * A problem+json response for `err`: a 405 carries `Allow`, a 408 and a
 * cut-off body ask for the connection to be closed. A failure that is the
 * server's (a 500) is reported to `log`, the application's log, never to
 * the console: while the dashboard owns the terminal its notice line shows
 * it (see src/app/log.ts's RoutedLog), and nothing a request does writes
 * over the screen.
 */
export function problemResponse(err: unknown, log: Pick<Log, "error">): Response {
  const problem = problemOf(err);
  // A refusal of the store (507, 503) is the driver's disk, not a bug: its answer says it all.
  if (problem.status >= 500 && problem.status !== 503 && problem.status !== 507) {
    log.error("request failed", err);
  }
  const headers: Record<string, string> = { "content-type": "application/problem+json" };
  if (err instanceof MethodNotAllowed) headers.allow = err.allow.join(", ");
  if (err instanceof RequestTimeout || err instanceof BodyIncomplete) headers.connection = "close";
  return new Response(JSON.stringify(problem), { status: problem.status, headers });
}

function slugOf(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}
