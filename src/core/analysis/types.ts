/**
 * The shapes lap analysis works on and answers with. Field names of the
 * answers are the HTTP API's (snake_case), so a result serialises unchanged
 * as the body of `/api/analysis/*`.
 *
 * @module
 */
import type { LapSamples } from "../laps/columns.ts";
import type { Point, Side } from "../bundle/types.ts";

/**
 * One lap as analysis needs it: its id, the game's lap time and its samples.
 * A stored `Lap` satisfies it as is.
 */
export interface AnalysedLap {
  id: number;
  /** Lap time as the game reported it, ms; 0 or less when unknown. */
  time_ms: number;
  samples: LapSamples;
}

/**
 * Where a lap's corners come from: the circuit's bundle (`authored`), the
 * circuit's corner map (`circuit`: made once from its reference line or its
 * best lap, and located on every lap), or the lap's own line (`lap`: only a
 * lap of an unnamed circuit).
 */
export type CornerSource = "authored" | "circuit" | "lap";

/** A corner by number and name, with its turn and its distances along a lap, m. */
export interface CornerPlace {
  /** 1-based, in track order from the start line. */
  n: number;
  name: string;
  /** `L` or `R`; null when neither the author nor the line says. */
  direction: Side | null;
  apex_m: number;
  entry_m: number;
  exit_m: number;
}

/**
 * A corner located on one lap, in that lap's own distance from the start
 * line. `entry_m <= apex_m <= exit_m`, all within `[0, lap length]`.
 */
export interface LapCorner extends CornerPlace {
  /** World positions of entry, apex and exit on this lap, for finding them on another lap. */
  entry: Point;
  apex: Point;
  exit: Point;
}

/** The corners of one lap and where they came from. */
export interface LapCorners {
  source: CornerSource;
  corners: LapCorner[];
}

/**
 * One row of the per-corner report (`/api/analysis/corners`): a lap's
 * corner against the same corner on a reference lap. Speeds in km/h,
 * distances in metres of the analysed lap (the reference's braking point is
 * carried over to the analysed lap's metres by fraction of lap), times in
 * seconds. `ref_*` and `delta_s` are null without a reference, and
 * `brake_m`/`ref_brake_m` are null when that lap did not brake for it.
 */
export interface CornerReportRow extends CornerPlace {
  /** Where the analysed lap passed the apex, world metres (0.01), so a tool can draw it. */
  apex: Point;
  entry_kmh: number;
  min_kmh: number;
  exit_kmh: number;
  brake_m: number | null;
  ref_brake_m: number | null;
  time_s: number;
  ref_time_s: number | null;
  /** `time_s - ref_time_s`: positive when the lap lost time in the corner. */
  delta_s: number | null;
}

/** The body of `/api/analysis/corners`. */
export interface CornerReport {
  source: CornerSource;
  /** Sorted by `delta_s` descending (most time lost first), then by `n`. */
  corners: CornerReportRow[];
}

/** One lap in the body of `/api/analysis/compare`. */
export interface ComparedLapResult {
  id: number;
  time_ms: number;
  /** Time behind the reference at each grid point, s (negative: ahead). */
  delta_s: number[];
  /** Each requested channel on the grid; null when this lap does not carry it. */
  channels: Record<string, number[] | null>;
}

/** The body of `/api/analysis/compare`. */
export interface Comparison {
  /** Grid distances in the reference lap's metres, from 0 to its length. */
  distance: number[];
  /** Id of the reference lap. */
  ref: number;
  laps: ComparedLapResult[];
}

/**
 * A sector as defined for a circuit, by world positions so every lap finds
 * its own distances. A null point is the start/finish line.
 */
export interface SectorDef {
  /** 1-based. */
  n: number;
  name: string;
  start: Point | null;
  end: Point | null;
}

/** Where a circuit's sectors come from. */
export type SectorSource = "authored" | "default";

/** The sectors of a circuit. */
export interface SectorPlan {
  source: SectorSource;
  sectors: SectorDef[];
  /**
   * True when the sectors tile the lap, line to line, with no gap or
   * overlap: only then do a lap's sector times sum to its time and a
   * theoretical best exist.
   */
  covers_lap: boolean;
}

/** One lap's sector times, on the game's clock, s; null where the lap never passed the sector. */
export interface LapSectorTimes {
  lap_id: number;
  time_ms: number;
  /** Indexed like the plan's sectors. */
  times_s: (number | null)[];
  /** The sectors' start and end on this lap, metres. */
  bounds_m: ([number, number] | null)[];
}

/** One row of `/api/analysis/sectors`. */
export interface SectorBest {
  n: number;
  name: string;
  /** Where the sector starts and ends on the best lap, metres. */
  start_m: number | null;
  end_m: number | null;
  /** Fastest time through the sector across the laps given, s; null when none passed it. */
  best_s: number | null;
  /** The lap that set `best_s`. */
  lap_id: number | null;
}

/** The body of `/api/analysis/sectors`. */
export interface SectorBests {
  source: SectorSource;
  sectors: SectorBest[];
  /** Sum of the best sectors, ms; null when the sectors do not tile the lap or one has no time. */
  theoretical_best_ms: number | null;
  best_lap_ms: number | null;
  best_lap_id: number | null;
}

/** A stretch of the lap where the laps compared differ most. */
export interface ConsistencyHotspot {
  /** On the median lap, metres. */
  start_m: number;
  end_m: number;
  /** Standard deviation of the laps' times through the stretch, s. */
  time_spread_s: number;
  /** Mean over the stretch of the standard deviation of speed, km/h. */
  speed_spread_kmh: number;
  /** The corner whose window overlaps the stretch most, by number and name, or null on a straight. */
  corner: { n: number; name: string } | null;
}

/** The body of `/api/analysis/consistency`. */
export interface Consistency {
  /** The laps considered (the best N given), fastest first. */
  lap_ids: number[];
  lap_times_ms: number[];
  /** The lap of median time (the faster of the two middle laps when N is even). */
  median_lap_id: number;
  median_lap_ms: number;
  /** Standard deviation of the lap times, s. */
  time_spread_s: number;
  /** Grid distances on the median lap, metres. */
  distance: number[];
  /** Mean speed of the laps at each grid point, km/h. */
  mean_kmh: number[];
  /** Standard deviation of speed across the laps at each grid point, km/h. */
  spread_kmh: number[];
  /** Where the laps differ most, worst first. */
  hotspots: ConsistencyHotspot[];
}
