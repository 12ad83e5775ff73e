/**
 * The session record: a group of laps driven in one car in one sitting, or
 * a holder for imported laps.
 *
 * @module
 */

import { z } from "zod";

/**
 * One session, as stored and served: the response schema, and through
 * `z.output` the {@linkcode Session} type, so the two cannot drift.
 */
export const sessionSchema = z.strictObject({
  /** Session identifier, unique in the store. */
  id: z.int().min(1),
  kind: z.enum(["live", "imported"]),
  /** ISO 8601 UTC time the session began. */
  started_at: z.string(),
  /**
   * ISO 8601 UTC time the session last changed: a lap stored, a name, notes
   * or exclusion set. Never earlier than `started_at`.
   */
  updated_at: z.string(),
  car_id: z.int(),
  car_name: z.string(),
  /** The circuit's name, or "" while unnamed. */
  track_name: z.string(),
  /**
   * How the track name was set: by a driver, a signature, a bundle, a
   * reference line the project ships, or not at all.
   */
  track_source: z.enum(["", "user", "signature", "bundle", "reference"]),
  /** Laps stored in the session. */
  lap_count: z.int().min(0),
  /** Fastest lap among those that count for best, or null. */
  best_lap_time_ms: z.number().nullable(),
  /**
   * True when the session's laps are kept out of the bests across sessions
   * (a replay records other drivers' laps). Always present on a session
   * read from the store; optional only so records built elsewhere need not
   * name it.
   */
  bests_excluded: z.boolean().optional(),
  /**
   * The driver's notes: at most {@linkcode MAX_NOTES_CHARS} characters, no
   * control characters but line feeds; "" when none. Always present on a
   * session read from the store.
   */
  notes: z.string().optional(),
}).meta({ id: "Session" });

/** One session, as stored and served. */
export type Session = z.output<typeof sessionSchema>;

/** Where a session came from. */
export type SessionKind = Session["kind"];

/**
 * How a session's track name was set: by a driver, a signature, a bundle, a
 * reference line the project ships, or not at all.
 */
export type TrackSource = Session["track_source"];

/** Longest session notes, in characters (code points). */
export const MAX_NOTES_CHARS = 2000;

/** The rule for session notes, in words, for error messages. */
export const NOTES_RULE =
  `must be a string of at most ${MAX_NOTES_CHARS} characters with no control characters but line feeds`;

/** What is wrong with `notes` as session notes, or null when nothing is. */
export function notesProblem(notes: string): "too long" | "control" | null {
  if (notes.length > MAX_NOTES_CHARS && [...notes].length > MAX_NOTES_CHARS) return "too long";
  if (/[^\P{Cc}\n]/u.test(notes)) return "control";
  return null;
}

/** The time an ISO 8601 text names, ms; -Infinity for one that names none. */
function timeOf(iso: string): number {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? -Infinity : ms;
}

/**
 * `session` changed at `at` (ISO 8601): its `updated_at` becomes the latest
 * of its `started_at`, its `updated_at` and `at`, so it never goes back in
 * time and never precedes the session's start, whatever a lap file says.
 */
export function touchSession<S extends Pick<Session, "started_at" | "updated_at">>(
  session: S,
  at: string,
): S {
  let latest = session.started_at;
  for (const t of [session.updated_at, at]) if (timeOf(t) > timeOf(latest)) latest = t;
  return { ...session, updated_at: latest };
}
