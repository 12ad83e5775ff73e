/**
 * The query of `GET /api/laps` (and of the command line's `laps`, which
 * parses its flags as the route parses its query): each filter's rule as a
 * query-string schema, whose output is the lap listing's
 * {@linkcode LapListInput}; the limits are the listing's own.
 *
 * @module
 */
import { z } from "zod";
import {
  DEFAULT_LAP_LIMIT,
  LAP_ORDERS,
  type LapListInput,
  MAX_LAP_IDS,
  MAX_LAP_LIMIT,
} from "../../app/laps/lap_listing.ts";
import {
  carParamSchema,
  choiceParamSchema,
  idListParamSchema,
  intParamSchema,
  trackParamSchema,
} from "../query_params.ts";

/** The rule of the `ids` filter, as a refusal of an empty one says it. */
const IDS_RULE = `must list 1 to ${MAX_LAP_IDS} distinct positive integer lap ids, comma-separated`;

/** The query of `GET /api/laps`: the route validates with it and the API publishes it. */
export const lapListQuerySchema = z.object({
  track: trackParamSchema.optional(),
  car: carParamSchema.optional(),
  complete: choiceParamSchema(["true", "false"]).transform((v) => v === "true").optional(),
  order: choiceParamSchema(LAP_ORDERS).default("recent"),
  limit: intParamSchema(1, MAX_LAP_LIMIT).prefault(String(DEFAULT_LAP_LIMIT)),
  ids: idListParamSchema(MAX_LAP_IDS, IDS_RULE).meta({
    description: `only these laps: 1 to ${MAX_LAP_IDS} distinct positive integer lap ids, ` +
      "comma-separated; an unknown id is left out, the other filters still apply",
  }).optional(),
}) satisfies z.ZodType<LapListInput, Record<string, string | undefined>>;
