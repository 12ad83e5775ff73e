/**
 * The shapes lap analysis works on and answers with. Field names of the
 * answers are the HTTP API's (snake_case), so a result serialises unchanged
 * as the body of `/api/analysis/*`.
 *
 * @module
 */
import type { LapSamples } from "../laps/columns.ts";
import type { Point } from "../bundle/types.ts";
import type { CornerPlace, CornerReport, SectorBests } from "./analysis_schemas.ts";

export type {
  ComparedLapResult,
  Comparison,
  Consistency,
  ConsistencyHotspot,
  CornerPlace,
  CornerReport,
  CornerReportRow,
  SectorBest,
  SectorBests,
} from "./analysis_schemas.ts";

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
export type CornerSource = CornerReport["source"];

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

/**
 * The corners of one lap (in the order the lap passed them) and where they
 * came from.
 */
export interface LapCorners {
  source: CornerSource;
  corners: LapCorner[];
  /**
   * Where the lap's distance axis starts, metres along the circuit map's
   * loop from its line (`[0, length)`); null when the corners are not a
   * loop's map (loop_start.ts).
   */
  start_m: number | null;
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
export type SectorSource = SectorBests["source"];

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
