/**
 * Removing a stored bundle. The head goes in one commit checked against the
 * head that was read, so a write that lands meanwhile is never lost
 * silently: it either precedes the removal (and is removed with it) or
 * follows it (and recreates the bundle). The chunks are deleted afterwards;
 * if that is interrupted, the start-up sweep finds them unnamed and drops them.
 * A failed chunk deletion is returned, not logged: storage writes nothing to
 * the console, and the application decides who hears of it.
 *
 * @module
 */
import { Conflict } from "../core/errors.ts";
import type { BundleHead } from "./bundles.ts";
import { bundleChunkPrefix, bundleHeadKey } from "./bundles.ts";
import { deleteBlob, withLockRetry } from "./blob.ts";

/** What {@linkcode removeBundle} did. */
export interface RemovedBundle {
  /** The bundle's last head. */
  head: BundleHead;
  /**
   * Why deleting the removed generation's chunks failed, or null when they
   * are gone. The bundle is removed either way; the start-up sweep drops
   * chunks left behind.
   */
  chunkError: Error | null;
}

/** Removes the bundle stored under `slug`; null when none was stored. */
export async function removeBundle(kv: Deno.Kv, slug: string): Promise<RemovedBundle | null> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const entry = await kv.get<BundleHead>(bundleHeadKey(slug));
    if (entry.value === null) return null;
    const res = await withLockRetry(() =>
      kv.atomic().check(entry).delete(bundleHeadKey(slug)).commit()
    );
    if (!res.ok) continue;
    let chunkError: Error | null = null;
    try {
      await deleteBlob(kv, bundleChunkPrefix(slug, entry.value.generation));
    } catch (err) {
      chunkError = err instanceof Error ? err : new Error(String(err));
    }
    return { head: entry.value, chunkError };
  }
  throw new Conflict(`bundle "${slug}" is changing too fast to be removed; try again`);
}
