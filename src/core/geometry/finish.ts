/**
 * The start/finish line and wall ticks (REFERENCE.md 3.7).
 *
 * @module
 */
import type { Edge, FinishCrossing } from "../bundle/types.ts";
import { crossingSums } from "../bundle/crossing_sums.ts";
import { roundTo } from "./planar.ts";
import type { Segment } from "./types.ts";

/** Half the drawn finish line, metres. */
export const FINISH_HALF_LENGTH_M = 12;
/** Half a wall tick, metres. */
export const WALL_TICK_HALF_M = 0.9;

/**
 * The finish line: 24 m across the mean heading, centred on the mean
 * crossing, 1 dp. Null without crossings or when their headings cancel out.
 */
export function finishLine(crossings: readonly FinishCrossing[]): Segment | null {
  if (crossings.length === 0) return null;
  let { x, z, hx, hz } = crossingSums(crossings);
  const n = crossings.length;
  x /= n;
  z /= n;
  hx /= n;
  hz /= n;
  const len = Math.hypot(hx, hz);
  if (len < 1e-6) return null;
  const ax = (hz / len) * FINISH_HALF_LENGTH_M;
  const az = (-hx / len) * FINISH_HALF_LENGTH_M;
  return [roundTo(x - ax, 1), roundTo(z - az, 1), roundTo(x + ax, 1), roundTo(z + az, 1)];
}

/** What a wall tick is drawn from: a cell's position, heading and kind. */
export type WallCell = Pick<Edge, "x" | "z" | "hx" | "hz" | "kind">;

/** One tick along the travel direction for every cell whose kind is wall, in document order. */
export function wallTicks(edges: readonly WallCell[]): Segment[] {
  const out: Segment[] = [];
  for (const e of edges) {
    if (e.kind !== "wall") continue;
    out.push([
      roundTo(e.x - WALL_TICK_HALF_M * e.hx, 1),
      roundTo(e.z - WALL_TICK_HALF_M * e.hz, 1),
      roundTo(e.x + WALL_TICK_HALF_M * e.hx, 1),
      roundTo(e.z + WALL_TICK_HALF_M * e.hz, 1),
    ]);
  }
  return out;
}
