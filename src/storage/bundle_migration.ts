/**
 * The one-time rewrite of bundle generations written before the table
 * encoding: when a store opens, every head that still names a JSON
 * generation is rewritten as an edge table through the ordinary writer,
 * so that later reads take only the table decoder. A bundle reads the same
 * before and after (same members, same columns, run counters as they were
 * read).
 *
 * @module
 */
import { BundleCorrupt, listBundleHeads, updateBundle, type UpdateOptions } from "./bundles.ts";

/** Thrown inside a rewrite whose bundle was removed meanwhile: nothing to do. */
class Gone extends Error {}

/**
 * Rewrites every JSON generation in `kv` as a table; returns how many were
 * rewritten. A generation that cannot be read (a damaged store) is left
 * as it is, so reads keep reporting it as {@linkcode BundleCorrupt} and
 * `onUnreadable` hears of it; a bundle removed meanwhile is skipped. Safe
 * to run again: a store without JSON generations is not written to.
 */
export async function migrateJsonBundles(
  kv: Deno.Kv,
  opts: UpdateOptions & { onUnreadable?: (slug: string, err: BundleCorrupt) => void } = {},
): Promise<number> {
  let rewritten = 0;
  for (const head of await listBundleHeads(kv)) {
    if (head.encoding !== undefined) continue;
    try {
      await updateBundle(kv, head.slug, (current) => {
        if (current === null) throw new Gone();
        return { bundle: current.bundle, result: null };
      }, opts);
      rewritten++;
    } catch (err) {
      if (err instanceof Gone) continue;
      if (err instanceof BundleCorrupt) {
        opts.onUnreadable?.(head.slug, err);
        continue;
      }
      throw err;
    }
  }
  return rewritten;
}
