/**
 * The 1 m grid bundles are keyed on. Python's `round` rounds halves to even,
 * and documents written by the reference system were keyed that way, so the
 * grid must round the same way or a re-import would split cells.
 *
 * @module
 */
import type { Side } from "./types.ts";

/**
 * Rounds to the nearest integer, halves to the even neighbour (0.5 -> 0,
 * 1.5 -> 2, 2.5 -> 2, -0.5 -> 0). Never returns -0.
 */
export function roundHalfEven(value: number): number {
  const rounded = Math.round(value);
  // Math.round takes halves up; a half is exactly 0.5 below its result (the
  // difference of two doubles this close is exact), and goes to the even side.
  const even = rounded - value === 0.5 && rounded % 2 !== 0 ? rounded - 1 : rounded;
  return even === 0 ? 0 : even;
}

const SPAN = 2 * 10_000_000 + 1;
const OFFSET = 10_000_000;

/**
 * The identity of an edge's cell, as a number: equal for two edges exactly
 * when they are the same metre of the same side. Exact for coordinates
 * within the bundle's +-10,000,000 m limit (the key stays below 2^53).
 */
export function cellKey(x: number, z: number, side: Side): number {
  return ((roundHalfEven(x) + OFFSET) * SPAN + roundHalfEven(z) + OFFSET) * 2 +
    (side === "R" ? 1 : 0);
}

/** The identity finish crossings are deduplicated on: the rounded (x, z), as a number. */
export function pointKey(x: number, z: number): number {
  return (roundHalfEven(x) + OFFSET) * SPAN + roundHalfEven(z) + OFFSET;
}
