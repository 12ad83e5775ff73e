/**
 * Identifier allocation: small increasing integers per kind of record,
 * allocated atomically so two writers never receive the same id.
 *
 * @module
 */
import { withLockRetry } from "./blob.ts";

/** Allocates the next id of `kind` (1, 2, 3, ...). */
export async function nextId(kv: Deno.Kv, kind: string): Promise<number> {
  const key = ["counter", kind];
  for (let attempt = 0; attempt < 100; attempt++) {
    const current = await kv.get<number>(key);
    const next = (current.value ?? 0) + 1;
    const result = await withLockRetry(() => kv.atomic().check(current).set(key, next).commit());
    if (result.ok) return next;
  }
  throw new Error(`could not allocate a ${kind} id: too much contention`);
}
