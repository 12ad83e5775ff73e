/**
 * Corner maps made from a circuit's best lap (circuits the catalogue has no
 * reference line for), kept so a circuit's corners keep their numbers from
 * one run of the logger to the next. A stored map is derived data: it is
 * stored with the id and the position hash of the lap it was made from,
 * and the caller checks both before using it.
 *
 * @module
 */
import { type CornerMap, isCornerMap } from "../core/analysis/corner_map.ts";
import { withLockRetry } from "./blob.ts";
import { getValid } from "./valid_record.ts";

/** A stored corner map and the lap it was made from. */
export interface StoredCornerMap {
  /** The lap the map was made from, and the hash of its positions (see `pathHash`). */
  lap_id: number;
  lap_hash: string;
  map: CornerMap;
}

/** The key of circuit `circuit`'s stored map. */
export const cornerMapKey = (circuit: string): Deno.KvKey => ["corner_map", circuit];

function valid(v: unknown): v is StoredCornerMap {
  if (typeof v !== "object" || v === null) return false;
  const s = v as Record<string, unknown>;
  return Number.isInteger(s.lap_id) && typeof s.lap_hash === "string" && isCornerMap(s.map);
}

/** Circuit `circuit`'s stored map, or null (also for a record of other rules or unreadable). */
export function getCornerMap(kv: Deno.Kv, circuit: string): Promise<StoredCornerMap | null> {
  return getValid(kv, cornerMapKey(circuit), valid);
}

/** Stores `stored` as circuit `circuit`'s map, replacing any other. */
export async function putCornerMap(
  kv: Deno.Kv,
  circuit: string,
  stored: StoredCornerMap,
): Promise<void> {
  await withLockRetry(() => kv.set(cornerMapKey(circuit), stored));
}
