/**
 * The queries of `/api/analysis/*` and of a lap's notes: each route
 * validates its query string with one of these schemas and publishes it in
 * the OpenAPI document; the analysis service gets the typed question
 * (src/app/analysis/analysis.ts) and never sees the query string; the
 * route hands a schema's output to the service, so the type checker holds
 * the two together. Every rule is the engine's or the service's
 * (channel names, the grid step, the laps' source), read from where it is
 * written.
 *
 * @module
 */
import { z } from "zod";
import { channelNameSchema } from "../../core/analysis/channel_names.ts";
import { DEFAULT_CONSISTENCY_LAPS, MAX_CONSISTENCY_LAPS } from "../../core/analysis/consistency.ts";
import { DEFAULT_CHANNELS } from "../../core/analysis/compare.ts";
import { MIN_STEP_M, STEP_RULE } from "../../core/analysis/distance_grid.ts";
import { TRACK_NAME_RULE } from "../../core/track_name.ts";
import { MAX_COMPARED_LAPS } from "../../app/analysis/analysis.ts";
import { lapSourceProblem, ONE_SOURCE } from "../../app/analysis/lap_source.ts";
import {
  carParamSchema,
  idListParamSchema,
  idParamSchema,
  intParamSchema,
  listParamSchema,
  minNumberParamSchema,
  trackParamSchema,
} from "../query_params.ts";

/** The query of `GET /api/analysis/compare`. */
export const compareQuerySchema = z.object({
  laps: idListParamSchema(MAX_COMPARED_LAPS),
  ref: idParamSchema.optional(),
  // Held to the engine's minimum here, so a refusal has this one wording.
  step: minNumberParamSchema(MIN_STEP_M, STEP_RULE)
    .meta({ description: `grid step: ${STEP_RULE}, default 1` }).optional(),
  channels: listParamSchema(channelNameSchema).meta({
    description: `sample channels, comma-separated; default ${DEFAULT_CHANNELS.join(",")}`,
  }).optional(),
});

/** The query of `GET /api/analysis/corners`. */
export const cornersQuerySchema = z.object({
  lap: idParamSchema,
  ref: idParamSchema.optional(),
});

/** The query of `GET /api/laps/{id}/notes`: the reference, when not the default. */
export const notesQuerySchema = z.object({
  ref: idParamSchema.meta({
    description: "reference lap; default the best complete lap of the circuit and car, " +
      "else the session's best (never the lap itself)",
  }).optional(),
});

/** The laps of a sectors or consistency query: a circuit's or a session's, in a car. */
const lapSourceShape = {
  track: trackParamSchema.meta({
    description: `a circuit name: ${TRACK_NAME_RULE}; the laps of that circuit (${ONE_SOURCE})`,
  }).optional(),
  session: idParamSchema.meta({
    description: `a session id: the laps of that session, named or not (${ONE_SOURCE})`,
  }).optional(),
  car: carParamSchema,
};

/** Refuses a query naming both or neither of `track` and `session`, as the service would. */
function oneSource(q: { track?: string; session?: number }, ctx: z.RefinementCtx): void {
  const problem = lapSourceProblem(q);
  if (problem) ctx.addIssue({ code: "custom", path: [problem.path], message: problem.message });
}

/** The query of `GET /api/analysis/sectors`: a circuit name or a session id, and a car id. */
export const sectorsQuerySchema = z.object(lapSourceShape).superRefine(oneSource);

/** The query of `GET /api/analysis/consistency`: as sectors', and how many laps. */
export const consistencyQuerySchema = z.object({
  ...lapSourceShape,
  n: intParamSchema(2, MAX_CONSISTENCY_LAPS).prefault(String(DEFAULT_CONSISTENCY_LAPS)),
}).superRefine(oneSource);
