/**
 * The body of a session change (`PATCH /api/sessions/{id}`): any of the
 * track name, the notes and the exclusion from bests, each checked by its
 * own rule, and nothing else.
 *
 * @module
 */
import { BadRequest } from "../core/errors.ts";
import { NOTES_RULE, notesProblem } from "../core/laps/session.ts";
import { validTrackName } from "./request_body.ts";

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
 * `raw` as a session change: an object holding at least one of `name`
 * (the track-name rule), `notes` (see {@linkcode NOTES_RULE}) and
 * `bests_excluded` (a boolean), and no other field.
 *
 * @throws {BadRequest} naming the first fault with its JSON path (`$`,
 *   `$.name`, `$.notes`, `$.bests_excluded` or `$.<unknown field>`).
 */
export function parseSessionPatch(raw: unknown): SessionPatch {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw fault("$", "must be an object");
  }
  const body = raw as Record<string, unknown>;
  for (const key of Object.keys(body)) {
    if (!(PATCH_FIELDS as readonly string[]).includes(key)) {
      throw fault(`$.${key}`, `is not a field of a session change (${PATCH_FIELDS.join(", ")})`);
    }
  }
  if (Object.keys(body).length === 0) {
    throw fault("$", `must hold at least one of ${PATCH_FIELDS.join(", ")}`);
  }
  const patch: SessionPatch = {};
  if ("name" in body) patch.name = validTrackName(body.name);
  if ("notes" in body) {
    if (typeof body.notes !== "string" || notesProblem(body.notes) !== null) {
      throw fault("$.notes", NOTES_RULE);
    }
    patch.notes = body.notes;
  }
  if ("bests_excluded" in body) {
    if (typeof body.bests_excluded !== "boolean") {
      throw fault("$.bests_excluded", "must be true or false");
    }
    patch.bests_excluded = body.bests_excluded;
  }
  return patch;
}

function fault(path: string, message: string): BadRequest {
  return new BadRequest(`invalid session change: ${path}: ${message}`, [{ path, message }]);
}
