/**
 * Small planar helpers shared by the geometry compiler: rounding as the
 * reference rounds, and points on the ground plane.
 *
 * @module
 */
import { roundHalfEven } from "../bundle/cell.ts";

/** A point on the ground plane with an optional elevation. */
export interface GroundPoint {
  x: number;
  z: number;
  y: number | null;
}

/**
 * `value` rounded to `dp` decimals, halves to even on the scaled value (as
 * Python's `round` does for the reference's figures). Never returns -0.
 */
export function roundTo(value: number, dp: number): number {
  const f = 10 ** dp;
  const r = roundHalfEven(value * f) / f;
  return r === 0 ? 0 : r;
}

/** Distance between two ground points, metres. */
export function dist(a: { x: number; z: number }, b: { x: number; z: number }): number {
  return Math.hypot(b.x - a.x, b.z - a.z);
}

/** The elevation between `a` (t = 0) and `b` (t = 1); one missing end gives the other's. */
export function lerpY(a: number | null, b: number | null, t: number): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return a + (b - a) * t;
}
