/**
 * The installation's anonymous source id (SPEC 2.1.2): generated on first
 * use, kept for good, never shown to users except in survey status.
 *
 * @module
 */
import { withLockRetry } from "./blob.ts";

const KEY: Deno.KvKey = ["settings", "source_id"];

/** The stored source record. */
export interface SourceRecord {
  source_id: string;
  created_at: string;
}

const VALID = /^[0-9a-f]{6,32}$/;

/**
 * Returns this installation's source id, creating it on first use. Two
 * processes racing to create it agree on one id. A corrupt record is replaced.
 */
export async function sourceId(kv: Deno.Kv): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const current = await kv.get<SourceRecord>(KEY);
    if (current.value && VALID.test(current.value.source_id)) return current.value.source_id;
    const bytes = crypto.getRandomValues(new Uint8Array(6));
    const id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    const record: SourceRecord = { source_id: id, created_at: new Date().toISOString() };
    const res = await withLockRetry(() => kv.atomic().check(current).set(KEY, record).commit());
    if (res.ok) return id;
  }
  throw new Error("could not create the installation's source id");
}

/**
 * The installation's source id as stored, without writing one: for a store
 * opened read-only. Null when none is stored (or it is malformed).
 */
export async function storedSourceId(kv: Deno.Kv): Promise<string | null> {
  const current = await kv.get<SourceRecord>(KEY);
  return current.value && VALID.test(current.value.source_id) ? current.value.source_id : null;
}
