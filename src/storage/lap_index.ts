/**
 * The lap index: what lists laps across sessions and answers bests without
 * reading a lap's record or samples. Three kinds of entries, all derived
 * from the laps and sessions and written in the same atomic commits that
 * change them (saveLap, deleteLap, updateSession, session removal):
 *
 * - `["session_lap", session, lap]`: the lap's row ({@linkcode LapRow}).
 * - `["circuit_session", circuit, car, session]`: the session's fastest lap
 *   that counts for best in that car and how many count
 *   ({@linkcode SessionBest}); only for a session that ranks (named and not
 *   excluded from bests) and has such laps.
 * - `["circuit_best", circuit, car]`: the fastest of those over every
 *   session, with the laps and sessions behind it ({@linkcode CircuitBest}).
 *
 * A circuit is the slug of a session's track name (as bundles are keyed),
 * so "Suzuka Circuit" and "suzuka circuit" are one circuit. Every commit
 * that changes a session's entry of a circuit and car also writes (or
 * deletes) that circuit and car's `circuit_best` and checks it, so a
 * commit that read a group's entries fails if another changed them.
 *
 * @module
 */
import type { LapSummary } from "../core/laps/lap.ts";
import type { Session } from "../core/laps/session.ts";
import { circuitOf } from "../core/bundle/slug.ts";
import { publicSummary, readStoredLaps } from "./stored_lap.ts";

/** One lap as the index keeps it, at `["session_lap", session, lap]`. */
export interface LapRow {
  id: number;
  session_id: number;
  number: number;
  car_id: number;
  time_ms: number;
  complete: boolean;
  counts_for_best: boolean;
  finished_at: string;
  imported: boolean;
}

/** Key of a lap's row. */
export const rowKey = (session: number, lap: number): Deno.KvKey => ["session_lap", session, lap];

/** The row of a lap. */
export function rowOf(lap: LapSummary): LapRow {
  return {
    id: lap.id,
    session_id: lap.session_id,
    number: lap.number,
    car_id: lap.car_id,
    time_ms: lap.time_ms,
    complete: lap.complete,
    counts_for_best: lap.counts_for_best,
    finished_at: lap.finished_at,
    imported: lap.imported,
  };
}

const isInt = (v: unknown): v is number => Number.isSafeInteger(v);

/** True when `v` is a well-formed row of lap `id` in session `session`. */
export function isRow(v: unknown, session: number, id: number): v is LapRow {
  if (typeof v !== "object" || v === null) return false;
  const r = v as Record<string, unknown>;
  return r.id === id && r.session_id === session && isInt(r.number) && isInt(r.car_id) &&
    isInt(r.time_ms) && typeof r.complete === "boolean" &&
    typeof r.counts_for_best === "boolean" && typeof r.finished_at === "string" &&
    typeof r.imported === "boolean";
}

/**
 * Rows read from index entries: a well-formed row as is; any other value
 * (`true` in stores from before rows, or a damaged one) is replaced by the
 * row of the lap's record, and an entry whose lap has no record is left
 * out. Nothing is written back: the start-up rebuild does that.
 */
async function rowsOf(kv: Deno.Kv, entries: readonly Deno.KvEntry<unknown>[]): Promise<LapRow[]> {
  const rows: (LapRow | null)[] = [];
  const missing: number[] = [];
  for (const e of entries) {
    const session = e.key[1] as number;
    const id = e.key[2] as number;
    if (isRow(e.value, session, id)) rows.push(e.value);
    else {
      rows.push(null);
      missing.push(id);
    }
  }
  if (missing.length === 0) return rows as LapRow[];
  const fromRecords = new Map<number, LapRow>();
  for (const e of await readStoredLaps(kv, missing)) {
    fromRecords.set(e.value.id, rowOf(publicSummary(e.value)));
  }
  const out: LapRow[] = [];
  entries.forEach((e, k) => {
    const row = rows[k] ?? fromRecords.get(e.key[2] as number);
    if (row && row.session_id === e.key[1]) out.push(row);
  });
  return out;
}

/** The rows of session `sessionId`'s laps, in lap order. */
export async function sessionRows(kv: Deno.Kv, sessionId: number): Promise<LapRow[]> {
  const entries: Deno.KvEntry<unknown>[] = [];
  for await (const e of kv.list({ prefix: ["session_lap", sessionId] })) entries.push(e);
  return await rowsOf(kv, entries);
}

/** The rows of every stored lap, by session then lap. */
export async function allRows(kv: Deno.Kv): Promise<LapRow[]> {
  const entries: Deno.KvEntry<unknown>[] = [];
  for await (const e of kv.list({ prefix: ["session_lap"] }, { batchSize: 500 })) {
    entries.push(e);
  }
  return await rowsOf(kv, entries);
}

