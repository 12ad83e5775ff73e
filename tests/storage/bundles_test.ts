import { strict as assert } from "node:assert";
import { concatBytes } from "../_bytes.ts";
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { Conflict } from "../../src/core/errors.ts";
import { mergeTables } from "../../src/core/bundle/merge.ts";
import { merge } from "../_merge_objects.ts";
import { serialiseBundle } from "../../src/core/bundle/serialise.ts";
import { encodeBundleTable, TABLE_ENCODING } from "../../src/core/bundle/table_codec.ts";
import { docOf, tableBundleOf } from "../../src/core/bundle/table_convert.ts";
import type { BundleV4 } from "../../src/core/bundle/types.ts";
import { upgradeImported } from "../../src/core/bundle/upgrade.ts";
import { validateBundle } from "../../src/core/bundle/validate.ts";
import { jsonBytes, writeBlob } from "../../src/storage/blob.ts";
import {
  BundleCorrupt,
  bundleHeadKey,
  getBundleHead,
  listBundleHeads,
  readBundle,
  readBundleTable,
  sweepOrphanBundleChunks,
  updateBundle,
} from "../../src/storage/bundles.ts";
import { clone, FRIEND, legacyDoc, ME, v4Doc } from "../core/bundle/arbitraries.ts";
import { syntheticBundle } from "../_bundles.ts";

const NOW = "2026-11-21T12:00:00.000Z";

function read(raw: unknown): BundleV4 {
  return upgradeImported(validateBundle(raw));
}

/** Every entry of the store: key, value and versionstamp. */
async function snapshot(kv: Deno.Kv): Promise<[Deno.KvKey, unknown, string][]> {
  const out: [Deno.KvKey, unknown, string][] = [];
  for await (const e of kv.list({ prefix: [] })) out.push([e.key, e.value, e.versionstamp]);
  return out;
}

/** The generations that have chunks under `slug`, with their chunk counts. */
async function chunkGenerations(kv: Deno.Kv, slug: string): Promise<Map<number, number>> {
  const gens = new Map<number, number>();
  for await (const e of kv.list({ prefix: ["bundle_chunk", slug] })) {
    const gen = e.key[2] as number;
    gens.set(gen, (gens.get(gen) ?? 0) + 1);
  }
  return gens;
}

/** An update that merges `raw` into whatever is stored. */
function mergeIn(kv: Deno.Kv, slug: string, raw: unknown, now = NOW) {
  const incoming = read(raw);
  return updateBundle(kv, slug, (current) => {
    const r = mergeTables(current?.bundle ?? null, tableBundleOf(incoming), { now });
    return { bundle: r.merged, result: r.report };
  });
}

/** The size of the table encoding of `bundle`. */
function encodedBytes(bundle: Parameters<typeof encodeBundleTable>[0]): number {
  let n = 0;
  for (const piece of encodeBundleTable(bundle)) n += piece.byteLength;
  return n;
}

async function withKv(fn: (kv: Deno.Kv) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    await fn(kv);
  } finally {
    kv.close();
  }
}

Deno.test("a written bundle reads back equal, with a head describing it", async () => {
  await withKv(async (kv) => {
    const raw = v4Doc(6, { source: FRIEND, run: 4 });
    raw.corners = [{ apex: { x: 1, z: 2 } }];
    const { head, result, attempts } = await mergeIn(kv, "test-ring", raw);
    assert.equal(attempts, 1);
    assert.equal(result.addedEdges, 6);
    const stored = await readBundle(kv, "test-ring");
    assert.ok(stored);
    assert.deepEqual(stored.head, head);
    const expected = merge(null, read(raw), { now: NOW }).merged;
    assert.equal(serialiseBundle(stored.doc), serialiseBundle(expected));
    assert.deepEqual({ ...head, generation: 0, chunks: null, json_bytes: 0 }, {
      slug: "test-ring",
      track: "Test Ring",
      generation: 0,
      chunks: null,
      encoding: TABLE_ENCODING,
      json_bytes: 0,
      edges: 6,
      runs: 4,
      sources: 1,
      updated_at: NOW,
      official: null,
      elevation_points: 6,
      manual_points: 0,
      finish_crossings: 0,
      corners: 1,
      sections: 0,
    });
    assert.equal(head.json_bytes, encodedBytes((await readBundleTable(kv, "test-ring"))!.bundle));
    assert.deepEqual(await chunkGenerations(kv, "test-ring"), new Map([[head.generation, 1]]));
    assert.deepEqual(await getBundleHead(kv, "test-ring"), head);
  });
});

