/**
 * Turning schema failures into the issues users see: a JSON path
 * (`$.edges[3].votes.auto.abc123`) and the rule that was broken.
 *
 * @module
 */
import type { z } from "zod";
import type { Issue } from "../errors.ts";
import { MAX_REPORTED_ISSUES } from "./limits.ts";

/** The message given for a vote kind outside the five. */
export const KIND_RULE = "kind must be one of wall, runoff, edge, auto, straddle";

const SHORTHAND = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The JSON path of a location: `$`, then `[n]` for array indexes, `.name`
 * for plain member names, and `['...']` (RFC 9535 quoting) for any other name.
 */
export function jsonPath(segments: readonly PropertyKey[]): string {
  let path = "$";
  for (const segment of segments) {
    if (typeof segment === "number") path += `[${segment}]`;
    else {
      const name = String(segment);
      path += SHORTHAND.test(name)
        ? `.${name}`
        : `['${name.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}']`;
    }
  }
  return path;
}

/**
 * One issue per failure zod found, each with its JSON path and rule, at
 * most {@link MAX_REPORTED_ISSUES} of them. A refused record key is reported
 * at the key's own path; an unknown vote kind is reported per key.
 */
export function issuesFromZod(found: readonly z.core.$ZodIssue[]): Issue[] {
  const issues: Issue[] = [];
  for (const issue of found) {
    if (issues.length >= MAX_REPORTED_ISSUES) break;
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        issues.push({ path: jsonPath([...issue.path, key]), message: KIND_RULE });
      }
    } else if (issue.code === "invalid_key") {
      issues.push({
        path: jsonPath(issue.path),
        message: issue.issues[0]?.message ?? issue.message,
      });
    } else {
      issues.push({ path: jsonPath(issue.path), message: issue.message });
    }
  }
  return issues.slice(0, MAX_REPORTED_ISSUES);
}
