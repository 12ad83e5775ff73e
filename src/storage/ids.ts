/**
 * Identifier allocation: small increasing integers per kind of record,
 * allocated atomically so two writers never receive the same id.
 *
 * @module
 */
import { withLockRetry } from "./blob.ts";

/**
 * Allocations in flight per store handle and kind. Callers in one process
 * take turns, so the optimistic check below only ever races another
 * process; without this, 50 concurrent imports retried each other out of
 * their attempts.
 */
const turns = new WeakMap<Deno.Kv, Map<string, Promise<unknown>>>();

/** Most attempts against writers in other processes before giving up. */
const ATTEMPTS = 100;

/** Allocates the next id of `kind` (1, 2, 3, ...). */
export function nextId(kv: Deno.Kv, kind: string): Promise<number> {
  return nextIds(kv, kind, 1).then((ids) => ids[0]);
}

/**
 * Allocates the next `count` ids of `kind` in one commit: consecutive,
 * increasing, and never given to another caller.
 */
export function nextIds(kv: Deno.Kv, kind: string, count: number): Promise<number[]> {
  let byKind = turns.get(kv);
  if (!byKind) turns.set(kv, byKind = new Map());
  const previous = byKind.get(kind) ?? Promise.resolve();
  const take = () => allocate(kv, kind, count);
  const mine = previous.then(take, take);
  byKind.set(kind, mine);
  return mine;
}

async function allocate(kv: Deno.Kv, kind: string, count: number): Promise<number[]> {
  const key = ["counter", kind];
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await kv.get<number>(key);
    const first = (current.value ?? 0) + 1;
    const last = first + count - 1;
    const result = await withLockRetry(() => kv.atomic().check(current).set(key, last).commit());
    if (result.ok) return Array.from({ length: count }, (_, i) => first + i);
    // Another process took this id: back off a little, with jitter, so two do not collide again.
    await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 ** attempt)));
  }
  throw new Error(`could not allocate a ${kind} id: another process holds the store's counter`);
}
