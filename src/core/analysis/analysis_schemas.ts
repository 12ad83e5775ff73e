/**
 * The shapes analysis answers with (`/api/analysis/*`): one zod schema each,
 * and the types as their `z.output` (re-exported by types.ts), so the
 * published schemas and what the engine builds cannot drift.
 *
 * @module
 */
import { z } from "zod";

const num = z.number();
const side = z.enum(["L", "R"]);

/** A corner by number and name, with its turn and its distances along a lap, m. */
const cornerPlaceShape = {
  /** 1-based, in track order from the start line. */
  n: z.int(),
  name: z.string(),
  /** `L` or `R`; null when neither the author nor the line says. */
  direction: side.nullable(),
  apex_m: num,
  entry_m: num,
  exit_m: num,
};

/** A corner by number and name, with its turn and its distances along a lap, m. */
const cornerPlaceSchema = z.strictObject(cornerPlaceShape);

/** A corner by number and name, with its turn and its distances along a lap, m. */
export type CornerPlace = z.output<typeof cornerPlaceSchema>;

/**
 * One row of the per-corner report (`/api/analysis/corners`): a lap's
 * corner against the same corner on a reference lap. Speeds in km/h,
 * distances in metres of the analysed lap (the reference's braking point is
 * carried over to the analysed lap's metres by fraction of lap), times in
 * seconds. `ref_*` and `delta_s` are null without a reference, and
 * `brake_m`/`ref_brake_m` are null when that lap did not brake for it.
 */
const cornerReportRowSchema = z.strictObject({
  ...cornerPlaceShape,
  /** Where the analysed lap passed the apex, world metres (0.01), so a tool can draw it. */
  apex: z.strictObject({ x: num, z: num }).meta({
    description: "where the lap passed the apex, world metres",
  }),
  entry_kmh: num,
  min_kmh: num,
  exit_kmh: num,
  brake_m: num.nullable(),
  ref_brake_m: num.nullable(),
  /**
   * Time over the corner's stretch of each lap: from where braking for it
   * began to where braking for the next began (the line at either end), so
   * the rows' times add up to the lap's (corner_stretches.ts).
   */
  time_s: num,
  ref_time_s: num.nullable(),
  /** `time_s - ref_time_s`: positive when the lap lost time in the corner. */
  delta_s: num.nullable(),
});

/** One row of the per-corner report (`/api/analysis/corners`). */
export type CornerReportRow = z.output<typeof cornerReportRowSchema>;

/** One lap in the body of `/api/analysis/compare`. */
const comparedLapSchema = z.strictObject({
  id: z.int(),
  time_ms: num,
  /**
   * Where this lap was cut, metres along the circuit map's loop from its
   * line; null without a loop's map. A lap cut elsewhere than the
   * reference is read from the reference's start (`start_m`).
   */
  lap_start_m: num.nullable(),
  /** Time behind the reference at each grid point, s (negative: ahead). */
  delta_s: z.array(num),
  /** Each requested channel on the grid; null when this lap does not carry it. */
  channels: z.record(z.string(), z.array(num).nullable()),
});

/** One lap in the body of `/api/analysis/compare`. */
export type ComparedLapResult = z.output<typeof comparedLapSchema>;

/** The body of `/api/analysis/compare`. */
export const comparisonSchema = z.strictObject({
  /** Grid distances in the reference lap's metres, from 0 to its length. */
  distance: z.array(num),
  /** Id of the reference lap. */
  ref: z.int(),
  /**
   * Where the distance axis starts: the reference's start, metres along the
   * circuit map's loop from its line; null without a loop's map (then each
   * lap is read from its own start).
   */
  start_m: num.nullable(),
  laps: z.array(comparedLapSchema),
}).meta({ id: "Comparison" });

/** The body of `/api/analysis/compare`. */
export type Comparison = z.output<typeof comparisonSchema>;

