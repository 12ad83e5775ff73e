/**
 * RFC 9457 problem documents: every error the API answers with.
 *
 * @module
 */
import { type Issue, UserError } from "../core/errors.ts";

/** The body of an error response. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** Validation failures, each with its JSON path. */
  errors?: Issue[];
}

/** Builds the problem document for `err`; unknown errors become a 500 with no internals. */
export function problemOf(err: unknown): Problem {
  if (err instanceof UserError) {
    const problem: Problem = {
      type: `https://sim-datalogger.dev/problems/${slugOf(err.title)}`,
      title: err.title,
      status: err.status,
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

/** A problem+json response for `err`. */
export function problemResponse(err: unknown): Response {
  const problem = problemOf(err);
  if (problem.status >= 500) console.error("request failed:", err);
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { "content-type": "application/problem+json" },
  });
}

function slugOf(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}
