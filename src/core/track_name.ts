/**
 * The one rule for a circuit name, wherever it comes from: a bundle's
 * `meta.track` or its import's `?track=` override, a survey label, a
 * rename, a session name, a signature, a lap file's names, a query. Names
 * end up on one terminal line, in slugs, keys and CSV headers, so a line
 * break or an escape sequence in one would corrupt them all. Every face
 * validates with {@linkcode trackNameSchema}: one schema, no copy.
 *
 * @module
 */
import { z } from "zod";
import { MAX_TRACK_CHARS } from "./bundle/limits.ts";

export { MAX_TRACK_CHARS };

const CONTROL = /\p{Cc}/u;

/** The rule in words, for error messages. */
export const TRACK_NAME_RULE =
  `must be 1 to ${MAX_TRACK_CHARS} characters, not blank, with no control characters`;

/**
 * What is wrong with `name` as a circuit name once trimmed, or null when
 * nothing is: blank, longer than {@linkcode MAX_TRACK_CHARS} code points,
 * or holding a control character.
 */
export function trackNameProblem(name: string): "blank" | "too long" | "control" | null {
  const trimmed = name.trim();
  if (trimmed === "") return "blank";
  if (trimmed.length > MAX_TRACK_CHARS && [...trimmed].length > MAX_TRACK_CHARS) return "too long";
  if (CONTROL.test(trimmed)) return "control";
  return null;
}

/** True when `name`, trimmed, is a circuit name by the one rule. */
export function isTrackName(name: string): boolean {
  return trackNameProblem(name) === null;
}

/**
 * A circuit name by the one rule, as zod reads it: a string that
 * {@linkcode trackNameProblem} accepts, trimmed on the way out; a name too
 * long is refused, never cut. Every fault's message is
 * {@linkcode TRACK_NAME_RULE}, except "is required" for an absent value and
 * "must be a string" for another type, so a refusal names the field (by
 * its path) and the rule it broke.
 */
export const trackNameSchema = z.string({
  error: (issue) => issue.input === undefined ? "is required" : "must be a string",
})
  .refine((v) => trackNameProblem(v) === null, TRACK_NAME_RULE)
  .transform((v) => v.trim())
  .meta({ description: `a circuit name: ${TRACK_NAME_RULE}` });
