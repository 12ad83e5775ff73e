/**
 * The comparison of laps over distance (`/api/analysis/compare`): each
 * lap's time delta to a reference and its channels, all on one distance
 * grid laid along the reference.
 *
 * @module
 */
import type { ChannelName } from "./channel_names.ts";
import { deltaAgainst } from "./delta.ts";
import {
  alignedChannel,
  alignedTimes,
  alignTo,
  checkChannels,
  DEFAULT_STEP_M,
  distanceGrid,
} from "./distance_grid.ts";
import type { CornerMap } from "./corner_map.ts";
import { loopStartOf, turnedToStart } from "./lap_rotation.ts";
import { traceOf } from "./lap_trace.ts";
import type { AnalysedLap, Comparison } from "./types.ts";

/** Channels compared when none are asked for. */
export const DEFAULT_CHANNELS: readonly ChannelName[] = ["speed", "throttle", "brake"];

/** What to compare. */
export interface CompareRequest {
  /** The reference: the grid is laid along it and deltas are against it. */
  ref: AnalysedLap;
  /** The laps to compare, in the order the answer lists them; may include the reference. */
  laps: readonly AnalysedLap[];
  /** Grid step, metres of the reference (default 1). */
  step?: number;
  /** Channel names (default speed, throttle, brake). */
  channels?: readonly string[];
  /**
   * The circuit's corner map (or its layout's maps both ways round): where
   * each lap starts on its loop, so a lap cut elsewhere than the reference
   * is read from where the reference starts (lap_rotation.ts).
   */
  circuit?: CornerMap | readonly CornerMap[] | null;
}

/** `values` rounded to `dp` places as plain numbers (never -0, which JSON cannot carry). */
function rounded(values: Float64Array, dp: number): number[] {
  const f = 10 ** dp;
  const out: number[] = [];
  for (let k = 0; k < values.length; k++) out.push(Math.round(values[k] * f) / f + 0);
  return out;
}

/**
 * Compares laps against a reference: the grid runs from 0 to the
 * reference's length (metres, 2 dp) and each lap is read at the same
 * fractions of its own length; with the circuit's map, a lap cut elsewhere
 * on the loop than the reference is first turned to start where the
 * reference starts (`start_m`; each lap's own start is its `lap_start_m`). `delta_s` (3 dp) starts at 0 and ends at
 * the difference of the two laps' sample durations; it is 0 throughout
 * for the reference itself. Channels are 3 dp; a channel the lap does not
 * carry is null. Laps of different circuits are the caller's to refuse.
 * Throws BadRequest on a bad `step`, an unknown channel, or a lap without
 * distance.
 */
export function compareLaps(req: CompareRequest): Comparison {
  const channels = checkChannels(req.channels ?? DEFAULT_CHANNELS);
  const ref = traceOf(req.ref.samples, `lap ${req.ref.id}`);
  const grid = distanceGrid(ref.length, req.step ?? DEFAULT_STEP_M);
  const refTimes = alignedTimes(alignTo(ref, grid, ref.length));
  const { start_m, map } = loopStartOf(ref, req.circuit ?? null);
  return {
    distance: rounded(grid, 2),
    ref: req.ref.id,
    start_m,
    laps: req.laps.map((lap) => {
      const label = `lap ${lap.id}`;
      const own = lap === req.ref ? ref : traceOf(lap.samples, label);
      const lapStart = lap === req.ref || map === null ? start_m : loopStartOf(own, map).start_m;
      const trace = lap === req.ref ? ref : turnedToStart(own, start_m, map, label);
      const aligned = alignTo(trace, grid, ref.length);
      const values: Record<string, number[] | null> = {};
      for (const c of channels) {
        const v = alignedChannel(aligned, c);
        values[c] = v ? rounded(v, 3) : null;
      }
      return {
        id: lap.id,
        time_ms: lap.time_ms,
        lap_start_m: lapStart,
        delta_s: rounded(deltaAgainst(aligned, refTimes), 3),
        channels: values,
      };
    }),
  };
}
