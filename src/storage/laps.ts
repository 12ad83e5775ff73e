/**
 * Laps in Deno KV. A lap's samples are a compressed columnar blob under
 * `["lap_samples", id, chunk]`; its summary sits at `["lap", id]` and its
 * row in the lap index at `["session_lap", session, id]` (lap_index.ts).
 * The summary, the row, the session's counters, the siblings' re-judged
 * verdicts and the bests of the lap's circuit and car are committed
 * together only after every chunk is written, so a crash never leaves a
 * half-written lap visible; deleting a lap takes the same things away in
 * one commit before its chunks, which a crash in between leaves for the
 * start-up sweep.
 *
 * On a store that feeds the team hub's outbox (hub_outbox.ts), a complete
 * recorded lap's entry there is part of the same commit.
 *
 * An incomplete lap (see `core/laps/coverage.ts`) is stored like any other
 * but never counts for best, and the span guard never sees it: a lap with a
 * hole neither holds the best nor sets the distance other laps are judged by.
 *
 * @module
 */
import type { Lap, LapSummary } from "../core/laps/lap.ts";
import type { LapSamples } from "../core/laps/columns.ts";
import { type Session, touchSession } from "../core/laps/session.ts";
import { judgeSpans } from "../core/laps/span_guard.ts";
import { deleteBlob, readBlob, withLockRetry, writeBlob } from "./blob.ts";
import { outboxTakes, stageOutboxLap } from "./hub_outbox.ts";
import { nextIds } from "./ids.ts";
import { decodeSamples, encodeSamples } from "./lap_codec.ts";
import { indexWrite, rankingCircuit, rowKey, rowOf, stageBests } from "./lap_index.ts";
import { normalSession, sessionKey } from "./sessions.ts";
import {
  lapKey,
  publicSummary,
  readStoredLaps,
  samplesPrefix,
  type StoredLap,
  withCoverage,
} from "./stored_lap.ts";

/** A lap ready to store: everything but its id and session. */
export type NewLap = Omit<Lap, "id" | "session_id" | "counts_for_best">;

/** What {@linkcode saveLap} stored: the lap's summary and its session as that commit left it. */
export interface SavedLap {
  lap: LapSummary;
  session: Session;
}

/** Commits tried against concurrent writers before giving up. */
const ATTEMPTS = 100;

/**
 * Stores `lap` in `sessionId`, re-judges which of the session's laps count
 * for best, and updates the session's counters and the bests of the lap
 * index, all in one commit. Returns the stored summary and the session as
 * written by that commit, so a caller need not read either back.
 *
 * A lap counts for best only when it is complete and, for a live lap, the
 * span guard passes it; the guard judges the session's complete live laps
 * alone. An imported complete lap counts without the guard. The session's
 * `best_lap_time_ms` is the fastest lap that counts.
 *
 * `at` is when the lap is stored (the lap's `finished_at` by default, right
 * for a live lap; an import passes its own time): the session's
 * `updated_at` moves to it, never back and never before `started_at` (see
 * {@linkcode touchSession}).
 */
export async function saveLap(
  kv: Deno.Kv,
  sessionId: number,
  lap: NewLap,
  at: string = lap.finished_at,
): Promise<SavedLap> {
  const { laps, session } = await saveLaps(kv, sessionId, [lap], at);
  return { lap: laps[0], session };
}

/** What {@linkcode saveLaps} stored: the laps' summaries, in order, and their session as the last commit left it. */
export interface SavedLaps {
  laps: LapSummary[];
  session: Session;
}

/** Options of {@linkcode saveLaps}. */
export interface SaveLapsOptions {
  /**
   * gzip level of the samples, 1 (fastest) to 9 (smallest); default
   * blob.ts's DEFAULT_GZIP_LEVEL. Any level reads back the same.
   */
  level?: number;
}

/**
 * Laps per commit of {@linkcode saveLaps}: two mutations each (three with a
 * hub entry) stays far under the 1000 a commit takes, with room for the
 * session, its bests and re-judged siblings.
 */
const LAPS_PER_COMMIT = 100;

/**
 * Estimated bytes per commit of {@linkcode saveLaps}: half the 800 KiB a
 * commit takes, since the estimate (twice a summary's JSON) is not exact.
 */
const COMMIT_BYTES = 400_000;

/**
 * Stores `laps`, in order, in `sessionId` as {@linkcode saveLap} stores
 * one, but in as few commits as the store's limits allow (usually one):
 * each commit holds a run of laps whole with the session's counters, the
 * re-judged verdicts and the bests as of its last lap. A commit that fails
 * throws and leaves the runs committed before it stored (the caller that
 * wants all or nothing removes them, as an import removes its session);
 * the failed run's chunks are deleted.
 */