/**
 * The rows of laps `ids`, in the order of `ids`, each read from the lap's
 * record (at most 10 keys a read) rather than from the index: a lap's row is
 * written from its record in the commit that writes the record, so the two
 * are the same row. A lap with no record is left out.
 */
export async function lapRows(kv: Deno.Kv, ids: readonly number[]): Promise<LapRow[]> {
  return (await readStoredLaps(kv, ids)).map((e) => rowOf(publicSummary(e.value)));
}

/**
 * The circuit a session's laps rank under for bests: the circuit of its
 * track name, or null while it is unnamed or excluded from bests.
 */
export function rankingCircuit(s: Pick<Session, "track_name" | "bests_excluded">): string | null {
  return s.bests_excluded === true ? null : circuitOf(s.track_name);
}

/** A lap may stand in bests: it counts for best and has a time. */
export function ranks(row: LapRow): boolean {
  return row.counts_for_best && row.complete && row.time_ms > 0;
}

/** One session's share of a circuit and car, at `["circuit_session", circuit, car, session]`. */
export interface SessionBest {
  /** The session's fastest lap that counts. */
  lap_id: number;
  time_ms: number;
  /** The session's laps that count, in this car. */
  laps: number;
}

/** A circuit and car's best, at `["circuit_best", circuit, car]`. */
export interface CircuitBest {
  lap_id: number;
  session_id: number;
  time_ms: number;
  /** Laps that count for best, over every session that ranks. */
  laps: number;
  /** Sessions holding them. */
  sessions: number;
}

/** Key of a session's share of a circuit and car. */
export const sessionBestKey = (circuit: string, car: number, session: number): Deno.KvKey => [
  "circuit_session",
  circuit,
  car,
  session,
];

/** Key of a circuit and car's best. */
export const circuitBestKey = (circuit: string, car: number): Deno.KvKey => [
  "circuit_best",
  circuit,
  car,
];

/** True when `v` is a well-formed session share. */
export function isSessionBest(v: unknown): v is SessionBest {
  if (typeof v !== "object" || v === null) return false;
  const s = v as Record<string, unknown>;
  return isInt(s.lap_id) && isInt(s.time_ms) && s.time_ms > 0 && isInt(s.laps) && s.laps > 0;
}

/** True when `v` is a well-formed circuit best. */
export function isCircuitBest(v: unknown): v is CircuitBest {
  if (typeof v !== "object" || v === null) return false;
  const b = v as Record<string, unknown>;
  return isInt(b.lap_id) && isInt(b.session_id) && isInt(b.time_ms) && b.time_ms > 0 &&
    isInt(b.laps) && b.laps > 0 && isInt(b.sessions) && b.sessions > 0 && b.sessions <= b.laps;
}

/** `a` ranks before `b`: faster, or as fast and stored first. */
function before(a: { time_ms: number; lap_id: number }, b: { time_ms: number; lap_id: number }) {
  return a.time_ms < b.time_ms || (a.time_ms === b.time_ms && a.lap_id < b.lap_id);
}

/** A session's share of each car's bests, from its rows (cars without a lap that ranks: none). */
export function sessionBestsOf(rows: readonly LapRow[]): Map<number, SessionBest> {
  const out = new Map<number, SessionBest>();
  for (const r of rows) {
    if (!ranks(r)) continue;
    const mine = out.get(r.car_id);
    if (!mine) out.set(r.car_id, { lap_id: r.id, time_ms: r.time_ms, laps: 1 });
    else {
      mine.laps++;
      if (before({ time_ms: r.time_ms, lap_id: r.id }, mine)) {
        mine.lap_id = r.id;
        mine.time_ms = r.time_ms;
      }
    }
  }
  return out;
}

/** What changes about one session's laps in bests. */
export interface BestsChange {
  session: number;
  /** The circuit the session ranked under before the change, and after (null: none). */
  from: string | null;
  to: string | null;
  /** The session's rows after the change. */
  rows: readonly LapRow[];
  /** Cars of the session's rows before the change. */
  cars: Iterable<number>;
}

const sameShare = (a: SessionBest | null, b: SessionBest | null) =>
  a === b || (a !== null && b !== null && a.lap_id === b.lap_id && a.time_ms === b.time_ms &&
    a.laps === b.laps);

/**
 * Adds to `op` what `change` does to the index's shares and bests: the
 * session's shares are replaced by those of its rows, and the best of each
 * circuit and car whose share changed is updated and checked. Reads only
 * the index entries of the circuits and cars involved.
 */
