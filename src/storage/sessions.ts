/**
 * Sessions in Deno KV, under `["session", id]`. A change of a session's
 * track name or of its exclusion from bests moves its laps in the lap
 * index's bests in the same commit (lap_index.ts), so bests always follow
 * the session's name.
 *
 * @module
 */
import {
  type Session,
  type SessionKind,
  sessionSchema,
  type TrackSource,
} from "../core/laps/session.ts";
import { jsonPath } from "../core/bundle/issues.ts";
import { trackNameFault } from "../core/track_name.ts";
import { withLockRetry } from "./blob.ts";
import { nextId } from "./ids.ts";
import { indexWrite, rankingCircuit, sessionRows, stageBests } from "./lap_index.ts";

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
  /** The session's notes; "" when not given. */
  notes?: string;
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
    bests_excluded: false,
    notes: init.notes ?? "",
  };
  await withLockRetry(() => kv.set(sessionKey(id), session));
  return session;
}

/**
 * A stored session with every field: sessions stored before sessions
 * carried `bests_excluded` and `notes` read as not excluded, without notes.
 */
export function normalSession(s: Session): Session {
  return { ...s, bests_excluded: s.bests_excluded ?? false, notes: s.notes ?? "" };
}

/** Reads stored sessions by the session schema, tolerating fields a release before added. */
const storedSessionSchema = sessionSchema.loose();

/**
 * What is wrong with `value` as the session stored under `id`, or null when
 * nothing is: the session schema's first fault, another id, or a track name
 * that breaks the one circuit-name rule (which a release before it may have
 * let in).
 */
export function sessionFault(value: unknown, id: unknown): string | null {
  const parsed = storedSessionSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${jsonPath(issue.path)}: ${issue.message}`;
  }
  if (parsed.data.id !== id) return "it names another id";
  const name = parsed.data.track_name;
  const fault = name === "" ? null : trackNameFault(name);
  if (fault !== null) return `its track name ${fault}`;
  return null;
}

/**
 * The session with `id`, or null when none is stored or the record is
 * unreadable (see {@linkcode sessionFault}, and {@linkcode storedSessionFault}
 * to tell the two apart): a damaged record is never half-trusted.
 */
export async function getSession(kv: Deno.Kv, id: number): Promise<Session | null> {
  const s = (await kv.get<Session>(sessionKey(id))).value;
  return s !== null && sessionFault(s, id) === null ? normalSession(s) : null;
}

/** What is wrong with the record stored as session `id`, or null when it is fine or absent. */
export async function storedSessionFault(kv: Deno.Kv, id: number): Promise<string | null> {
  const entry = await kv.get(sessionKey(id));
  return entry.versionstamp === null ? null : sessionFault(entry.value, id);
}

/** Most keys one `getMany` may read. */
const GET_MANY = 10;

/**
 * The sessions of `ids` that exist, by id (each as {@linkcode getSession}
 * gives it), read at most 10 keys at a time; an id repeated is read once.
 */
export async function getSessions(
  kv: Deno.Kv,
  ids: Iterable<number>,
): Promise<Map<number, Session>> {
  const unique = [...new Set(ids)];
  const out = new Map<number, Session>();
  for (let i = 0; i < unique.length; i += GET_MANY) {
    const batch = await kv.getMany<Session[]>(unique.slice(i, i + GET_MANY).map(sessionKey));
    for (const e of batch) {
      if (e.value && sessionFault(e.value, e.key[1]) === null) {
        out.set(e.key[1] as number, normalSession(e.value));
      }
    }
  }
  return out;
}

/**
 * Every readable session, newest first, and the ids of the records left
 * out as unreadable (see {@linkcode sessionFault}) with why.
 */
export async function scanSessions(
  kv: Deno.Kv,
): Promise<{ sessions: Session[]; unreadable: { id: string; reason: string }[] }> {
  const sessions: Session[] = [];
  const unreadable: { id: string; reason: string }[] = [];
  for await (const e of kv.list<Session>({ prefix: ["session"] }, { reverse: true })) {
    if (e.key.length !== 2) continue;
    const fault = sessionFault(e.value, e.key[1]);
    if (fault === null) sessions.push(normalSession(e.value));
    else unreadable.push({ id: String(e.key[1]), reason: fault });
  }
  return { sessions, unreadable };
}

/** Every readable session, newest first (see {@linkcode scanSessions}). */
export async function listSessions(kv: Deno.Kv): Promise<Session[]> {
  return (await scanSessions(kv)).sessions;
}

/**
 * Applies `change` to the session atomically (re-read and retried when a
 * concurrent writer got there first). When the change renames the session
 * to another circuit, names or unnames it, or excludes it from bests or
 * takes it back, its laps move in the lap index's bests in the same
 * commit. Returns the updated session, or null when it does not exist.
 */
export function updateSession(
  kv: Deno.Kv,
  id: number,
  change: (s: Session) => Session,
): Promise<Session | null> {
  return indexWrite(kv, async () => {
    for (let attempt = 0; attempt < 100; attempt++) {
      const current = await kv.get<Session>(sessionKey(id));
      if (!current.value) return null;
      const before = normalSession(current.value);
      const next = normalSession(change(before));
      const op = kv.atomic().check(current).set(sessionKey(id), next);
      const from = rankingCircuit(before);
      const to = rankingCircuit(next);
      if (from !== to) {
        const rows = await sessionRows(kv, id);
        await stageBests(kv, op, { session: id, from, to, rows, cars: rows.map((r) => r.car_id) });
      }
      const res = await withLockRetry(() => op.commit());
      if (res.ok) return next;
    }
    throw new Error(`session ${id} is too contended to update`);
  });
}

/**
 * Deletes a session record alone, for a session known to hold no laps (an
 * import whose lap failed to store). Idempotent. A session with laps is
 * removed by session_removal.ts.
 */
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
