/**
 * A lap's record as stored at `["lap", id]`, and the keys of a lap's
 * samples: shared by the lap store (laps.ts), the lap index (lap_index.ts)
 * and session removal, so none of them imports another's internals.
 *
 * @module
 */
import type { LapSummary } from "../core/laps/lap.ts";
import { legacyCoverage } from "../core/laps/coverage.ts";
import type { BlobRef } from "./blob.ts";

/** The stored summary: the lap's fields plus where its samples are. */
export interface StoredLap extends LapSummary {
  samples_ref: BlobRef;
  /** Distance covered by the lap, for the span guard. */
  span_m: number;
}

/** Key of a lap's record. */
export const lapKey = (id: number): Deno.KvKey => ["lap", id];

/** Prefix of a lap's sample chunks. */
export const samplesPrefix = (id: number): Deno.KvKey => ["lap_samples", id];

/**
 * A stored lap with its coverage fields: laps stored before laps carried
 * them are judged from their sample count and lap time, and one judged
 * incomplete so no longer counts for best.
 */
export function withCoverage(stored: StoredLap): StoredLap {
  if (typeof stored.complete === "boolean") return stored;
  const coverage = legacyCoverage(stored);
  return {
    ...stored,
    ...coverage,
    counts_for_best: stored.counts_for_best && coverage.complete,
  };
}

/** The summary served for a stored lap: its fields with coverage, without storage details. */
export function publicSummary(stored: StoredLap): LapSummary {
  const { samples_ref: _ref, span_m: _span, ...summary } = withCoverage(stored);
  return summary;
}

/** Most keys one `getMany` may read. */
const GET_MANY = 10;

/** The stored records of laps `ids`, in order; absent laps are left out. */
export async function readStoredLaps(
  kv: Deno.Kv,
  ids: readonly number[],
): Promise<Deno.KvEntry<StoredLap>[]> {
  const out: Deno.KvEntry<StoredLap>[] = [];
  for (let i = 0; i < ids.length; i += GET_MANY) {
    const batch = await kv.getMany<StoredLap[]>(ids.slice(i, i + GET_MANY).map(lapKey));
    for (const e of batch) if (e.versionstamp !== null) out.push(e as Deno.KvEntry<StoredLap>);
  }
  return out;
}
