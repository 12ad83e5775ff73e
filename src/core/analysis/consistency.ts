/**
 * Consistency over a driver's best laps of a circuit and car: how much
 * their speed differs over the lap, which lap is the median one, and the
 * stretches where the good laps differ most in time.
 *
 * @module
 */
import type { Corner } from "../bundle/types.ts";
import { BadRequest } from "../errors.ts";
import { round } from "../laps/sample.ts";
import { lapCorners } from "./corners.ts";
import type { CornerMap } from "./corner_map.ts";
import { alignedChannel, alignedTimes, alignTo, distanceGrid } from "./distance_grid.ts";
import { lapTimeMs, type LapTrace, traceOf } from "./lap_trace.ts";
import type { AnalysedLap, Consistency, ConsistencyHotspot } from "./types.ts";

/** Laps considered when the caller does not say. */
export const DEFAULT_CONSISTENCY_LAPS = 5;

/** Most laps one consistency answer considers. */
export const MAX_CONSISTENCY_LAPS = 100;

/** Grid step of the speed arrays when the caller does not say, metres. */
export const DEFAULT_CONSISTENCY_STEP_M = 5;

/** Length of the stretches whose time spread is ranked, metres of the median lap. */
export const HOTSPOT_SEGMENT_M = 50;

/** Most stretches reported. */
export const HOTSPOT_COUNT = 3;

/** What to measure. */
export interface ConsistencyOptions {
  /** The best `n` laps are considered (default 5; 2 to 100). */
  n?: number;
  /** Grid step of `mean_kmh` and `spread_kmh`, metres (default 5). */
  step?: number;
  /** The circuit's authored corners, naming the hotspots; null to detect them. */
  corners?: readonly Corner[] | null;
  /** The circuit's corner map (or maps), naming the hotspots when no authored corner does. */
  circuit?: CornerMap | readonly CornerMap[] | null;
}

/** Mean and population standard deviation of `values`. */
function stats(values: ArrayLike<number>): [mean: number, sd: number] {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  const mean = sum / values.length;
  let sq = 0;
  for (let i = 0; i < values.length; i++) sq += (values[i] - mean) ** 2;
  return [mean, Math.sqrt(sq / values.length)];
}

/**
 * Consistency of the fastest `n` of `laps` (the caller passes complete laps
 * of one circuit and car; fewer than `n` are all used). The distance axis
 * is the median lap's; the other laps are read at the same fractions of
 * their own length. Spreads are population standard deviations. Throws
 * BadRequest on path `n` for an `n` outside 2..100, on `laps` when there
 * are none, on `step` for a bad step.
 */
export function consistency(
  laps: readonly AnalysedLap[],
  opts: ConsistencyOptions = {},
): Consistency {
  const n = opts.n ?? DEFAULT_CONSISTENCY_LAPS;
  if (!Number.isInteger(n) || n < 2 || n > MAX_CONSISTENCY_LAPS) {
    throw new BadRequest(`n must be an integer from 2 to ${MAX_CONSISTENCY_LAPS}`, [{
      path: "n",
      message: `must be an integer from 2 to ${MAX_CONSISTENCY_LAPS}, got ${n}`,
    }]);
  }
  if (laps.length === 0) {
    throw new BadRequest("no laps to measure", [{
      path: "laps",
      message: "must hold at least one lap",
    }]);
  }
  const ranked = laps
    .map((lap) => {
      const trace = traceOf(lap.samples, `lap ${lap.id}`);
      return { lap, trace, ms: lapTimeMs(lap, trace) };
    })
    .sort((a, b) => a.ms - b.ms || a.lap.id - b.lap.id)
    .slice(0, n);
  const median = ranked[Math.floor((ranked.length - 1) / 2)];
  const length = median.trace.length;
  const traces = ranked.map((r) => r.trace);

  const grid = distanceGrid(length, opts.step ?? DEFAULT_CONSISTENCY_STEP_M);
  const speeds = traces.map((t) => alignedChannel(alignTo(t, grid, length), "speed")!);
  const mean: number[] = [];
  const spread: number[] = [];
  const column = new Float64Array(speeds.length);
  for (let k = 0; k < grid.length; k++) {
    for (let l = 0; l < speeds.length; l++) column[l] = speeds[l][k];
    const [m, sd] = stats(column);
    mean.push(round(m, 2));
    spread.push(round(sd, 2));
  }

  return {
    lap_ids: ranked.map((r) => r.lap.id),
    lap_times_ms: ranked.map((r) => r.ms),
    median_lap_id: median.lap.id,
    median_lap_ms: median.ms,
    time_spread_s: round(stats(ranked.map((r) => r.ms / 1000))[1], 3),
    distance: Array.from(grid, (d) => round(d, 2)),
    mean_kmh: mean,
    spread_kmh: spread,
    hotspots: hotspots(
      traces,
      median.trace,
      grid,
      spread,
      opts.corners ?? null,
      opts.circuit ?? null,
    ),
  };
}

/**
 * The {@linkcode HOTSPOT_COUNT} stretches of {@linkcode HOTSPOT_SEGMENT_M}
 * (on the median lap) through which the laps' times differ most, worst
 * first; stretches where they do not differ at all are left out.
 */
function hotspots(
  traces: readonly LapTrace[],
  median: LapTrace,
  grid: Float64Array,
  spread: readonly number[],
  authored: readonly Corner[] | null,
  circuit: CornerMap | readonly CornerMap[] | null,
): ConsistencyHotspot[] {
  const length = median.length;
  const cuts = distanceGrid(length, HOTSPOT_SEGMENT_M);
  const times = traces.map((t) => alignedTimes(alignTo(t, cuts, length)));
  const column = new Float64Array(traces.length);
  const ranked: { s: number; sd: number }[] = [];
  for (let s = 0; s + 1 < cuts.length; s++) {
    for (let l = 0; l < times.length; l++) column[l] = times[l][s + 1] - times[l][s];
    const sd = round(stats(column)[1], 3);
    if (sd > 0) ranked.push({ s, sd });
  }
  ranked.sort((a, b) => b.sd - a.sd || a.s - b.s);
  const corners = ranked.length > 0 ? lapCorners(median, authored, {}, circuit).corners : [];
  return ranked.slice(0, HOTSPOT_COUNT).map(({ s, sd }) => {
    const start = cuts[s];
    const end = cuts[s + 1];
    let sum = 0;
    let count = 0;
    for (let k = 0; k < grid.length; k++) {
      if (grid[k] >= start && grid[k] <= end) {
        sum += spread[k];
        count++;
      }
    }
    let corner: ConsistencyHotspot["corner"] = null;
    let most = 0;
    for (const c of corners) {
      const overlap = Math.min(end, c.exit_m) - Math.max(start, c.entry_m);
      if (overlap > most) {
        most = overlap;
        corner = { n: c.n, name: c.name };
      }
    }
    return {
      start_m: round(start, 1),
      end_m: round(end, 1),
      time_spread_s: sd,
      speed_spread_kmh: round(count > 0 ? sum / count : 0, 2),
      corner,
    };
  });
}
