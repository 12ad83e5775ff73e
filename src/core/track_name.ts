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

/** The whole rule in words, for documentation (a refusal names the part broken). */
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

/**
 * The rule `name` breaks, in words that follow a field's name (`name is
 * too long: 81 characters, at most 80`), or null when it breaks none:
 * blank, too long (with its length in code points, once trimmed), or
 * holding a control character (which one, as U+XXXX, and at which
 * character of `name` as given, counting from 1), so a driver can find it.
 */
export function trackNameFault(name: string): string | null {
  switch (trackNameProblem(name)) {
    case null:
      return null;
    case "blank":
      return `is blank: give 1 to ${MAX_TRACK_CHARS} characters that are not all spaces`;
    case "too long":
      return `is too long: ${[...name.trim()].length} characters, at most ${MAX_TRACK_CHARS}`;
    case "control":
      return controlFault(name);
  }
}

/** The first control character of `name` inside its trimmed part, named and placed. */
function controlFault(name: string): string {
  const lead = name.length - name.trimStart().length;
  const chars = [...name];
  let position = [...name.slice(0, lead)].length;
  for (const c of chars.slice(position)) {
    position += 1;
    if (CONTROL.test(c)) {
      const code = c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
      return `holds a control character, U+${code}, at character ${position}: none is allowed`;
    }
  }
  return "holds a control character: none is allowed";
}

/** True when `name`, trimmed, is a circuit name by the one rule. */
export function isTrackName(name: string): boolean {
  return trackNameProblem(name) === null;
}

/**
 * A circuit name by the one rule, as zod reads it: a string that
 * {@linkcode trackNameProblem} accepts, trimmed on the way out; a name too
 * long is refused, never cut. A fault's message is the precise rule broken,
 * as {@linkcode trackNameFault} words it, or "is required" for an absent
 * value and "must be a string" for another type, so a refusal names the
 * field (by its path) and the rule it broke.
 */
export const trackNameSchema = z.string({
  error: (issue) => issue.input === undefined ? "is required" : "must be a string",
})
  .refine((v) => trackNameProblem(v) === null, {
    error: (issue) => trackNameFault(issue.input as string) ?? TRACK_NAME_RULE,
  })
  .transform((v) => v.trim())
  .meta({ description: `a circuit name: ${TRACK_NAME_RULE}` });
