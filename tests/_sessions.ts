/**
 * A session record as the store holds one, for tests that hand a session to
 * code without storing it (events, frames): a live, unnamed-car session 4
 * started 2026-11-21 12:00 UTC with one lap of 90 s, `over` replacing fields.
 *
 * @module
 */
import type { Session } from "../src/core/laps/session.ts";

/** The session of the module's description with `over` applied. */
export function stubSession(over: Partial<Session> = {}): Session {
  return {
    id: 4,
    kind: "live",
    started_at: "2026-11-21T12:00:00.000Z",
    updated_at: "2026-11-21T12:00:00.000Z",
    car_id: 3450,
    car_name: "Test car",
    track_name: "",
    track_source: "bundle",
    lap_count: 1,
    best_lap_time_ms: 90_000,
    ...over,
  };
}
