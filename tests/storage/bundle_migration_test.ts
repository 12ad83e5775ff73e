import { strict as assert } from "node:assert";
import { TABLE_ENCODING } from "../../src/core/bundle/table_codec.ts";
import type { BundleV4 } from "../../src/core/bundle/types.ts";
import { upgradeImported } from "../../src/core/bundle/upgrade.ts";
import { validateBundle } from "../../src/core/bundle/validate.ts";
import { createApp } from "../../src/app/create_app.ts";
import { migrateJsonBundles } from "../../src/storage/bundle_migration.ts";
import {
  BundleCorrupt,
  type BundleHead,
  getBundleHead,
  listBundleHeads,
  readBundle,
} from "../../src/storage/bundles.ts";
import { syntheticBundle } from "../_bundles.ts";
import { merge } from "../_merge_objects.ts";
import { FRIEND, ME, v4Doc } from "../core/bundle/arbitraries.ts";
import { writePreviousReleaseBundle } from "./_previous_release.ts";

const NOW = "2026-11-21T12:00:00.000Z";

/** A normalised document, as the previous release stored it after an import. */
function stored(raw: unknown): BundleV4 {
  return merge(null, upgradeImported(validateBundle(raw)), { now: NOW }).merged;
}

/** The figures of a head that do not depend on how or when its generation was written. */
function figures(head: BundleHead): Omit<BundleHead, "generation" | "chunks" | "encoding"> {
  const { generation: _g, chunks: _c, encoding: _e, json_bytes: _j, ...rest } = head;
  return { ...rest, json_bytes: 0 };
}

async function withKv(fn: (kv: Deno.Kv) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    await fn(kv);
  } finally {
    kv.close();
  }
}

/** A store of the previous release: two bundles (one from before checksums) and a damaged one. */
async function previousStore(kv: Deno.Kv): Promise<void> {
  const big = stored(syntheticBundle({ cells: 3000, sources: [ME, FRIEND], runs: 7, seed: 26 }));
  await writePreviousReleaseBundle(kv, "synthetic-ring", big);
  const small = v4Doc(5, { run: 3, track: "Old Ring" });
  (small.corners as unknown[]).push({ name: "Hairpin", apex: { x: 2, z: 0 } });
  // Derived values that lie, as a hand-edited file might: read as that release read them.
  const lying = stored(small);
  lying.meta.runs = 999;
  await writePreviousReleaseBundle(kv, "old-ring", lying, { checksum: false });
  const broken = stored(v4Doc(2, { track: "Broken Ring" }));
  const generation = await writePreviousReleaseBundle(kv, "broken-ring", broken);
  // Damage the broken one so that it no longer parses.
  await kv.set(["bundle_chunk", "broken-ring", generation, 0], new Uint8Array([0x1f, 0x8b, 1, 2]));
}

Deno.test("opening a store of the previous release rewrites its JSON generations as tables, reading the same", async () => {
  await withKv(async (kv) => {
    await previousStore(kv);
    const slugs = ["old-ring", "synthetic-ring"];
    const before = await Promise.all(slugs.map((s) => readBundle(kv, s)));
    assert.deepEqual(before.map((b) => b!.head.encoding), [undefined, undefined]);
    assert.equal(before[1]!.doc.edges.length, 3000);
    assert.equal(before[0]!.doc.meta.runs, 3);

    const unreadable: string[] = [];
    const rewritten = await migrateJsonBundles(kv, {
      onUnreadable: (slug, err) => {
        assert.ok(err instanceof BundleCorrupt);
        unreadable.push(slug);
      },
    });
    assert.equal(rewritten, 2);
    assert.deepEqual(unreadable, ["broken-ring"]);

    const after = await Promise.all(slugs.map((s) => readBundle(kv, s)));
    for (let i = 0; i < slugs.length; i++) {
      assert.equal(after[i]!.head.encoding, TABLE_ENCODING, slugs[i]);
      assert.ok(after[i]!.head.generation > before[i]!.head.generation);
      assert.deepEqual(after[i]!.doc, before[i]!.doc, slugs[i]);
      // The head's figures are the bundle's as read (old-ring's document lied about its runs).
      assert.deepEqual(
        figures(after[i]!.head),
        { ...figures(before[i]!.head), runs: before[i]!.doc.meta.runs },
        slugs[i],
      );
    }
    // The old chunks are swept; the damaged bundle is left as it was and still refused.
    const gens = new Set<number>();
    for await (const e of kv.list({ prefix: ["bundle_chunk"] })) gens.add(e.key[2] as number);
    assert.deepEqual(
      [...gens].sort((a, b) => a - b),
      [3, after[0]!.head.generation, after[1]!.head.generation].sort((a, b) => a - b),
    );
    assert.equal((await getBundleHead(kv, "broken-ring"))!.encoding, undefined);
    await assert.rejects(readBundle(kv, "broken-ring"), BundleCorrupt);

    // Once is enough: a second pass writes nothing.
    const heads = await listBundleHeads(kv);
    assert.equal(await migrateJsonBundles(kv), 0);
    assert.deepEqual(await listBundleHeads(kv), heads);
  });
});

Deno.test("createApp migrates the previous release's bundles as it opens the store", async () => {
  await withKv(async (kv) => {
    await previousStore(kv);
    const before = (await readBundle(kv, "synthetic-ring"))!;
    const warnings: string[] = [];
    const app = await createApp({
      kv,
      log: { warn: (message: string) => warnings.push(message), error() {} },
    });
    try {
      const heads = await listBundleHeads(kv);
      assert.deepEqual(
        heads.map((h) => [h.slug, h.encoding]),
        [["broken-ring", undefined], ["old-ring", TABLE_ENCODING], [
          "synthetic-ring",
          TABLE_ENCODING,
        ]],
      );
      assert.deepEqual(warnings, ['bundle store: "broken-ring" left as it is']);
      assert.deepEqual((await app.bundles.export("synthetic-ring")).edges.length, 3000);
      assert.deepEqual((await readBundle(kv, "synthetic-ring"))!.doc, before.doc);
    } finally {
      await app.shutdown();
    }
  });
});
