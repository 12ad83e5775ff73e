/**
 * Distance grids and resampling onto them. A grid is laid along one lap
 * (the reference); another lap is read at the same fraction of its own
 * length, so a lap that ran wide, and so drove a few metres more, still
 * lines up corner for corner.
 *
 * @module
 */
import { BadRequest } from "../errors.ts";
import type { SampleColumn } from "../laps/columns.ts";
import { type ChannelName, channelRefusal, isChannelName } from "./channel_names.ts";
import { type LapTrace, locate, type Located, timeAtPoint, valueAtPoint } from "./lap_trace.ts";

/** Default grid step, metres. */
export const DEFAULT_STEP_M = 1;

/** Finest grid step accepted, metres. */
export const MIN_STEP_M = 0.1;

/** The rule a grid step obeys, in the words a refusal gives. */
export const STEP_RULE = `must be a number of metres >= ${MIN_STEP_M}`;

/** Most points a grid may hold (a 20 km lap at 0.1 m). */
export const MAX_GRID_POINTS = 200_001;

/** Channels that hold a discrete state: resampled as held values, never blended. */
export const HELD_CHANNELS: ReadonlySet<SampleColumn> = new Set<SampleColumn>([
  "coast",
  "gear",
  "aids",
  "surface",
  "race_pos",
]);

/**
 * Distances `0, step, 2·step, ...` up to `length`, always ending on
 * `length` itself (so the last point is the line). Throws
 * {@linkcode BadRequest} on path `step` when the step is not a finite
 * number of at least {@linkcode MIN_STEP_M} or would make more than
 * {@linkcode MAX_GRID_POINTS} points.
 */
export function distanceGrid(length: number, step: number = DEFAULT_STEP_M): Float64Array {
  if (!Number.isFinite(step) || step < MIN_STEP_M) {
    throw new BadRequest(`step ${STEP_RULE}`, [{ path: "step", message: STEP_RULE }]);
  }
  const whole = Math.floor(length / step + 1e-9);
  const exact = Math.abs(whole * step - length) < 1e-6;
  const count = whole + (exact ? 1 : 2);
  if (count > MAX_GRID_POINTS) {
    throw new BadRequest(`step ${step} m gives more than ${MAX_GRID_POINTS} points`, [{
      path: "step",
      message: `must give at most ${MAX_GRID_POINTS} points over ${length.toFixed(0)} m`,
    }]);
  }
  const grid = new Float64Array(count);
  for (let k = 0; k < count; k++) grid[k] = k * step;
  grid[count - 1] = length;
  return grid;
}

/**
 * The distances on a lap of `lapLength` metres at the same fractions of the
 * lap as `grid` on a lap of `gridLength` metres. The last grid point, when
 * it is `gridLength`, maps to exactly `lapLength`.
 */
export function scaleToLap(
  grid: Float64Array,
  gridLength: number,
  lapLength: number,
): Float64Array {
  const out = new Float64Array(grid.length);
  const f = lapLength / gridLength;
  for (let k = 0; k < grid.length; k++) out[k] = grid[k] * f;
  if (grid.length > 0 && grid[grid.length - 1] === gridLength) out[grid.length - 1] = lapLength;
  return out;
}

/** A lap read at the grid's fractions: its located points, reused for every channel. */
export interface Aligned {
  readonly trace: LapTrace;
  readonly at: Located;
}

/** Aligns `trace` to `grid`, a grid laid along a lap of `gridLength` metres. */
export function alignTo(trace: LapTrace, grid: Float64Array, gridLength: number): Aligned {
  return { trace, at: locate(trace, scaleToLap(grid, gridLength, trace.length)) };
}

/** The lap's time at each aligned point, s. */
export function alignedTimes(a: Aligned): Float64Array {
  const { i, w } = a.at;
  const out = new Float64Array(i.length);
  for (let k = 0; k < i.length; k++) out[k] = timeAtPoint(a.trace, i[k], w[k]);
  return out;
}

/**
 * A channel at each aligned point, or null when the lap does not carry it.
 * Continuous channels are interpolated by distance; those in
 * {@linkcode HELD_CHANNELS} keep the sample at or before the point.
 */
export function alignedChannel(a: Aligned, channel: SampleColumn): Float64Array | null {
  const values = a.trace.samples[channel];
  if (!values || values.length !== a.trace.samples.t.length) return null;
  const held = HELD_CHANNELS.has(channel);
  const { i, w } = a.at;
  const out = new Float64Array(i.length);
  for (let k = 0; k < i.length; k++) out[k] = valueAtPoint(values, i[k], w[k], held);
  return out;
}

/**
 * Checks a list of requested channel names: every one must be one of
 * {@linkcode isChannelName}'s (a sample channel other than `t` and `dist`,
 * which the grid already says). Repeats are dropped.
 *
 * @throws {BadRequest} on the field `channels[k]` of the first unknown,
 *   whose message is `channelRefusal`'s.
 */
export function checkChannels(names: readonly string[]): ChannelName[] {
  const out: ChannelName[] = [];
  for (const [k, name] of names.entries()) {
    if (!isChannelName(name)) {
      throw new BadRequest(`unknown channel "${name}"`, [{
        path: `channels[${k}]`,
        message: channelRefusal(name),
      }]);
    }
    if (!out.includes(name)) out.push(name);
  }
  return out;
}