/** The body of `/api/analysis/corners`. */
export const cornerReportSchema = z.strictObject({
  source: z.enum(["authored", "circuit", "lap"]).meta({
    description: "authored: the bundle's corners; circuit: the circuit's corner map (from its " +
      "reference line or best lap), located on the lap; lap: detected on this lap's own line",
  }),
  /**
   * Where the lap's distance axis (every `*_m` of the rows) starts: metres
   * along the circuit map's loop from its line, 0 up to the map's length (a
   * lap cut at the line about 0; a lap cut elsewhere where it was cut).
   * Null unless the corners are a loop's map (`source: "circuit"`).
   */
  lap_start_m: num.nullable(),
  /** Sorted by `delta_s` descending (most time lost first), then by `n`. */
  corners: z.array(cornerReportRowSchema),
}).meta({ id: "CornerReport" });

/** The body of `/api/analysis/corners`. */
export type CornerReport = z.output<typeof cornerReportSchema>;

/** One row of `/api/analysis/sectors`. */
const sectorBestSchema = z.strictObject({
  n: z.int(),
  name: z.string(),
  /** Where the sector starts and ends on the best lap, metres. */
  start_m: num.nullable(),
  end_m: num.nullable(),
  /** Fastest time through the sector across the laps given, s; null when none passed it. */
  best_s: num.nullable(),
  /** The lap that set `best_s`. */
  lap_id: z.int().nullable(),
});

/** One row of `/api/analysis/sectors`. */
export type SectorBest = z.output<typeof sectorBestSchema>;

/** The body of `/api/analysis/sectors`. */
export const sectorBestsSchema = z.strictObject({
  source: z.enum(["authored", "default"]),
  /**
   * Where the fastest lap (whose metres `start_m` and `end_m` are) starts,
   * metres along the circuit map's loop from its line; null without a
   * loop's map. A lap cut elsewhere is timed from there.
   */
  lap_start_m: num.nullable(),
  sectors: z.array(sectorBestSchema),
  /** Sum of the best sectors, ms; null when the sectors do not tile the lap or one has no time. */
  theoretical_best_ms: num.nullable(),
  best_lap_ms: num.nullable(),
  best_lap_id: z.int().nullable(),
}).meta({ id: "SectorBests" });

/** The body of `/api/analysis/sectors`. */
export type SectorBests = z.output<typeof sectorBestsSchema>;

/** A stretch of the lap where the laps compared differ most. */
const consistencyHotspotSchema = z.strictObject({
  /** On the median lap, metres. */
  start_m: num,
  end_m: num,
  /** Standard deviation of the laps' times through the stretch, s. */
  time_spread_s: num,
  /** Mean over the stretch of the standard deviation of speed, km/h. */
  speed_spread_kmh: num,
  /** The corner whose window overlaps the stretch most, by number and name, or null on a straight. */
  corner: z.strictObject({ n: z.int(), name: z.string() }).nullable(),
});

/** A stretch of the lap where the laps compared differ most. */
export type ConsistencyHotspot = z.output<typeof consistencyHotspotSchema>;

/** The body of `/api/analysis/consistency`. */
export const consistencySchema = z.strictObject({
  /** The laps considered (the best N given), fastest first. */
  lap_ids: z.array(z.int()),
  lap_times_ms: z.array(num),
  /** The lap of median time (the faster of the two middle laps when N is even). */
  median_lap_id: z.int(),
  median_lap_ms: num,
  /** Standard deviation of the lap times, s. */
  time_spread_s: num,
  /** Grid distances on the median lap, metres. */
  distance: z.array(num),
  /** Mean speed of the laps at each grid point, km/h. */
  mean_kmh: z.array(num),
  /** Standard deviation of speed across the laps at each grid point, km/h. */
  spread_kmh: z.array(num),
  /** Where the laps differ most, worst first. */
  hotspots: z.array(consistencyHotspotSchema),
}).meta({ id: "Consistency" });

/** The body of `/api/analysis/consistency`. */
export type Consistency = z.output<typeof consistencySchema>;