Deno.test("nothing is stored under an unknown slug", async () => {
  await withKv(async (kv) => {
    assert.equal(await readBundle(kv, "nowhere"), null);
    assert.equal(await getBundleHead(kv, "nowhere"), null);
    assert.deepEqual(await listBundleHeads(kv), []);
  });
});

Deno.test("each write flips to a newer generation and sweeps the older one", async () => {
  await withKv(async (kv) => {
    const first = await mergeIn(kv, "test-ring", v4Doc(3, { source: ME, run: 1 }));
    const second = await mergeIn(kv, "test-ring", v4Doc(5, { source: FRIEND, run: 2 }));
    assert.ok(second.head.generation > first.head.generation);
    assert.deepEqual(
      await chunkGenerations(kv, "test-ring"),
      new Map([[second.head.generation, 1]]),
    );
    const stored = (await readBundle(kv, "test-ring"))!;
    assert.equal(stored.head.generation, second.head.generation);
    assert.equal(stored.doc.edges.length, 5);
    assert.deepEqual(stored.doc.meta.source_runs, { [FRIEND]: 2, [ME]: 1 });
  });
});

Deno.test("a 50,000-edge bundle spans many chunks and reads back byte for byte", async () => {
  await withKv(async (kv) => {
    const raw = syntheticBundle({ cells: 50_000, sources: [ME, FRIEND], runs: 9, seed: 3 });
    const { head } = await mergeIn(kv, "crash-test-ring", raw);
    assert.ok(head.chunks.chunks > 10, `only ${head.chunks.chunks} chunks`);
    const gens = await chunkGenerations(kv, "crash-test-ring");
    assert.deepEqual(gens, new Map([[head.generation, head.chunks.chunks]]));
    const stored = (await readBundle(kv, "crash-test-ring"))!;
    const expected = merge(null, read(raw), { now: NOW }).merged;
    assert.equal(serialiseBundle(stored.doc), serialiseBundle(expected));
  });
});

Deno.test("a change that throws writes nothing", async () => {
  await withKv(async (kv) => {
    await mergeIn(kv, "test-ring", v4Doc(3));
    const before = await snapshot(kv);
    await assert.rejects(
      updateBundle(kv, "test-ring", () => {
        throw new RangeError("refused");
      }),
      RangeError,
    );
    assert.deepEqual(await snapshot(kv), before);
  });
});

Deno.test("heads are listed in slug order without reading documents", async () => {
  await withKv(async (kv) => {
    await mergeIn(kv, "zandvoort", v4Doc(2, { track: "Zandvoort" }));
    await mergeIn(kv, "autopolis", v4Doc(4, { track: "Autopolis" }));
    const heads = await listBundleHeads(kv);
    assert.deepEqual(heads.map((h) => [h.slug, h.track, h.edges]), [
      ["autopolis", "Autopolis", 4],
      ["zandvoort", "Zandvoort", 2],
    ]);
  });
});

/**
 * Stores `doc` (any JSON) directly as generation 900 of `slug`, bypassing
 * every check, as a generation written before the table encoding was.
 */
async function plant(kv: Deno.Kv, slug: string, doc: unknown): Promise<void> {
  const { encoding: _, ...head } = (await getBundleHead(kv, slug))!;
  const bytes = jsonBytes(doc);
  const chunks = await writeBlob(kv, ["bundle_chunk", slug, 900], bytes);
  await kv.set(bundleHeadKey(slug), { ...head, generation: 900, chunks });
}

Deno.test("a read re-resolves kinds: a stored kind is never trusted", async () => {
  await withKv(async (kv) => {
    await mergeIn(kv, "test-ring", v4Doc(2));
    const doc = clone(v4Doc(2)) as { edges: { kind: string }[] };
    doc.edges[0].kind = "wall";
    await plant(kv, "test-ring", doc);
    const stored = (await readBundle(kv, "test-ring"))!;
    assert.deepEqual(stored.doc.edges.map((e) => e.kind), ["auto", "auto"]);
  });
});

