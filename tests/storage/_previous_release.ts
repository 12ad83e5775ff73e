/**
 * A bundle store as the release before the table encoding wrote it: each
 * generation the canonical JSON of the document (serialise.ts), gzip level
 * 1 in chunks, with the SHA-256 of the chunks; the head the same as today's
 * but without `encoding`. Older still, generations had no checksum.
 * Written here by hand, the way that release's `writeChange` wrote them,
 * so the migration test opens a store that release really left.
 *
 * @module
 */
import { serialiseBundle } from "../../src/core/bundle/serialise.ts";
import { bundleStats } from "../../src/core/bundle/stats.ts";
import { tableBundleOf } from "../../src/core/bundle/table_convert.ts";
import type { BundleV4 } from "../../src/core/bundle/types.ts";
import { writeBlob } from "../../src/storage/blob.ts";
import { bundleHeadKey } from "../../src/storage/bundles.ts";
import { nextId } from "../../src/storage/ids.ts";

/**
 * Writes `doc` as the next generation of `slug` (numbered by the store's
 * generation counter, as that release numbered them), as the previous
 * release did; returns the generation.
 */
export async function writePreviousReleaseBundle(
  kv: Deno.Kv,
  slug: string,
  doc: BundleV4,
  opts: { checksum?: boolean } = {},
): Promise<number> {
  const generation = await nextId(kv, "bundle_generation");
  const json = new TextEncoder().encode(serialiseBundle(doc));
  const chunks = await writeBlob(kv, ["bundle_chunk", slug, generation], json, {
    level: 1,
    checksum: opts.checksum ?? true,
  });
  const stats = bundleStats(tableBundleOf(doc));
  await kv.set(bundleHeadKey(slug), {
    slug,
    track: doc.meta.track,
    generation,
    chunks,
    json_bytes: json.byteLength,
    edges: stats.points,
    runs: doc.meta.runs,
    sources: stats.sources,
    updated_at: doc.meta.updated_at,
    official: doc.meta.official && { ...doc.meta.official },
    elevation_points: stats.elevation_points,
    manual_points: stats.manual_points,
    finish_crossings: stats.finish_crossings,
    corners: stats.corners,
    sections: stats.sections,
  });
  return generation;
}