export async function saveLaps(
  kv: Deno.Kv,
  sessionId: number,
  laps: readonly NewLap[],
  at?: string,
  opts: SaveLapsOptions = {},
): Promise<SavedLaps> {
  if (laps.length === 0) throw new Error("saveLaps needs at least one lap");
  const summaries: LapSummary[] = [];
  let session: Session | undefined;
  for (const run of commitRuns(laps)) {
    const ids = await nextIds(kv, "lap", run.length);
    try {
      const saved = await commitLaps(kv, sessionId, run, ids, at, opts.level);
      summaries.push(...saved.laps);
      session = saved.session;
    } catch (err) {
      // A refused commit (a full disk) must not leave its chunks taking the room a retry needs.
      for (const id of ids) await deleteBlob(kv, samplesPrefix(id)).catch(() => {});
      throw err;
    }
  }
  return { laps: summaries, session: session! };
}

/** `laps` cut into runs that each fit one commit (see {@linkcode LAPS_PER_COMMIT}). */
function* commitRuns(laps: readonly NewLap[]): Generator<NewLap[]> {
  let run: NewLap[] = [];
  let bytes = 0;
  for (const lap of laps) {
    const { samples: _samples, ...fields } = lap;
    const size = 2 * JSON.stringify(fields).length + 512;
    if (run.length > 0 && (run.length === LAPS_PER_COMMIT || bytes + size > COMMIT_BYTES)) {
      yield run;
      run = [];
      bytes = 0;
    }
    run.push(lap);
    bytes += size;
  }
  yield run;
}

async function commitLaps(
  kv: Deno.Kv,
  sessionId: number,
  laps: readonly NewLap[],
  ids: readonly number[],
  at: string | undefined,
  level: number | undefined,
): Promise<SavedLaps> {
  const stored: StoredLap[] = [];
  for (const [i, lap] of laps.entries()) {
    const ref = await writeBlob(kv, samplesPrefix(ids[i]), encodeSamples(lap.samples), { level });
    const dist = lap.samples.dist;
    const { samples: _samples, ...fields } = lap;
    stored.push({
      ...fields,
      id: ids[i],
      session_id: sessionId,
      counts_for_best: lap.complete,
      samples_ref: ref,
      span_m: dist.length ? dist[dist.length - 1] : 0,
    });
  }
  const mine = new Set(stored);
  const last = laps[laps.length - 1];
  const when = at ?? last.finished_at;
  return await indexWrite(kv, async () => {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const session = await kv.get<Session>(sessionKey(sessionId));
      if (!session.value) {
        for (const id of ids) await deleteBlob(kv, samplesPrefix(id));
        throw new Error(`session ${sessionId} does not exist`);
      }
      const siblings = (await storedLapsOf(kv, sessionId)).map((e) => withCoverage(e.value));
      const all = [...siblings, ...stored];
      stored.forEach((s, i) => s.counts_for_best = laps[i].complete);
      // Every write of a session's laps also writes the session, so its check covers them.
      const op = kv.atomic().check(session);
      for (const changed of rejudge(all)) {
        if (mine.has(changed)) continue;
        op.set(lapKey(changed.id), changed).set(
          rowKey(sessionId, changed.id),
          rowOfStored(changed),
        );
      }
      stored.forEach((s, i) => {
        op.set(lapKey(s.id), s).set(rowKey(sessionId, s.id), rowOfStored(s));
        // The hub's entry goes with the lap: no lap stored without it, no entry without its lap.
        if (outboxTakes(kv, laps[i])) stageOutboxLap(op, s.id, at ?? laps[i].finished_at);
      });
      const updated: Session = {
        ...touchSession(normalSession(session.value), when),
        lap_count: all.length,
        best_lap_time_ms: bestOf(all),
      };
      await stageSession(kv, op, sessionId, updated, all, siblings);
      const res = await withLockRetry(() => op.commit());
      if (res.ok) return { laps: stored.map(publicSummary), session: updated };
    }
    throw new Error(`session ${sessionId} is too contended to add a lap`);
  });
}

/** What {@linkcode deleteLap} removed: the lap's summary and its session as the commit left it. */
export interface DeletedLap {
  lap: LapSummary;
  session: Session;
}

/**
 * Stages session `sessionId` as `updated` in `op`, with the bests of its
 * circuit from its laps `rows`; `before` are its laps before the change,
 * whose cars' bests are judged again.
 */
async function stageSession(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  sessionId: number,
  updated: Session,
  rows: readonly StoredLap[],
  before: readonly StoredLap[],
): Promise<void> {
  op.set(sessionKey(sessionId), updated);
  const circuit = rankingCircuit(updated);
  await stageBests(kv, op, {
    session: sessionId,
    from: circuit,
    to: circuit,
    rows: rows.map(rowOfStored),
    cars: before.map((l) => l.car_id),
  });
}