Deno.test("a damaged store is reported as BundleCorrupt, never returned", async () => {
  await withKv(async (kv) => {
    await mergeIn(kv, "invalid", v4Doc(2));
    const invalid = clone(v4Doc(2)) as { edges: { votes: unknown }[] };
    invalid.edges[1].votes = {};
    await plant(kv, "invalid", invalid);
    await assert.rejects(readBundle(kv, "invalid"), (err: Error) => {
      assert.ok(err instanceof BundleCorrupt);
      assert.match(err.message, /"invalid" is unreadable: fails validation: \$\.edges\[1\]\.votes/);
      return true;
    });
    // A write on top of an unreadable bundle refuses rather than losing what is there.
    await assert.rejects(mergeIn(kv, "invalid", v4Doc(2)), BundleCorrupt);

    await mergeIn(kv, "old", v4Doc(1));
    await plant(kv, "old", legacyDoc(2, { version: 3 }));
    await assert.rejects(readBundle(kv, "old"), /"old" is unreadable: stored as version 3/);

    const garbled = await mergeIn(kv, "garbled", v4Doc(2));
    await kv.set(
      ["bundle_chunk", "garbled", garbled.head.generation, 0],
      new Uint8Array([1, 2, 3]),
    );
    await assert.rejects(readBundle(kv, "garbled"), BundleCorrupt);

    const lost = await mergeIn(kv, "lost", v4Doc(2));
    await kv.delete(["bundle_chunk", "lost", lost.head.generation, 0]);
    await assert.rejects(readBundle(kv, "lost"), /"lost" is unreadable: .*(missing|incomplete)/);
  });
});

Deno.test("ten concurrent writes in one process take turns: each lands first time, in call order", async () => {
  await withKv(async (kv) => {
    const docs = [
      ...Array.from({ length: 4 }, (_, i) => v4Doc(3 + i, { source: FRIEND, run: 1 + i })),
      ...Array.from({ length: 3 }, (_, i) => v4Doc(5, { source: ME, run: 2 + i })),
      v4Doc(5, { source: ME, run: 4 }),
      syntheticBundle({ cells: 40, sources: [ME, FRIEND], runs: 6, seed: 5, track: "Test Ring" }),
      syntheticBundle({ cells: 60, sources: ["00aa00aa00"], runs: 2, seed: 6, track: "Test Ring" }),
    ];
    const updates = await Promise.all(docs.map((d) => mergeIn(kv, "test-ring", d)));
    assert.deepEqual(updates.map((u) => u.attempts), docs.map(() => 1));
    // Turns are taken in call order: generations increase with it.
    const generations = updates.map((u) => u.head.generation);
    assert.deepEqual(generations, [...generations].sort((a, b) => a - b));

    let expected: BundleV4 | null = null;
    for (const d of docs) expected = merge(expected, read(d), { now: NOW }).merged;
    const stored = (await readBundle(kv, "test-ring"))!;
    assert.equal(serialiseBundle(stored.doc), serialiseBundle(expected!));
    assert.equal(stored.head.generation, generations.at(-1));
    // Losing attempts deleted their generations; the winners' old ones were swept.
    assert.deepEqual(
      [...(await chunkGenerations(kv, "test-ring")).keys()],
      [stored.head.generation],
    );
  });
});

Deno.test("readers racing writers only ever see whole generations", async () => {
  await withKv(async (kv) => {
    await mergeIn(kv, "test-ring", v4Doc(3));
    const docs = Array.from(
      { length: 6 },
      (_, i) =>
        syntheticBundle({
          cells: 3000,
          sources: [FRIEND],
          runs: 2 + i,
          seed: 20 + i,
          track: "Test Ring",
        }),
    );
    let writing = true;
    const seen: [number, string][] = [];
    const reader = (async () => {
      while (writing) {
        const stored = (await readBundle(kv, "test-ring"))!;
        seen.push([stored.head.generation, serialiseBundle(stored.doc)]);
      }
    })();
    const byGeneration = new Map<number, string>();
    await Promise.all(docs.map(async (d) => {
      const incoming = read(d);
      const u = await updateBundle(kv, "test-ring", (current) => {
        const r = mergeTables(current?.bundle ?? null, tableBundleOf(incoming), { now: NOW });
        return { bundle: r.merged, result: serialiseBundle(docOf(r.merged)) };
      });
      byGeneration.set(u.head.generation, u.result);
    }));
    writing = false;
    await reader;
    assert.ok(seen.length > 1);
    for (const [generation, text] of seen) {
      if (byGeneration.has(generation)) assert.equal(text, byGeneration.get(generation));
    }
  });
});

