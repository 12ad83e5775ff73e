/**
 * The one rule for a circuit name, wherever it comes from: a bundle's
 * `meta.track`, a survey label, a rename, a session name or a signature.
 * Names end up on one terminal line and in CSV headers, so a line break or
 * an escape sequence in one would corrupt both.
 *
 * @module
 */
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
