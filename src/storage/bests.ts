/**
 * Reading the bests of the lap index, and rebuilding the whole index from
 * the laps and sessions it is derived from. The index is never trusted
 * blindly: its version marker `["meta", "lap_index"]` is written only once
 * a rebuild is done (so a store from before the index, or a rebuild a crash
 * cut short, is rebuilt at the next start), and every best read is checked
 * against the lap and session it names; one that fails its check has the
 * index rebuilt before it is answered.
 *
 * @module
 */
import type { Session } from "../core/laps/session.ts";
import { commitOrThrow } from "./blob.ts";
import {
  circuitBestKey,
  indexExclusive,
  isCircuitBest,
  isRow,
  type LapRow,
  rankingCircuit,
  ranks,
  recomputeBest,
  rowKey,
  rowOf,
  sessionBestKey,
  sessionBestsOf,
  sessionRows,
} from "./lap_index.ts";
import { getSessions, listSessions } from "./sessions.ts";
import { publicSummary, readStoredLaps } from "./stored_lap.ts";

/** Version of the index layout; a store whose marker says otherwise is rebuilt. */
export const LAP_INDEX_VERSION = 1;

/** Key of the index's version marker. */
export const LAP_INDEX_MARKER: Deno.KvKey = ["meta", "lap_index"];

/** Mutations per commit of a rebuild, under the 1,000 a commit allows. */
const PER_COMMIT = 500;

/** One circuit and car's fastest lap that counts for best, checked against its lap and session. */
export interface StoredBest {
  /** The circuit (slug of the track name). */
  circuit: string;
  car_id: number;
  lap_id: number;
  session_id: number;
  time_ms: number;
  /** The best lap's session, as stored. */
  session: Session;
  /** Laps that count for best in this circuit and car, the best included. */
  laps: number;
  /** Sessions holding them. */
  sessions: number;
}

/**
 * Every circuit and car's best from the index, each checked: its entry well
 * formed, its lap stored in its session with the time, car and a verdict
 * that counts, its session named after the circuit and not excluded.
 * Null when the marker is missing or any check fails.
 */
async function readChecked(kv: Deno.Kv): Promise<StoredBest[] | null> {
  const marker = await kv.get<{ version: number }>(LAP_INDEX_MARKER);
  if (marker.value?.version !== LAP_INDEX_VERSION) return null;
  const entries: Deno.KvEntry<unknown>[] = [];
  for await (const e of kv.list({ prefix: ["circuit_best"] })) entries.push(e);
  const laps = new Map(
    (await readStoredLaps(
      kv,
      entries.map((e) => isCircuitBest(e.value) ? e.value.lap_id : -1),
    )).map((e) => [e.value.id, publicSummary(e.value)]),
  );
  const sessions = await getSessions(
    kv,
    entries.map((e) => isCircuitBest(e.value) ? e.value.session_id : -1),
  );
  const out: StoredBest[] = [];
  for (const e of entries) {
    const [, circuit, car] = e.key;
    const best = e.value;
    if (typeof circuit !== "string" || typeof car !== "number" || !isCircuitBest(best)) return null;
    const lap = laps.get(best.lap_id);
    const session = sessions.get(best.session_id);
    if (
      !lap || !session || lap.session_id !== best.session_id || lap.car_id !== car ||
      lap.time_ms !== best.time_ms || !ranks(rowOf(lap)) || rankingCircuit(session) !== circuit
    ) return null;
    out.push({ circuit, car_id: car, ...best, session });
  }
  return out;
}

/**
 * Every circuit and car's best (see {@linkcode StoredBest}), by circuit and
 * then car. When the index fails its checks twice in a row (once could be a
 * write landing between two reads), it is rebuilt first.
 */
export async function readBests(kv: Deno.Kv): Promise<StoredBest[]> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const bests = await readChecked(kv);
    if (bests) return bests;
  }
  await rebuildLapIndex(kv);
  const bests = await readChecked(kv);
  if (!bests) throw new Error("the lap index fails its checks right after a rebuild");
  return bests;
}

/** The order of bests: faster first, then stored first. */
const fastestFirst = (a: LapRow, b: LapRow) => a.time_ms - b.time_ms || a.id - b.id;

/**
 * The laps that count for best in `circuit` and `car`, across every
 * session that ranks there, fastest first (then by id), from the index.
 */
export async function rankedRows(kv: Deno.Kv, circuit: string, car: number): Promise<LapRow[]> {
  const sessions: number[] = [];
  for await (const e of kv.list({ prefix: ["circuit_session", circuit, car] })) {
    sessions.push(e.key[3] as number);
  }
  const rows: LapRow[] = [];
  for (const id of sessions) rows.push(...await sessionRankedRows(kv, id, car));
  return rows.sort(fastestFirst);
}

/**
 * The laps of session `sessionId` in `car` that count for best (complete,
 * timed, verdict counting), fastest first (then by id), as
 * {@linkcode rankedRows} orders a circuit's. Whether the session itself
 * ranks (named, not excluded) is the caller's question: an unnamed
 * session's laps count for that session.
 */
export async function sessionRankedRows(
  kv: Deno.Kv,
  sessionId: number,
  car: number,
): Promise<LapRow[]> {
  const rows = await sessionRows(kv, sessionId);
  return rows.filter((r) => r.car_id === car && ranks(r)).sort(fastestFirst);
}

