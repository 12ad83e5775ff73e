/**
 * A lap prepared for lookups by distance: time and distance made
 * non-decreasing and anchored at the start line, so any distance of the lap
 * has one time and one value of every channel.
 *
 * Samples are stamped at the end of their tick (the lap recorder's and the
 * lap file's convention): the start line is t = 0 s, dist = 0 m, and the
 * last sample's `t` is the time the lap covered (its sample duration).
 *
 * @module
 */
import { BadRequest } from "../errors.ts";
import type { LapSamples } from "../laps/columns.ts";
import type { AnalysedLap } from "./types.ts";

/**
 * A lap's time over its distance. Index 0 is the start line; index `i + 1`
 * is sample `i`. `dist` and `t` never decrease, so a distance is reached at
 * one time: the first time the lap got there.
 */
export interface LapTrace {
  readonly samples: LapSamples;
  readonly dist: Float64Array;
  readonly t: Float64Array;
  /** The lap's own distance from the start line, metres (its last sample's). */
  readonly length: number;
  /** The lap's sample duration, s (its last sample's time). */
  readonly duration: number;
}

/**
 * Prepares `samples` for lookups. Distance or time that goes backwards is
 * held at its highest value so far (a repeated or non-monotonic value is a
 * pause, never a step back); a non-finite value repeats the previous one.
 * A jump in `t` where packets were lost stays a jump: lookups interpolate
 * straight across it. Throws {@linkcode BadRequest} naming `label` when the
 * lap has fewer than two samples or never moves.
 */
export function traceOf(samples: LapSamples, label = "lap"): LapTrace {
  const n = samples.t.length;
  if (n < 2 || samples.dist.length !== n) {
    throw new BadRequest(`${label}: needs at least 2 samples with a distance each`, [{
      path: `${label}.samples.t`,
      message:
        `has ${n} samples and dist has ${samples.dist.length}; at least 2 of each, equal counts`,
    }]);
  }
  const dist = new Float64Array(n + 1);
  const t = new Float64Array(n + 1);
  let d = 0;
  let s = 0;
  for (let i = 0; i < n; i++) {
    const di = samples.dist[i];
    const ti = samples.t[i];
    if (Number.isFinite(di) && di > d) d = di;
    if (Number.isFinite(ti) && ti > s) s = ti;
    dist[i + 1] = d;
    t[i + 1] = s;
  }
  if (!(d > 0)) {
    throw new BadRequest(`${label}: covers no distance`, [{
      path: `${label}.samples.dist`,
      message: "must rise above 0 m",
    }]);
  }
  return { samples, dist, t, length: d, duration: s };
}

/**
 * Where sorted distances fall in a trace: for each query, trace index `i`
 * and weight `w` such that the query lies `w` of the way from point `i - 1`
 * to point `i`. Queries at or below 0 land on the line (`i = 1, w = 0`),
 * queries at or beyond the length on the last sample (`w = 1`).
 */
export interface Located {
  readonly i: Int32Array;
  readonly w: Float64Array;
}

/** Locates ascending `queries` (metres of this lap) in one pass. */
export function locate(trace: LapTrace, queries: ArrayLike<number>): Located {
  const m = queries.length;
  const idx = new Int32Array(m);
  const w = new Float64Array(m);
  const dist = trace.dist;
  const last = dist.length - 1;
  let j = 1;
  for (let k = 0; k < m; k++) {
    const q = queries[k];
    if (q >= trace.length) {
      idx[k] = last;
      w[k] = 1;
      continue;
    }
    if (q <= 0) {
      idx[k] = 1;
      w[k] = 0;
      continue;
    }
    if (dist[j - 1] >= q) j = 1; // out-of-order query: restart the walk
    while (dist[j] < q) j++;
    idx[k] = j;
    w[k] = (q - dist[j - 1]) / (dist[j] - dist[j - 1]);
  }
  return { i: idx, w };
}

/** Locates one distance (binary search). */
export function locateOne(trace: LapTrace, q: number): [i: number, w: number] {
  const dist = trace.dist;
  if (q >= trace.length) return [dist.length - 1, 1];
  if (q <= 0) return [1, 0];
  let lo = 1;
  let hi = dist.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (dist[mid] < q) lo = mid + 1;
    else hi = mid;
  }
  return [lo, (q - dist[lo - 1]) / (dist[lo] - dist[lo - 1])];
}

/** Time at a located point, s: 0 at the line, the sample duration at the lap's length. */
export function timeAtPoint(trace: LapTrace, i: number, w: number): number {
  const t = trace.t;
  return t[i - 1] + (t[i] - t[i - 1]) * w;
}

/** Time at distance `q` of this lap, s. */
export function timeAt(trace: LapTrace, q: number): number {
  const [i, w] = locateOne(trace, q);
  return timeAtPoint(trace, i, w);
}

/**
 * A channel's value at a located point: interpolated by distance, or for a
 * held (discrete) channel the sample at or before it. The line takes the
 * first sample's value.
 */
export function valueAtPoint(
  values: ArrayLike<number>,
  i: number,
  w: number,
  held = false,
): number {
  // Trace index k is sample k - 1; the line (k = 0) borrows sample 0.
  const a = values[i < 2 ? 0 : i - 2];
  const b = values[i - 1];
  if (held) return w >= 1 ? b : a;
  return a + (b - a) * w;
}

/** A channel's value at distance `q` of this lap. */
export function valueAt(
  trace: LapTrace,
  values: ArrayLike<number>,
  q: number,
  held = false,
): number {
  const [i, w] = locateOne(trace, q);
  return valueAtPoint(values, i, w, held);
}

/** A lap's time, ms: the game's when known (> 0), otherwise its sample duration. */
export function lapTimeMs(lap: AnalysedLap, trace: LapTrace): number {
  return lap.time_ms > 0 ? lap.time_ms : Math.round(trace.duration * 1000);
}
