/**
 * Session administration: changes a driver makes to a stored session by hand.
 *
 * @module
 */
import { BadRequest, NotFound } from "../core/errors.ts";
import type { Session } from "../core/laps/session.ts";
import { isTrackName, MAX_TRACK_CHARS, TRACK_NAME_RULE } from "../core/track_name.ts";
import { updateSession } from "../storage/sessions.ts";
import type { App } from "./context.ts";

/** Longest track name a session may carry, in characters (SPEC.md 2.1 `track`). */
export const MAX_TRACK_NAME = MAX_TRACK_CHARS;

/**
 * The track name `name` would be stored as: trimmed and held to the one
 * rule of src/core/track_name.ts. Throws {@linkcode BadRequest} with the
 * issue at `$.name` otherwise.
 */
export function validTrackName(name: unknown): string {
  if (typeof name !== "string") {
    throw new BadRequest("name must be a string", [{
      path: "$.name",
      message: "must be a string",
    }]);
  }
  if (!isTrackName(name)) {
    throw new BadRequest(`name ${TRACK_NAME_RULE}`, [{ path: "$.name", message: TRACK_NAME_RULE }]);
  }
  return name.trim();
}

/**
 * Names session `id` after the circuit a driver typed: the name is validated
 * with {@linkcode validTrackName}, stored trimmed with track source `user`,
 * and the live session's in-memory copy follows when `id` is the live
 * session. Returns the updated session. Throws {@linkcode BadRequest} for a
 * bad name (nothing is written) and {@linkcode NotFound} for an unknown
 * session. Announces `{type: "session", reason: "renamed"}` on the bus, so
 * every face (TUI, SSE clients) shows the new name.
 */
export async function renameSession(app: App, id: number, name: string): Promise<Session> {
  const track = validTrackName(name);
  const updated = await updateSession(
    app.kv,
    id,
    (s) => ({ ...s, track_name: track, track_source: "user" }),
  );
  if (!updated) throw new NotFound(`session ${id} not found`);
  if (app.live.session?.id === id) {
    // A lap write in flight re-reads the session after saving; waiting for it
    // first keeps that older read from landing after ours.
    await app.live.flush();
    await app.live.refresh();
  }
  app.bus.emit({ type: "session", session: updated, reason: "renamed" });
  return updated;
}
