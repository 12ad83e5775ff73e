/**
 * Session administration: changes a driver makes to a stored session by hand.
 *
 * @module
 */
import { BadRequest, NotFound } from "../core/errors.ts";
import type { Session } from "../core/laps/session.ts";
import { updateSession } from "../storage/sessions.ts";
import type { App } from "./context.ts";

/** Longest track name a session may carry, in characters (SPEC.md 2.1 `track`). */
export const MAX_TRACK_NAME = 80;

// A name ends up on one terminal line and in CSV headers: a line break or an
// escape sequence in it would corrupt both.
const CONTROL = /\p{Cc}/u;

/**
 * The track name `name` would be stored as: trimmed, 1 to
 * {@linkcode MAX_TRACK_NAME} characters (code points), without control
 * characters. Throws {@linkcode BadRequest} with the issue at `$.name`
 * otherwise.
 */
export function validTrackName(name: unknown): string {
  if (typeof name !== "string") {
    throw new BadRequest("name must be a string", [{
      path: "$.name",
      message: "must be a string",
    }]);
  }
  const trimmed = name.trim();
  const length = [...trimmed].length;
  if (length === 0 || length > MAX_TRACK_NAME) {
    const message = `must be 1 to ${MAX_TRACK_NAME} characters and not blank`;
    throw new BadRequest(`name ${message}`, [{ path: "$.name", message }]);
  }
  if (CONTROL.test(trimmed)) {
    const message = "must not contain control characters";
    throw new BadRequest(`name ${message}`, [{ path: "$.name", message }]);
  }
  return trimmed;
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
