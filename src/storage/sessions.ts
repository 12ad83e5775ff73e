/**
 * Sessions in Deno KV, under `["session", id]`.
 *
 * @module
 */
import type { Session, SessionKind, TrackSource } from "../core/laps/session.ts";
import { withLockRetry } from "./blob.ts";
import { nextId } from "./ids.ts";

/** Key of a session record. */
export const sessionKey = (id: number): Deno.KvKey => ["session", id];

/** What a new session needs. */
export interface NewSession {
  kind: SessionKind;
  started_at: string;
  car_id: number;
  car_name: string;
  track_name?: string;
  track_source?: TrackSource;
}

/** Creates a session with no laps and returns it. */
export async function createSession(kv: Deno.Kv, init: NewSession): Promise<Session> {
  const id = await nextId(kv, "session");
  const session: Session = {
    id,
    kind: init.kind,
    started_at: init.started_at,
    updated_at: init.started_at,
    car_id: init.car_id,
    car_name: init.car_name,
    track_name: init.track_name ?? "",
    track_source: init.track_source ?? "",
    lap_count: 0,
    best_lap_time_ms: null,
  };
  await withLockRetry(() => kv.set(sessionKey(id), session));
  return session;
}

/** The session with `id`, or null. */
export async function getSession(kv: Deno.Kv, id: number): Promise<Session | null> {
  return (await kv.get<Session>(sessionKey(id))).value;
}

/** Every session, newest first. */
export async function listSessions(kv: Deno.Kv): Promise<Session[]> {
  const out: Session[] = [];
  for await (const e of kv.list<Session>({ prefix: ["session"] }, { reverse: true })) {
    out.push(e.value);
  }
  return out;
}

/**
 * Applies `change` to the session atomically (re-read and retried when a
 * concurrent writer got there first). Returns the updated session, or null
 * when it does not exist.
 */
export async function updateSession(
  kv: Deno.Kv,
  id: number,
  change: (s: Session) => Session,
): Promise<Session | null> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const current = await kv.get<Session>(sessionKey(id));
    if (!current.value) return null;
    const next = change(current.value);
    const res = await withLockRetry(() =>
      kv.atomic().check(current).set(sessionKey(id), next).commit()
    );
    if (res.ok) return next;
  }
  throw new Error(`session ${id} is too contended to update`);
}

/** Deletes a session record (its laps are the caller's concern). Idempotent. */
export async function deleteSession(kv: Deno.Kv, id: number): Promise<void> {
  await withLockRetry(() => kv.delete(sessionKey(id)));
}

/**
 * Deletes live sessions without laps. A live session is stored in its own
 * write just before its first lap, so a process killed in between leaves one
 * behind; at start-up no live session is active, so every such session is
 * that leftover. Imported sessions are never empty (they are created with
 * their lap). Returns how many were removed.
 */
export async function sweepEmptyLiveSessions(kv: Deno.Kv): Promise<number> {
  let removed = 0;
  for await (const e of kv.list<Session>({ prefix: ["session"] })) {
    if (e.value.kind !== "live" || e.value.lap_count !== 0) continue;
    // Checked against the versionstamp: a session that gained a lap meanwhile stays.
    const res = await withLockRetry(() => kv.atomic().check(e).delete(e.key).commit());
    if (res.ok) removed++;
  }
  return removed;
}