/** What a rebuild found. */
export interface RebuildReport {
  sessions: number;
  laps: number;
  /** Circuit and car pairs with a best. */
  bests: number;
}

/**
 * Rebuilds the lap index from the laps and sessions, alone (no index write
 * of this process runs meanwhile): the marker is deleted first, every row
 * is rewritten from its lap's record (a row whose lap has no record is
 * deleted), the bests' entries are replaced, and the marker is written
 * last.
 */
export function rebuildLapIndex(kv: Deno.Kv): Promise<RebuildReport> {
  return indexExclusive(kv, async () => {
    await kv.delete(LAP_INDEX_MARKER);
    const pending = new Batch(kv);
    const rowsBySession = new Map<number, LapRow[]>();
    // Readable sessions only, oldest first: an unreadable record has no id or name to index by.
    const sessions: Session[] = (await listSessions(kv)).reverse();
    let laps = 0;
    for (const s of sessions) {
      const entries: Deno.KvEntry<unknown>[] = [];
      for await (const e of kv.list({ prefix: ["session_lap", s.id] })) entries.push(e);
      const records = new Map(
        (await readStoredLaps(kv, entries.map((e) => e.key[2] as number)))
          .map((e) => [e.value.id, rowOf(publicSummary(e.value))]),
      );
      const rows: LapRow[] = [];
      for (const e of entries) {
        const id = e.key[2] as number;
        const row = records.get(id);
        if (!row || row.session_id !== s.id) await pending.delete(e.key);
        else {
          rows.push(row);
          if (!isRow(e.value, s.id, id) || !sameRow(e.value, row)) {
            await pending.set(rowKey(s.id, id), row);
          }
        }
      }
      rowsBySession.set(s.id, rows);
      laps += rows.length;
    }
    for (const prefix of ["circuit_session", "circuit_best"]) {
      for await (const e of kv.list({ prefix: [prefix] })) await pending.delete(e.key);
    }
    // Old entries go in commits of their own, before any new entry of the same key is set.
    await pending.flush();
    const groups = new Set<string>();
    for (const s of sessions) {
      const circuit = rankingCircuit(s);
      if (circuit === null) continue;
      for (const [car, share] of sessionBestsOf(rowsBySession.get(s.id) ?? [])) {
        await pending.set(sessionBestKey(circuit, car, s.id), share);
        groups.add(JSON.stringify([circuit, car]));
      }
    }
    await pending.flush();
    for (const g of groups) {
      const [circuit, car] = JSON.parse(g) as [string, number];
      const best = await recomputeBest(kv, circuit, car, null, null);
      if (best) await pending.set(circuitBestKey(circuit, car), best);
    }
    await pending.set(LAP_INDEX_MARKER, { version: LAP_INDEX_VERSION });
    await pending.flush();
    return { sessions: sessions.length, laps, bests: groups.size };
  });
}

/**
 * Rebuilds the lap index when its marker is missing or names another
 * version (a store from before the index, or a rebuild cut short). Run at
 * start-up; returns the rebuild's report, or null when none was needed.
 */
export async function ensureLapIndex(kv: Deno.Kv): Promise<RebuildReport | null> {
  const marker = await kv.get<{ version: number }>(LAP_INDEX_MARKER);
  if (marker.value?.version === LAP_INDEX_VERSION) return null;
  return await rebuildLapIndex(kv);
}

function sameRow(a: LapRow, b: LapRow): boolean {
  return (Object.keys(b) as (keyof LapRow)[]).every((k) => a[k] === b[k]);
}

/** Mutations gathered into commits of {@linkcode PER_COMMIT}. */
class Batch {
  #kv: Deno.Kv;
  #op: Deno.AtomicOperation;
  #count = 0;

  constructor(kv: Deno.Kv) {
    this.#kv = kv;
    this.#op = kv.atomic();
  }

  async set(key: Deno.KvKey, value: unknown): Promise<void> {
    this.#op.set(key, value);
    await this.#grow();
  }

  async delete(key: Deno.KvKey): Promise<void> {
    this.#op.delete(key);
    await this.#grow();
  }

  async flush(): Promise<void> {
    if (this.#count === 0) return;
    await commitOrThrow(this.#op);
    this.#op = this.#kv.atomic();
    this.#count = 0;
  }

  async #grow(): Promise<void> {
    if (++this.#count >= PER_COMMIT) await this.flush();
  }
}

/**
 * The fastest lap that counts for best in `circuit` in any car, from the
 * index's per-car bests (fastest, then first stored), or null when none
 * counts. The caller reads and checks the lap it names.
 */
export async function fastestOfCircuit(
  kv: Deno.Kv,
  circuit: string,
): Promise<{ lap_id: number; time_ms: number } | null> {
  let best: { lap_id: number; time_ms: number } | null = null;
  for await (const e of kv.list({ prefix: ["circuit_best", circuit] })) {
    const v = e.value;
    if (!isCircuitBest(v)) continue;
    if (
      best === null || v.time_ms < best.time_ms ||
      (v.time_ms === best.time_ms && v.lap_id < best.lap_id)
    ) {
      best = { lap_id: v.lap_id, time_ms: v.time_ms };
    }
  }
  return best;
}