Deno.test("a writer that keeps losing gives up with Conflict and leaves no chunks behind", async () => {
  await withKv(async (kv) => {
    const { head } = await mergeIn(kv, "test-ring", v4Doc(3));
    let calls = 0;
    await assert.rejects(
      updateBundle(kv, "test-ring", async (current) => {
        calls++;
        // Another writer touches the head after every read.
        await kv.set(bundleHeadKey("test-ring"), current!.head);
        return { bundle: current!.bundle, result: null };
      }, { maxAttempts: 3 }),
      (err: Error) => err instanceof Conflict && /changed 3 times/.test(err.message),
    );
    assert.equal(calls, 3);
    assert.deepEqual([...(await chunkGenerations(kv, "test-ring")).keys()], [head.generation]);
    assert.equal((await readBundle(kv, "test-ring"))!.doc.edges.length, 3);
  });
});

/**
 * `kv` with a pause: the `n`-th commit that writes bundle chunks waits until
 * released. `reached` resolves when the pause begins.
 */
function pausedAt(kv: Deno.Kv, n: number) {
  const reached = Promise.withResolvers<void>();
  const release = Promise.withResolvers<void>();
  let chunkCommits = 0;
  const paused = new Proxy(kv, {
    get(target, prop) {
      if (prop === "atomic") {
        return () => {
          const op = target.atomic();
          const set = op.set.bind(op);
          const commit = op.commit.bind(op);
          let chunks = false;
          op.set = (key, value, options) => {
            chunks ||= key[0] === "bundle_chunk";
            return set(key, value, options);
          };
          op.commit = async () => {
            if (chunks && ++chunkCommits === n) {
              reached.resolve();
              await release.promise;
            }
            return await commit();
          };
          return op;
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: paused, reached: reached.promise, release: () => release.resolve() };
}

Deno.test("a sweep in the middle of a write never leaves the head naming deleted chunks", async () => {
  await withKv(async (kv) => {
    const raw = syntheticBundle({ cells: 30_000, sources: [ME], runs: 3, seed: 8 });
    // The writer stops after its first batch of chunks, before the second.
    const writer = pausedAt(kv, 2);
    const update = mergeIn(writer.kv, "crash-test-ring", raw);
    await writer.reached;
    const [generation] = (await chunkGenerations(kv, "crash-test-ring")).keys();
    assert.equal(await sweepOrphanBundleChunks(kv), 1);
    assert.deepEqual(await chunkGenerations(kv, "crash-test-ring"), new Map());
    writer.release();
    // The writer cannot flip to the swept generation; it writes a new one instead.
    const { head, attempts } = await update;
    assert.equal(attempts, 2);
    assert.ok(head.generation > generation);
    const stored = (await readBundle(kv, "crash-test-ring"))!;
    assert.equal(
      serialiseBundle(stored.doc),
      serialiseBundle(merge(null, read(raw), { now: NOW }).merged),
    );
    assert.deepEqual(
      await chunkGenerations(kv, "crash-test-ring"),
      new Map([[head.generation, head.chunks.chunks]]),
    );
    assert.deepEqual(await Array.fromAsync(kv.list({ prefix: ["bundle_pending"] })), []);
  });
});

Deno.test("120 concurrent writes of one slug never run out of attempts, even allowed only one", async () => {
  await withKv(async (kv) => {
    const docs = Array.from({ length: 120 }, (_, i) => v4Doc(2, { source: FRIEND, run: 1 + i }));
    const updates = await Promise.all(docs.map((d) => {
      const incoming = read(d);
      return updateBundle(kv, "test-ring", (current) => {
        const r = mergeTables(current?.bundle ?? null, tableBundleOf(incoming), { now: NOW });
        return { bundle: r.merged, result: null };
      }, { maxAttempts: 1 });
    }));
    assert.equal(updates.length, 120);
    // Another slug does not wait for this one's turns, nor counts against them.
    const other = await mergeIn(kv, "other-ring", v4Doc(2));
    assert.equal(other.attempts, 1);
    assert.deepEqual(
      [...(await chunkGenerations(kv, "test-ring")).keys()],
      [updates.at(-1)!.head.generation],
    );
  });
});

Deno.test("a writer elsewhere that commits first makes a change run again on the newer bundle", async () => {
  await withKv(async (kv) => {
    await mergeIn(kv, "test-ring", v4Doc(3, { source: FRIEND, run: 1 }));
    // The paused handle stands for another process: it takes no turns with `kv`.
    const elsewhere = pausedAt(kv, 1);
    const mine = read(v4Doc(4, { source: ME, run: 1 }));
    const seen: number[] = [];
    const update = updateBundle(elsewhere.kv, "test-ring", (current) => {
      seen.push(current!.head.generation);
      const r = mergeTables(current!.bundle, tableBundleOf(mine), { now: NOW });
      return { bundle: r.merged, result: null };
    });
    await elsewhere.reached;
    const theirs = read(v4Doc(5, { source: FRIEND, run: 2 }));
    const first = await mergeIn(kv, "test-ring", v4Doc(5, { source: FRIEND, run: 2 }));
    elsewhere.release();
    const { head, attempts } = await update;
    assert.equal(attempts, 2);
    assert.equal(seen[1], first.head.generation, "the retry read the newer bundle");
    let expected = merge(null, read(v4Doc(3, { source: FRIEND, run: 1 })), { now: NOW }).merged;
    expected = merge(expected, theirs, { now: NOW }).merged;
    expected = merge(expected, mine, { now: NOW }).merged;
    const stored = (await readBundle(kv, "test-ring"))!;
    assert.equal(stored.head.generation, head.generation);
    assert.equal(serialiseBundle(stored.doc), serialiseBundle(expected));
    assert.deepEqual([...(await chunkGenerations(kv, "test-ring")).keys()], [head.generation]);
  });
});

Deno.test("the start-up sweep deletes generations no head names, and nothing else", async () => {
  await withKv(async (kv) => {
    const { head } = await mergeIn(kv, "test-ring", v4Doc(3));
    const other = await mergeIn(kv, "other-ring", v4Doc(2, { track: "Other Ring" }));
    const bytes = jsonBytes(syntheticBundle({ cells: 2000, sources: [ME], runs: 1, seed: 1 }));
    // A crash mid-write of a newer generation, one after the flip before the sweep,
    // and a first import of a circuit that never got a head.
    await writeBlob(kv, ["bundle_chunk", "test-ring", head.generation + 50], bytes);
    await writeBlob(kv, ["bundle_chunk", "test-ring", head.generation - 1], bytes);
    await writeBlob(kv, ["bundle_chunk", "new-ring", 77], bytes);
    // A crash after marking a generation pending, before its first chunk; and one mid-write.
    await kv.set(["bundle_pending", "test-ring", head.generation + 60], "2026-11-21T12:00:00Z");
    await kv.set(["bundle_pending", "test-ring", head.generation + 50], "2026-11-21T12:00:00Z");
    assert.equal(await sweepOrphanBundleChunks(kv), 4);
    assert.deepEqual(await Array.fromAsync(kv.list({ prefix: ["bundle_pending"] })), []);
    assert.deepEqual([...(await chunkGenerations(kv, "test-ring")).keys()], [head.generation]);
    assert.deepEqual([...(await chunkGenerations(kv, "other-ring")).keys()], [
      other.head.generation,
    ]);
    assert.deepEqual([...(await chunkGenerations(kv, "new-ring")).keys()], []);
    assert.equal((await readBundle(kv, "test-ring"))!.doc.edges.length, 3);
    assert.equal((await readBundle(kv, "other-ring"))!.doc.edges.length, 2);
    assert.equal(await sweepOrphanBundleChunks(kv), 0);
  });
});

/** The stored chunks of `slug`'s current generation, joined. */
async function storedChunks(kv: Deno.Kv, slug: string): Promise<Uint8Array> {
  const head = (await getBundleHead(kv, slug))!;
  const parts: Uint8Array[] = [];
  for await (const e of kv.list<Uint8Array>({ prefix: ["bundle_chunk", slug, head.generation] })) {
    parts.push(e.value);
  }
  return concatBytes(parts);
}

/**
 * Rewrites the current generation of `slug` with `bytes` in place, under the
 * same generation and head; `sign` gives it a matching checksum (as if this
 * module had written it), else the head keeps the old one.
 */
async function rewrite(kv: Deno.Kv, slug: string, bytes: Uint8Array, sign: boolean): Promise<void> {
  const head = (await getBundleHead(kv, slug))!;
  const prefix = ["bundle_chunk", slug, head.generation];
  for await (const e of kv.list({ prefix })) await kv.delete(e.key);
  const chunks = await writeBlob(kv, prefix, bytes, { level: 1, checksum: true });
  await kv.set(bundleHeadKey(slug), {
    ...head,
    chunks: sign ? chunks : { ...chunks, sha256: head.chunks.sha256 },
  });
}

/** The table encoding of `bundle` as one buffer. */
function encoded(bundle: Parameters<typeof encodeBundleTable>[0]): Uint8Array {
  return concatBytes(encodeBundleTable(bundle));
}

Deno.test("a written generation is the table encoding, gzip'd, with the SHA-256 of its chunks", async () => {
  await withKv(async (kv) => {
    const { head } = await mergeIn(
      kv,
      "test-ring",
      syntheticBundle({
        cells: 3_000,
        sources: [ME, FRIEND],
        runs: 6,
        seed: 3,
        track: "Test Ring",
      }),
    );
    assert.equal(head.encoding, TABLE_ENCODING);
    const bytes = await storedChunks(kv, "test-ring");
    assert.equal(head.chunks.sha256, createHash("sha256").update(bytes).digest("hex"));
    assert.equal(bytes.byteLength, head.chunks.bytes);
    const plain = new Uint8Array(gunzipSync(bytes));
    assert.equal(plain.byteLength, head.json_bytes);
    assert.deepEqual(plain, encoded((await readBundleTable(kv, "test-ring"))!.bundle));
  });
});

Deno.test("a table generation whose chunks do not match their checksum is BundleCorrupt", async () => {
  await withKv(async (kv) => {
    await mergeIn(kv, "test-ring", v4Doc(2));
    const stored = (await readBundleTable(kv, "test-ring"))!.bundle;
    // Damage that still decodes to a valid bundle: only the checksum can tell.
    const moved = { ...stored, meta: { ...stored.meta, track: "Moved Ring" } };
    await rewrite(kv, "test-ring", encoded(moved), false);
    await assert.rejects(readBundle(kv, "test-ring"), (err: Error) => {
      assert.ok(err instanceof BundleCorrupt);
      assert.match(
        err.message,
        /"test-ring" is unreadable: its chunks do not match their checksum/,
      );
      return true;
    });
    // Signed, the same bytes are read: the checksum is what told them apart.
    await rewrite(kv, "test-ring", encoded(moved), true);
    assert.equal((await readBundle(kv, "test-ring"))!.doc.meta.track, "Moved Ring");
  });
});

Deno.test("a signed table generation that breaks a rule is still refused", async () => {
  await withKv(async (kv) => {
    await mergeIn(kv, "test-ring", v4Doc(2));
    const stored = (await readBundleTable(kv, "test-ring"))!.bundle;
    const x = stored.edges.x.slice();
    x[0] = 2e7;
    const broken = { ...stored, edges: { ...stored.edges, x } };
    await rewrite(kv, "test-ring", encoded(broken), true);
    await assert.rejects(readBundle(kv, "test-ring"), (err: Error) => {
      assert.ok(err instanceof BundleCorrupt);
      assert.match(err.message, /x\[0\]/);
      return true;
    });
  });
});

Deno.test("a JSON generation (written before tables) is validated in full, checksum or not", async () => {
  await withKv(async (kv) => {
    await mergeIn(kv, "test-ring", v4Doc(2));
    const doc = JSON.parse(serialiseBundle((await readBundle(kv, "test-ring"))!.doc));
    // Derived values that lie: the votes say auto, the counters sum to 4.
    doc.edges[0].kind = "wall";
    doc.meta.runs = 999;
    await plant(kv, "test-ring", doc);
    const { encoding: _, ...head } = (await getBundleHead(kv, "test-ring"))!;
    const prefix = ["bundle_chunk", "test-ring", head.generation];
    for await (const e of kv.list({ prefix })) await kv.delete(e.key);
    const signed = await writeBlob(kv, prefix, jsonBytes(doc), { level: 1, checksum: true });
    await kv.set(bundleHeadKey("test-ring"), { ...head, chunks: signed });
    const read = (await readBundle(kv, "test-ring"))!;
    assert.deepEqual(read.doc.edges.map((e) => e.kind), ["auto", "auto"]);
    assert.equal(read.doc.meta.runs, 4);
    // The next change rewrites it as a table.
    const { head: next } = await mergeIn(kv, "test-ring", v4Doc(2));
    assert.equal(next.encoding, TABLE_ENCODING);
  });
});

Deno.test("an unknown encoding is BundleCorrupt, not guessed at", async () => {
  await withKv(async (kv) => {
    await mergeIn(kv, "test-ring", v4Doc(2));
    const head = (await getBundleHead(kv, "test-ring"))!;
    await kv.set(bundleHeadKey("test-ring"), { ...head, encoding: "edge-table-9" });
    await assert.rejects(readBundle(kv, "test-ring"), /unknown encoding "edge-table-9"/);
  });
});

Deno.test("a flipped byte in a stored chunk is reported as BundleCorrupt", async () => {
  await withKv(async (kv) => {
    const { head } = await mergeIn(kv, "test-ring", v4Doc(3));
    const key = ["bundle_chunk", "test-ring", head.generation, head.chunks.chunks - 1];
    const chunk = (await kv.get<Uint8Array>(key)).value!;
    const flipped = chunk.slice();
    // The last byte is part of the gzip trailer's length: gunzip refuses it.
    flipped[flipped.length - 1] ^= 0xff;
    await kv.set(key, flipped);
    await assert.rejects(readBundle(kv, "test-ring"), BundleCorrupt);
  });
});

Deno.test("a bundle reads back as the merge made it, in cell order, and as fresh objects", async () => {
  const raw = syntheticBundle({
    cells: 2_000,
    sources: [ME, FRIEND],
    runs: 6,
    seed: 9,
    track: "Test Ring",
  });
  await withKv(async (kv) => {
    await mergeIn(kv, "test-ring", raw);
    const first = (await readBundle(kv, "test-ring"))!.doc;
    const second = (await readBundle(kv, "test-ring"))!.doc;
    assert.notEqual(first, second);
    assert.equal(JSON.stringify(first), JSON.stringify(second));
    const expected = merge(null, read(raw), { now: NOW }).merged;
    assert.equal(JSON.stringify(first), serialiseBundle(expected));
  });
});

Deno.test("run counters read back as written: a run still being driven stays uncounted", async () => {
  await withKv(async (kv) => {
    // A survey's autosave: votes of run 2 by FRIEND, whose counter still says 1.
    const incoming = tableBundleOf(read(v4Doc(3, { source: FRIEND, run: 2 })));
    const saving = {
      ...incoming,
      meta: { ...incoming.meta, runs: 1, source_runs: { [FRIEND]: 1 } },
    };
    await updateBundle(kv, "test-ring", (current) => {
      const r = mergeTables(current?.bundle ?? null, saving, { now: NOW, reconcileRuns: false });
      return { bundle: r.merged, result: null };
    });
    const head = (await getBundleHead(kv, "test-ring"))!;
    const stored = (await readBundleTable(kv, "test-ring"))!.bundle;
    assert.equal(head.runs, 1);
    assert.deepEqual(stored.meta.source_runs, { [FRIEND]: 1 });
    assert.equal(stored.meta.runs, 1);
    // An edit on top (as an official match or a rename writes) keeps it uncounted.
    await updateBundle(kv, "test-ring", (current) => ({
      bundle: { ...current!.bundle, meta: { ...current!.bundle.meta, track: "Renamed" } },
      result: null,
    }));
    assert.deepEqual((await readBundle(kv, "test-ring"))!.doc.meta.source_runs, { [FRIEND]: 1 });
  });
});
