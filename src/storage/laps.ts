/**
 * Laps in Deno KV. A lap's samples are a compressed columnar blob under
 * `["lap_samples", id, chunk]`; its summary sits at `["lap", id]` and an index
 * entry at `["session_lap", session, id]`. The summary, the index entry and
 * the session's counters are committed together only after every chunk is
 * written, so a crash never leaves a half-written lap visible.
 *
 * An incomplete lap (see `core/laps/coverage.ts`) is stored like any other
 * but never counts for best, and the span guard never sees it: a lap with a
 * hole neither holds the best nor sets the distance other laps are judged by.
 *
 * @module
 */
import type { Lap, LapSummary } from "../core/laps/lap.ts";
import type { LapSamples } from "../core/laps/columns.ts";
import type { Session } from "../core/laps/session.ts";
import { judgeSpans } from "../core/laps/span_guard.ts";
import { legacyCoverage } from "../core/laps/coverage.ts";
import { type BlobRef, deleteBlob, readBlob, withLockRetry, writeBlob } from "./blob.ts";
import { nextId } from "./ids.ts";
import { decodeSamples, encodeSamples } from "./lap_codec.ts";
import { sessionKey } from "./sessions.ts";

/** The stored summary: the lap's fields plus where its samples are. */
interface StoredLap extends LapSummary {
  samples_ref: BlobRef;
  /** Distance covered by the lap, for the span guard. */
  span_m: number;
}

const lapKey = (id: number): Deno.KvKey => ["lap", id];
const samplesPrefix = (id: number): Deno.KvKey => ["lap_samples", id];
const indexKey = (session: number, lap: number): Deno.KvKey => ["session_lap", session, lap];

/** A lap ready to store: everything but its id and session. */
export type NewLap = Omit<Lap, "id" | "session_id" | "counts_for_best">;

/** What {@linkcode saveLap} stored: the lap's summary and its session as that commit left it. */
export interface SavedLap {
  lap: LapSummary;
  session: Session;
}

/**
 * Stores `lap` in `sessionId`, re-judges which of the session's laps count
 * for best, and updates the session's counters, all in one commit. Returns
 * the stored summary and the session as written by that commit, so a
 * caller need not read either back.
 *
 * A lap counts for best only when it is complete and, for a live lap, the
 * span guard passes it; the guard judges the session's complete live laps
 * alone. An imported complete lap counts without the guard. The session's
 * `best_lap_time_ms` is the fastest lap that counts.
 */
export async function saveLap(kv: Deno.Kv, sessionId: number, lap: NewLap): Promise<SavedLap> {
  const id = await nextId(kv, "lap");
  const ref = await writeBlob(kv, samplesPrefix(id), encodeSamples(lap.samples));
  const dist = lap.samples.dist;
  const { samples: _samples, ...fields } = lap;
  const stored: StoredLap = {
    ...fields,
    id,
    session_id: sessionId,
    counts_for_best: lap.complete,
    samples_ref: ref,
    span_m: dist.length ? dist[dist.length - 1] : 0,
  };
  for (let attempt = 0; attempt < 100; attempt++) {
    const session = await kv.get<Session>(sessionKey(sessionId));
    if (!session.value) {
      await deleteBlob(kv, samplesPrefix(id));
      throw new Error(`session ${sessionId} does not exist`);
    }
    const siblings = await storedLapsOf(kv, sessionId);
    const all = [...siblings.map((e) => withCoverage(e.value)), stored];
    const judged = all.filter((l) => !l.imported && l.complete);
    const verdicts = judgeSpans(judged.map((l) => l.span_m));
    const op = kv.atomic().check(session);
    for (const entry of siblings) op.check(entry);
    judged.forEach((l, i) => {
      if (l === stored) stored.counts_for_best = verdicts[i];
      else if (l.counts_for_best !== verdicts[i]) {
        op.set(lapKey(l.id), { ...l, counts_for_best: verdicts[i] });
        l.counts_for_best = verdicts[i];
      }
    });
    op.set(lapKey(id), stored).set(indexKey(sessionId, id), true);
    const updated: Session = {
      ...session.value,
      updated_at: lap.finished_at,
      lap_count: all.length,
      best_lap_time_ms: bestOf(all),
    };
    op.set(sessionKey(sessionId), updated);
    const res = await withLockRetry(() => op.commit());
    if (res.ok) return { lap: publicSummary(stored), session: updated };
  }
  throw new Error(`session ${sessionId} is too contended to add a lap`);
}

function bestOf(laps: readonly LapSummary[]): number | null {
  let best: number | null = null;
  for (const l of laps) {
    if (!l.counts_for_best || !l.complete || l.time_ms <= 0) continue;
    if (best === null || l.time_ms < best) best = l.time_ms;
  }
  return best;
}

/**
 * A stored lap with its coverage fields: laps stored before laps carried
 * them are judged from their sample count and lap time, and one judged
 * incomplete so no longer counts for best.
 */
function withCoverage(stored: StoredLap): StoredLap {
  if (typeof stored.complete === "boolean") return stored;
  const coverage = legacyCoverage(stored);
  return {
    ...stored,
    ...coverage,
    counts_for_best: stored.counts_for_best && coverage.complete,
  };
}

async function storedLapsOf(kv: Deno.Kv, sessionId: number): Promise<Deno.KvEntry<StoredLap>[]> {
  const ids: number[] = [];
  for await (const e of kv.list({ prefix: ["session_lap", sessionId] })) {
    ids.push(e.key[2] as number);
  }
  const out: Deno.KvEntry<StoredLap>[] = [];
  for (let i = 0; i < ids.length; i += 10) {
    const batch = await kv.getMany<StoredLap[]>(ids.slice(i, i + 10).map(lapKey));
    for (const e of batch) if (e.versionstamp !== null) out.push(e as Deno.KvEntry<StoredLap>);
  }
  return out;
}

function publicSummary(stored: StoredLap): LapSummary {
  const { samples_ref: _ref, span_m: _span, ...summary } = withCoverage(stored);
  return summary;
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
 * the chunks and committing the lap leaves behind. Returns how many laps'
 * chunks were swept.
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
