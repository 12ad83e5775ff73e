/**
 * The rules one edge of a v4 bundle obeys (SPEC.md 2.1, 8), as predicates
 * every reader of edges calls: the zod schema's refinements, the byte
 * reader of an import body and the decoder of a stored table. A limit or a
 * rule changes here, in one line, and every reader follows.
 *
 * Each predicate takes a number already read (a JSON number, a column
 * value) and is false for NaN and the infinities, as `z.number()` is.
 *
 * @module
 */
import { COORD_LIMIT, RUN_LIMIT, TW_LIMIT, UNIT_LIMIT } from "./limits.ts";
import { KINDS } from "./types.ts";

/** True for a world coordinate (x, z, and y when present): finite, within ±COORD_LIMIT. */
export function isCoord(value: number): boolean {
  return value >= -COORD_LIMIT && value <= COORD_LIMIT;
}

/** True for a component of a unit direction (hx, hz): within ±UNIT_LIMIT. */
export function isUnit(value: number): boolean {
  return value >= -UNIT_LIMIT && value <= UNIT_LIMIT;
}

/** True for an axle track width (tw when present): within ±TW_LIMIT. */
export function isTrackWidth(value: number): boolean {
  return value >= -TW_LIMIT && value <= TW_LIMIT;
}

/** True for a run counter (run, source_runs, a vote's last run): an integer 0 to RUN_LIMIT. */
export function isRunCounter(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= RUN_LIMIT;
}

/** True for a vote count on its own: an integer 1 to RUN_LIMIT. */
export function isVoteCount(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= RUN_LIMIT;
}

/**
 * True when a vote of `count` runs may end at `lastRun`: a vote is one run,
 * never one sample, so count <= max(lastRun, 1). Both already checked alone.
 */
export function countFitsRun(count: number, lastRun: number): boolean {
  return count <= Math.max(lastRun, 1);
}

/** True for a whole v4 vote entry [count, lastRun]. */
export function isVote(count: number, lastRun: number): boolean {
  return isVoteCount(count) && isRunCounter(lastRun) && countFitsRun(count, lastRun);
}

/** True for a table's side code. */
export function isSideCode(code: number): boolean {
  return code === 0 || code === 1;
}

/** True for a table's kind code: an index into {@linkcode KINDS}. */
export function isKindCode(code: number): boolean {
  return Number.isInteger(code) && code >= 0 && code < KINDS.length;
}

/**
 * True when no enumerable key sits on Object.prototype, so a for-in over a
 * plain object sees only its own keys. The readers that walk vote maps
 * without zod decline to run otherwise, and the schema judges instead.
 */
export function prototypeClean(): boolean {
  for (const _ in Object.prototype) return false;
  return true;
}
