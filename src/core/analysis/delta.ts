/**
 * Time delta over distance: how far behind (or ahead of) a reference lap a
 * lap is at each point of the lap, from the two laps' sample times.
 *
 * @module
 */
import { type Aligned, alignedTimes, alignTo } from "./distance_grid.ts";
import type { LapTrace } from "./lap_trace.ts";

/**
 * The aligned lap's time minus `refTimes` (the reference's times at the
 * same grid points), s. Positive means the lap is behind.
 */
export function deltaAgainst(lap: Aligned, refTimes: Float64Array): Float64Array {
  const out = alignedTimes(lap);
  for (let k = 0; k < out.length; k++) out[k] -= refTimes[k];
  return out;
}

/**
 * The lap's time minus the reference's at each point of `grid` (metres of
 * the reference; the lap is read at the same fraction of its own length).
 * Positive means the lap is behind. Guarantees: 0 at distance 0; exactly
 * `lap.duration - ref.duration` at the grid's last point when that point is
 * the reference's length; identically 0 for two traces of the same samples.
 */
export function timeDelta(lap: LapTrace, ref: LapTrace, grid: Float64Array): Float64Array {
  return deltaAgainst(alignTo(lap, grid, ref.length), alignedTimes(alignTo(ref, grid, ref.length)));
}
