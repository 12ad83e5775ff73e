/**
 * The zod schema of the survey status (`GET /api/survey` and the answers of
 * every survey command), checked at compile time against
 * src/app/survey_status.ts.
 *
 * @module
 */
import { z } from "zod";
import type { SurveyStatus } from "../../app/survey_status.ts";
import type { SameType } from "./same_type.ts";

const num = z.number();
const count = z.int().min(0);

/** Where the survey stands. */
export const surveyStatusSchema = z.strictObject({
  running: z.boolean(),
  pending: z.boolean(),
  track: z.string(),
  slug: z.string().nullable(),
  run: z.int().nullable(),
  source_id: z.string(),
  tw_m: num,
  tw_source: z.enum(["cornering", "memory", "edge_ride", "assumed"]),
  tw_samples: z.strictObject({ cornering: count, edge_ride: count }),
  cells: count,
  cells_by_side: z.strictObject({ L: count, R: count }),
  mark: z.strictObject({
    side: z.enum(["L", "R"]),
    kind: z.enum(["wall", "runoff", "edge"]),
  }).nullable(),
  finish: z.strictObject({
    crossings: count,
    x: num,
    z: num,
    spread_m: num,
    hx: num,
    hz: num,
    confident: z.boolean(),
  }).nullable(),
  frames: count,
  transitions: count,
  points: z.strictObject({ auto: count, straddle: count, manual: count }),
  started_at: z.string().nullable(),
  last_save: z.strictObject({
    reason: z.enum(["autosave", "stop", "track_change"]),
    slug: z.string(),
    track: z.string(),
    generation: z.int(),
    run: z.int(),
    cells: count,
    crossings: count,
    edges_before: count,
    edges: count,
    runs: count,
    at: z.string(),
  }).nullable(),
}).meta({ id: "SurveyStatus" });

const checks: {
  surveyStatus: SameType<z.output<typeof surveyStatusSchema>, SurveyStatus>;
} = { surveyStatus: true };
void checks;
