/**
 * The driven line of a bundle: where the car was when the survey laid each
 * border record. A straddle or mark record lies half an axle track to one
 * side of the car, across the heading it carries (a surface transition lies
 * at a wheel, about as far), so the car's centre is recovered by stepping
 * back across. Records are stored in the order they
 * were first laid, so taken in order they trace the survey's path, and a
 * partial survey whose borders are a few strokes still shows where it went.
 *
 * @module
 */
import type { Edge } from "../bundle/types.ts";
import { roundTo } from "./planar.ts";

/** Polylines of [x, z] world metres, 1 dp, in driving order. */
export type DrivenLine = [x: number, z: number][][];

/** Consecutive positions farther apart than this start a new polyline, metres. */
export const DRIVEN_MAX_JOIN_M = 30;

/** Positions closer than this to the last one kept are skipped, metres. */
const DRIVEN_SPACING_M = 2;

/**
 * The car's path recovered from `edges` in document order: one position per
 * record (shifted by half its `tw` towards the road when both `tw` and a
 * heading are known, else the record itself), at least 2 m apart, split
 * wherever two consecutive positions lie more than
 * {@linkcode DRIVEN_MAX_JOIN_M} apart. Every polyline has at least two
 * points; an empty bundle gives none. Pure.
 */
export function drivenLine(edges: readonly Edge[]): DrivenLine {
  const out: DrivenLine = [];
  let run: [number, number][] = [];
  let lastX = NaN;
  let lastZ = NaN;
  const flush = () => {
    if (run.length >= 2) out.push(run);
    run = [];
  };
  for (const e of edges) {
    let x = e.x;
    let z = e.z;
    const h = Math.hypot(e.hx, e.hz);
    if (e.tw !== null && e.tw > 0 && h > 0.5) {
      // Laid at car + leftOf(h) * half, leftOf(h) = (hz, -hx); half is +tw/2 left, -tw/2 right.
      const half = (e.side === "L" ? 0.5 : -0.5) * e.tw;
      x -= (e.hz / h) * half;
      z += (e.hx / h) * half;
    }
    const d = Math.hypot(x - lastX, z - lastZ);
    if (d < DRIVEN_SPACING_M) continue;
    if (!(d <= DRIVEN_MAX_JOIN_M)) flush();
    run.push([roundTo(x, 1), roundTo(z, 1)]);
    lastX = x;
    lastZ = z;
  }
  flush();
  return out;
}
