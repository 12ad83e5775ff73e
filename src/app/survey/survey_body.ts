/**
 * The bodies of the survey's commands (REFERENCE.md 2.8-2.12), one zod
 * schema each, and the check that a body is an object at all.
 *
 * @module
 */
import { z } from "zod";
import { BadRequest } from "../../core/errors.ts";
import { ASSUMED_WIDTH_BOUNDS } from "../../core/survey/track_width.ts";
import { trackLabelSchema } from "../request_body.ts";

/** A survey start request (POST /api/survey/start). */
export interface StartRequest {
  track?: string | null;
  track_width_m?: number | null;
}

/**
 * `raw` itself when it is a JSON object.
 *
 * @throws {BadRequest} "WHAT must be a JSON object" at `$` otherwise.
 */
export function bodyObject(raw: unknown, what: string): Record<string, unknown> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new BadRequest(`${what} must be a JSON object`, [{
      path: "$",
      message: "must be an object",
    }]);
  }
  return raw as Record<string, unknown>;
}

const WIDTH_RULE =
  `track_width_m must be a number greater than ${ASSUMED_WIDTH_BOUNDS.min} and less than ${ASSUMED_WIDTH_BOUNDS.max}`;

/** POST /api/survey/start {track?, track_width_m?}. */
export const startSchema = z.object({
  track: trackLabelSchema.nullish(),
  track_width_m: z.number({ error: WIDTH_RULE })
    .gt(ASSUMED_WIDTH_BOUNDS.min, WIDTH_RULE)
    .lt(ASSUMED_WIDTH_BOUNDS.max, WIDTH_RULE)
    .nullish(),
});

/** POST /api/survey/track {track}. */
export const trackSchema = z.object({ track: trackLabelSchema });

const MARK_SIDE_RULE = 'side must be "L", "R" or null (null disarms)';
const MARK_KIND_RULE = 'kind must be "edge", "runoff" or "wall"';

/** POST /api/survey/mark {side, kind?}. */
export const markSchema = z.object({
  side: z.union([z.literal("L"), z.literal("R"), z.null()], {
    error: (issue) => issue.input === undefined ? `required: ${MARK_SIDE_RULE}` : MARK_SIDE_RULE,
  }),
  kind: z.enum(["edge", "runoff", "wall"], { error: MARK_KIND_RULE }).default("edge"),
});

/** A survey start as {@linkcode startSchema} parsed it: label trimmed, width in range. */
export type SurveyStart = z.output<typeof startSchema>;

/** A circuit label as {@linkcode trackSchema} parsed it: trimmed, held to the track-name rule. */
export type SurveyTrack = z.output<typeof trackSchema>;

/** A manual mark as {@linkcode markSchema} parsed it: kind defaulted to edge. */
export type SurveyMark = z.output<typeof markSchema>;
