/**
 * Sums over finish crossings, which the survey's line state and the
 * compiled finish line both average in their own way.
 *
 * @module
 */
import type { FinishCrossing } from "./types.ts";

/** Component sums of the crossings' positions and headings. */
export interface CrossingSums {
  x: number;
  z: number;
  hx: number;
  hz: number;
}

/** The sums of x, z, hx and hz over `crossings`, in list order (all 0 for none). */
export function crossingSums(crossings: readonly FinishCrossing[]): CrossingSums {
  const sums = { x: 0, z: 0, hx: 0, hz: 0 };
  for (const c of crossings) {
    sums.x += c.x;
    sums.z += c.z;
    sums.hx += c.hx;
    sums.hz += c.hz;
  }
  return sums;
}
