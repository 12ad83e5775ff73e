/**
 * Removing a stored bundle. The head goes in one commit checked against the
 * head that was read, so a write that lands meanwhile is never lost
 * silently: it either precedes the removal (and is removed with it) or
 * follows it (and recreates the bundle). The chunks are deleted afterwards;
 * if that is interrupted, the start-up sweep finds them unnamed and drops them.
 *
 * @module
 */
import { Conflict } from "../core/errors.ts";
import type { BundleHead } from "./bundles.ts";
import { bundleChunkPrefix, bundleHeadKey } from "./bundles.ts";
import { deleteBlob, withLockRetry } from "./blob.ts";

/** Removes the bundle stored under `slug`; returns its last head, or null when none was stored. */
export async function removeBundle(kv: Deno.Kv, slug: string): Promise<BundleHead | null> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const entry = await kv.get<BundleHead>(bundleHeadKey(slug));
    if (entry.value === null) return null;
    const res = await withLockRetry(() =>
      kv.atomic().check(entry).delete(bundleHeadKey(slug)).commit()
    );
    if (!res.ok) continue;
    try {
      await deleteBlob(kv, bundleChunkPrefix(slug, entry.value.generation));
    } catch (err) {
      console.error(
        "bundle store: deleting removed chunks failed (the start-up sweep will retry):",
        err,
      );
    }
    return entry.value;
  }
  throw new Conflict(`bundle "${slug}" is changing too fast to be removed; try again`);
}
