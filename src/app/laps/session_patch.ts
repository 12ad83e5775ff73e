/**
 * The body of a session change (`PATCH /api/sessions/{id}`): any of the
 * track name, the notes and the exclusion from bests, each checked by its
 * own rule, and nothing else.
 *
 * @module
 */
import { z } from "zod";
import { BadRequest } from "../../core/errors.ts";
import { jsonPath } from "../../core/bundle/issues.ts";
import { NOTES_RULE, notesProblem } from "../../core/laps/session.ts";
import { trackNameSchema } from "../../core/track_name.ts";

/** What a session change sets; absent fields stay as they are. */
export interface SessionPatch {
  /** The track name, trimmed (the session's track source becomes `user`). */
  name?: string;
  notes?: string;
  bests_excluded?: boolean;
}

/** The fields a session change may carry. */
export const PATCH_FIELDS = ["name", "notes", "bests_excluded"] as const;

/**
 * The body of a session change as zod reads it: validates every request and
 * is published as the API's request body (src/server/openapi).
 */
export const sessionPatchSchema = z.strictObject({
  name: trackNameSchema.optional(),
  notes: z.string({ error: NOTES_RULE }).refine((s) => notesProblem(s) === null, NOTES_RULE)
    .optional(),
  bests_excluded: z.boolean({ error: "must be true or false" }).optional(),
}, { error: "must be an object" })
  .refine(
    (body) => Object.keys(body).length > 0,
    `must hold at least one of ${PATCH_FIELDS.join(", ")}`,
  );

/** A session change as a caller sends it ({@linkcode sessionPatchSchema}'s input). */
export type SessionPatchInput = z.input<typeof sessionPatchSchema>;

/**
 * The refusal of a body {@linkcode sessionPatchSchema} did not accept, from
 * its `issues` (at least one): a session change is an object holding at
 * least one of `name` (the track-name rule), `notes` (see
 * {@linkcode NOTES_RULE}) and `bests_excluded` (a boolean), and no other
 * field. The route declares it (src/server/routes/sessions.ts), so the
 * schema that parses the body is the one the document shows.
 *
 * @returns a {@linkcode BadRequest} naming the first fault with its JSON
 *   path (`$`, `$.name`, `$.notes`, `$.bests_excluded` or
 *   `$.<unknown field>`): not an object, then an unknown field, then no
 *   field, then each field in order.
 */
export function sessionPatchRefusal(issues: readonly z.core.$ZodIssue[]): BadRequest {
  const rank = (i: z.core.$ZodIssue) =>
    i.path.length === 0
      ? (i.code === "invalid_type" ? 0 : i.code === "unrecognized_keys" ? 1 : 2)
      : 3;
  const first = issues.reduce((a, i) => rank(i) < rank(a) ? i : a);
  if (first.code === "unrecognized_keys") {
    return fault(
      jsonPath([first.keys[0]]),
      `is not a field of a session change (${PATCH_FIELDS.join(", ")})`,
    );
  }
  return fault(jsonPath(first.path), first.message);
}

function fault(path: string, message: string): BadRequest {
  return new BadRequest(`invalid session change: ${path}: ${message}`, [{ path, message }]);
}
