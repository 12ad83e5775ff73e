/**
 * Two laps of one loop cut at different places (one at the line, one where
 * another recorder cut it) line up only once they start at the same place:
 * a reference is turned to start where the analysed lap starts on the
 * circuit map's loop, so corner stretches, braking points and the time
 * delta compare the same road at the same metre.
 *
 * @module
 */
import type { LapSamples } from "../laps/columns.ts";
import { ANCHOR_TOLERANCE_M } from "./anchors.ts";
import { lapCorners } from "./corners.ts";
import { authoredCorners } from "./corners_authored.ts";
import type { CornerMap } from "./corner_map.ts";
import { type LapTrace, traceOf } from "./lap_trace.ts";
import { lapStartOnMap } from "./loop_start.ts";

/**
 * `samples` turned to start at the first sample at or past `at_m` metres of
 * the lap, wrapped round: the samples from there to the end, then those
 * from the start. Time and distance are counted again from the new first
 * sample, each sample keeping its own step (a hole stays a jump; the first
 * sample's step is its own `t` and `dist`). Every other channel is moved
 * with its sample. The input is returned as is when `at_m` is at or before
 * the first sample or past the last.
 */
export function startedAt(samples: LapSamples, at_m: number): LapSamples {
  const n = samples.t.length;
  const k = samples.dist.findIndex((d) => d >= at_m);
  if (k <= 0) return samples;
  const order = Array.from({ length: n }, (_, i) => (i + k) % n);
  const rise = (v: readonly number[]) => {
    let sum = 0;
    return order.map((i) => (sum += i === 0 ? v[0] : v[i] - v[i - 1]));
  };
  const out: Record<string, number[]> = {};
  for (const [name, column] of Object.entries(samples)) {
    if (Array.isArray(column) && column.length === n) {
      out[name] = order.map((i) => column[i] as number);
    }
  }
  return { ...out, t: rise(samples.t), dist: rise(samples.dist) } as LapSamples;
}

/**
 * `trace` turned to start where another lap starts on `map`'s loop
 * (`start`, metres along it; see loop_start.ts), when both starts are
 * known and lie more than the anchor tolerance apart around the loop;
 * otherwise `trace` itself. The turn is the loop's metres between the two
 * starts, read on `trace` at the same fraction of its length.
 */
export function turnedToStart(
  trace: LapTrace,
  start: number | null,
  map: CornerMap | null,
  label = "lap",
): LapTrace {
  if (start === null || map === null || !map.loop) return trace;
  const own = lapStartOnMap(map, authoredCorners(trace, map.corners));
  if (own === null) return trace;
  const length = map.length_m;
  const ahead = (((start - own) % length) + length) % length;
  if (Math.min(ahead, length - ahead) <= ANCHOR_TOLERANCE_M) return trace;
  return traceOf(startedAt(trace.samples, ahead * trace.length / length), label);
}

/** Where a lap starts on its circuit map's loop, and that map; nulls without one. */
export interface LoopStart {
  start_m: number | null;
  map: CornerMap | null;
}

/**
 * Where `trace` starts on the loop of the circuit's map it passes (of
 * `circuit`'s maps, the one {@linkcode lapCorners} takes), and that map;
 * nulls without a map.
 */
export function loopStartOf(
  trace: LapTrace,
  circuit: CornerMap | readonly CornerMap[] | null,
): LoopStart {
  if (circuit === null) return { start_m: null, map: null };
  const { start_m, map } = lapCorners(trace, null, {}, circuit);
  return { start_m, map };
}
