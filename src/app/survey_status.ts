/**
 * What the survey reports: its status and its saves. A leaf of types, so
 * the event definitions can name them without importing the service.
 *
 * @module
 */
import type { FinishLineState } from "../core/survey/finish_line.ts";
import type { ArmedMark } from "../core/survey/survey_step.ts";
import type { WidthSource } from "../core/survey/track_width.ts";

/** What a save wrote. */
export interface SurveySave {
  /** Why it was written. */
  reason: "autosave" | "stop" | "track_change";
  slug: string;
  track: string;
  /** The stored generation afterwards. */
  generation: number;
  /** The run ordinal the evidence was stamped with. */
  run: number;
  /** Run cells and crossings merged. */
  cells: number;
  crossings: number;
  /** Cells in the bundle before and after. */
  edges_before: number;
  edges: number;
  /** meta.runs afterwards. */
  runs: number;
  at: string;
}

/** Where the survey stands (GET /api/survey). */
export interface SurveyStatus {
  running: boolean;
  /**
   * True while a run stopped before its circuit was named keeps its cells,
   * waiting for a name (POST /api/survey/track saves and counts it) or a
   * discard (POST /api/survey/discard).
   */
  pending: boolean;
  /** The circuit label; "" while unlabelled (an unlabelled run saves nothing until named). */
  track: string;
  /** Where the run is saved, or null while unlabelled. */
  slug: string | null;
  /** This installation's run ordinal on the circuit; null while unlabelled or loading. */
  run: number | null;
  /** This installation's source id. */
  source_id: string;
  /** Axle track width in use, metres. */
  tw_m: number;
  tw_source: WidthSource;
  /** Accepted cornering ticks and solved edge rides for the current car. */
  tw_samples: { cornering: number; edge_ride: number };
  /** Cells laid this run (since start or the last circuit change), per side and in all. */
  cells: number;
  cells_by_side: { L: number; R: number };
  /** The armed mark, or null. */
  mark: ArmedMark | null;
  /** The start/finish line from stored and new crossings, or null with none. */
  finish: FinishLineState | null;
  /** Frames fed, surface transitions seen and points laid this run. */
  frames: number;
  transitions: number;
  points: { auto: number; straddle: number; manual: number };
  started_at: string | null;
  /** The latest save, or null. */
  last_save: SurveySave | null;
}
