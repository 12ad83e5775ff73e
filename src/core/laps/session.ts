/**
 * The session record: a group of laps driven in one car in one sitting, or
 * a holder for imported laps.
 *
 * @module
 */

/** Where a session came from. */
export type SessionKind = "live" | "imported";

/** How a session's track name was set: by a driver, a signature, a bundle, or not at all. */
export type TrackSource = "" | "user" | "signature" | "bundle";

/** One session, as stored and served. */
export interface Session {
  /** Session identifier, unique in the store. */
  id: number;
  kind: SessionKind;
  /** ISO 8601 UTC time the session began. */
  started_at: string;
  /** ISO 8601 UTC time of the session's latest lap. */
  updated_at: string;
  car_id: number;
  car_name: string;
  /** The circuit's name, or "" while unnamed. */
  track_name: string;
  track_source: TrackSource;
  /** Laps stored in the session. */
  lap_count: number;
  /** Fastest lap among those that count for best, or null. */
  best_lap_time_ms: number | null;
}