/**
 * Deletes lap `id`: its record and row, in one commit with its session's
 * counters (`lap_count`, `best_lap_time_ms`), the re-judged verdicts of its
 * siblings and the bests of the lap index; then its sample chunks (a crash
 * in between leaves only chunks, which {@linkcode sweepOrphanSamples}
 * removes). Returns null when no such lap is stored in an existing session.
 */
export async function deleteLap(kv: Deno.Kv, id: number): Promise<DeletedLap | null> {
  const done = await indexWrite(kv, async () => {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const entry = await kv.get<StoredLap>(lapKey(id));
      if (!entry.value) return null;
      const sessionId = entry.value.session_id;
      const session = await kv.get<Session>(sessionKey(sessionId));
      if (!session.value) return null;
      const all = (await storedLapsOf(kv, sessionId)).map((e) => withCoverage(e.value));
      const left = all.filter((l) => l.id !== id);
      const op = kv.atomic().check(session).check(entry);
      op.delete(lapKey(id)).delete(rowKey(sessionId, id));
      for (const changed of rejudge(left)) {
        op.set(lapKey(changed.id), changed).set(
          rowKey(sessionId, changed.id),
          rowOfStored(changed),
        );
      }
      const updated: Session = {
        ...normalSession(session.value),
        lap_count: left.length,
        best_lap_time_ms: bestOf(left),
      };
      await stageSession(kv, op, sessionId, updated, left, all);
      const res = await withLockRetry(() => op.commit());
      if (res.ok) return { lap: publicSummary(entry.value), session: updated };
    }
    throw new Error(`lap ${id} is too contended to delete`);
  });
  if (done) await deleteBlob(kv, samplesPrefix(id));
  return done;
}

function rowOfStored(lap: StoredLap) {
  return rowOf(publicSummary(lap));
}

/**
 * Re-judges which of a session's laps (in lap order, coverage filled in)
 * count for best: the span guard over the complete live laps; an imported
 * lap counts when complete. Sets `counts_for_best` in place and returns the
 * laps whose verdict changed.
 */
function rejudge(laps: StoredLap[]): StoredLap[] {
  const judged = laps.filter((l) => !l.imported && l.complete);
  const verdicts = judgeSpans(judged.map((l) => l.span_m));
  const changed: StoredLap[] = [];
  judged.forEach((l, i) => {
    if (l.counts_for_best !== verdicts[i]) {
      l.counts_for_best = verdicts[i];
      changed.push(l);
    }
  });
  return changed;
}

function bestOf(laps: readonly LapSummary[]): number | null {
  let best: number | null = null;
  for (const l of laps) {
    if (!l.counts_for_best || !l.complete || l.time_ms <= 0) continue;
    if (best === null || l.time_ms < best) best = l.time_ms;
  }
  return best;
}

async function storedLapsOf(kv: Deno.Kv, sessionId: number): Promise<Deno.KvEntry<StoredLap>[]> {
  const ids: number[] = [];
  for await (const e of kv.list({ prefix: ["session_lap", sessionId] })) {
    ids.push(e.key[2] as number);
  }
  // Copies: a caller may re-judge them in place.
  return (await readStoredLaps(kv, ids)).map((e) => ({ ...e, value: { ...e.value } }));
}

/** The summaries of a session's laps, in lap order (oldest first). */
export async function listLaps(kv: Deno.Kv, sessionId: number): Promise<LapSummary[]> {
  return (await storedLapsOf(kv, sessionId)).map((e) => publicSummary(e.value));
}

/** The summary of lap `id`, or null. */
export async function getLapSummary(kv: Deno.Kv, id: number): Promise<LapSummary | null> {
  const e = await kv.get<StoredLap>(lapKey(id));
  return e.value ? publicSummary(e.value) : null;
}

/** Lap `id` with its samples, or null. */
export async function getLap(kv: Deno.Kv, id: number): Promise<Lap | null> {
  const e = await kv.get<StoredLap>(lapKey(id));
  if (!e.value) return null;
  const samples: LapSamples = decodeSamples(
    await readBlob(kv, samplesPrefix(id), e.value.samples_ref),
  );
  return { ...publicSummary(e.value), samples };
}

/**
 * Deletes sample chunks that no lap refers to: what a crash between writing
 * the chunks and committing the lap, or between deleting a lap and its
 * chunks, leaves behind. Returns how many laps' chunks were swept.
 */
export async function sweepOrphanSamples(kv: Deno.Kv): Promise<number> {
  const orphans = new Set<number>();
  for await (const e of kv.list({ prefix: ["lap_samples"] })) {
    const id = e.key[1] as number;
    if (orphans.has(id)) continue;
    if ((await kv.get(lapKey(id))).versionstamp === null) orphans.add(id);
  }
  for (const id of orphans) await deleteBlob(kv, samplesPrefix(id));
  return orphans.size;
}
