/**
 * What the survey reports: its status and its saves. A leaf of types, so
 * the event definitions can name them without importing the service.
 *
 * @module
 */
import { z } from "zod";

const num = z.number();
const count = z.int().min(0);

/** What a save wrote. */
const surveySaveSchema = z.strictObject({
  /** Why it was written. */
  reason: z.enum(["autosave", "stop", "track_change"]),
  slug: z.string(),
  track: z.string(),
  /** The stored generation afterwards. */
  generation: z.int(),
  /** The run ordinal the evidence was stamped with. */
  run: z.int(),
  /** Run cells and crossings merged. */
  cells: count,
  crossings: count,
  /** Cells in the bundle before and after. */
  edges_before: count,
  edges: count,
  /** meta.runs afterwards. */
  runs: count,
  at: z.string(),
});

/**
 * Where the survey stands (GET /api/survey and the answers of every survey
 * command): the response schema, and through `z.output` the type the
 * service answers with, so the two cannot drift.
 */
export const surveyStatusSchema = z.strictObject({
  running: z.boolean(),
  /**
   * True while a run stopped before its circuit was named keeps its cells,
   * waiting for a name (POST /api/survey/track saves and counts it) or a
   * discard (POST /api/survey/discard).
   */
  pending: z.boolean(),
  /** The circuit label; "" while unlabelled (an unlabelled run saves nothing until named). */
  track: z.string(),
  /** Where the run is saved, or null while unlabelled. */
  slug: z.string().nullable(),
  /** This installation's run ordinal on the circuit; null while unlabelled or loading. */
  run: z.int().nullable(),
  /** This installation's source id. */
  source_id: z.string(),
  /** Axle track width in use, metres. */
  tw_m: num,
  tw_source: z.enum(["cornering", "memory", "edge_ride", "assumed"]),
  /** Accepted cornering ticks and solved edge rides for the current car. */
  tw_samples: z.strictObject({ cornering: count, edge_ride: count }),
  /** Cells laid this run (since start or the last circuit change), per side and in all. */
  cells: count,
  cells_by_side: z.strictObject({ L: count, R: count }),
  /** The armed mark, or null. */
  mark: z.strictObject({
    side: z.enum(["L", "R"]),
    kind: z.enum(["wall", "runoff", "edge"]),
  }).nullable(),
  /** The start/finish line from stored and new crossings, or null with none. */
  finish: z.strictObject({
    crossings: count,
    x: num,
    z: num,
    spread_m: num,
    hx: num,
    hz: num,
    confident: z.boolean(),
  }).nullable(),
  /** Frames fed, surface transitions seen and points laid this run. */
  frames: count,
  transitions: count,
  points: z.strictObject({ auto: count, straddle: count, manual: count }),
  started_at: z.string().nullable(),
  /** The latest save, or null. */
  last_save: surveySaveSchema.nullable(),
}).meta({ id: "SurveyStatus" });

/** What a save wrote. */
export type SurveySave = z.output<typeof surveySaveSchema>;

/** Where the survey stands (GET /api/survey). */
export type SurveyStatus = z.output<typeof surveyStatusSchema>;