export async function stageBests(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  change: BestsChange,
): Promise<void> {
  const after = change.to === null ? new Map<number, SessionBest>() : sessionBestsOf(change.rows);
  const cars = [...new Set([...change.cars, ...after.keys()])];
  const old = new Map<number, SessionBest>();
  if (change.from !== null) {
    const keys = cars.map((car) => sessionBestKey(change.from!, car, change.session));
    for (let i = 0; i < keys.length; i += 10) {
      for (const e of await kv.getMany(keys.slice(i, i + 10))) {
        if (e.versionstamp !== null) old.set(e.key[2] as number, e.value as SessionBest);
      }
    }
  }
  const circuits = new Set([change.from, change.to].filter((c): c is string => c !== null));
  for (const car of cars) {
    for (const circuit of circuits) {
      const was = circuit === change.from ? old.get(car) ?? null : null;
      const now = circuit === change.to ? after.get(car) ?? null : null;
      if (sameShare(was, now)) continue;
      const key = sessionBestKey(circuit, car, change.session);
      if (now) op.set(key, now);
      else op.delete(key);
      const best = await kv.get(circuitBestKey(circuit, car));
      op.check(best);
      const next = await nextBest(kv, circuit, car, best.value, change.session, was, now);
      if (next) op.set(best.key, next);
      else op.delete(best.key);
    }
  }
}

/**
 * The best of a circuit and car once `session`'s share goes from `was` to
 * `now`: worked out from the stored best when it is well formed and the
 * change cannot have taken its lap away, otherwise from every session's
 * share of the group (the session's own replaced by `now`).
 */
async function nextBest(
  kv: Deno.Kv,
  circuit: string,
  car: number,
  stored: unknown,
  session: number,
  was: SessionBest | null,
  now: SessionBest | null,
): Promise<CircuitBest | null> {
  if (isCircuitBest(stored) && (was === null || isSessionBest(was))) {
    const laps = stored.laps - (was?.laps ?? 0) + (now?.laps ?? 0);
    const sessions = stored.sessions - (was ? 1 : 0) + (now ? 1 : 0);
    if (laps >= 0 && sessions >= 0 && sessions <= laps) {
      if (sessions === 0) return null;
      const mine = stored.session_id === session;
      if (!mine && (!now || !before(now, stored))) return { ...stored, laps, sessions };
      if (now && (!mine || !before(stored, now))) {
        return { lap_id: now.lap_id, session_id: session, time_ms: now.time_ms, laps, sessions };
      }
    }
  }
  return await recomputeBest(kv, circuit, car, session, now);
}

/** The best of a circuit and car from every session's share, `session`'s taken as `now`. */
export async function recomputeBest(
  kv: Deno.Kv,
  circuit: string,
  car: number,
  session: number | null,
  now: SessionBest | null,
): Promise<CircuitBest | null> {
  let best: CircuitBest | null = null;
  let laps = 0;
  let sessions = 0;
  const consider = (id: number, share: SessionBest) => {
    laps += share.laps;
    sessions++;
    if (!best || before(share, best)) {
      best = { lap_id: share.lap_id, session_id: id, time_ms: share.time_ms, laps: 0, sessions: 0 };
    }
  };
  for await (const e of kv.list({ prefix: ["circuit_session", circuit, car] })) {
    const id = e.key[3] as number;
    if (id === session || !isSessionBest(e.value)) continue;
    consider(id, e.value);
  }
  if (session !== null && now) consider(session, now);
  if (!best) return null;
  return { ...(best as CircuitBest), laps, sessions };
}

/**
 * Takes turns on the lap index of one store: writers (lap and session
 * changes) run together, a rebuild runs alone. Only within this process;
 * another process's writes are ordered by the checks of each commit.
 */
class IndexGate {
  #rebuild: Promise<void> | null = null;
  #active = new Set<Promise<unknown>>();

  async write<T>(fn: () => Promise<T>): Promise<T> {
    while (this.#rebuild) await this.#rebuild;
    const running = fn();
    this.#active.add(running);
    try {
      return await running;
    } finally {
      this.#active.delete(running);
    }
  }

  async rebuild<T>(fn: () => Promise<T>): Promise<T> {
    while (this.#rebuild) await this.#rebuild;
    let release = () => {};
    this.#rebuild = new Promise((resolve) => release = resolve);
    try {
      await Promise.allSettled([...this.#active]);
      return await fn();
    } finally {
      this.#rebuild = null;
      release();
    }
  }
}

const gates = new WeakMap<Deno.Kv, IndexGate>();

function gateOf(kv: Deno.Kv): IndexGate {
  let gate = gates.get(kv);
  if (!gate) gates.set(kv, gate = new IndexGate());
  return gate;
}

/** Runs a write that keeps the index (a lap or session change); waits while a rebuild runs. */
export function indexWrite<T>(kv: Deno.Kv, fn: () => Promise<T>): Promise<T> {
  return gateOf(kv).write(fn);
}

/** Runs `fn` alone: after every index write under way and before any later one. */
export function indexExclusive<T>(kv: Deno.Kv, fn: () => Promise<T>): Promise<T> {
  return gateOf(kv).rebuild(fn);
}
