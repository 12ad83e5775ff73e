/**
 * The hub's store on PGlite: migrations apply once, laps are stored once
 * per driver and content and listed by their filters, newest first; bundle
 * votes merge to the same bundle in any order (fast-check), and merging the
 * same votes twice changes nothing.
 */
import { strict as assert } from "node:assert";
import fc from "fast-check";
import { emptyHub, freshPglite, testHub } from "../../_hub.ts";
import { syntheticBundle } from "../../_bundles.ts";
import { minimalLapFile } from "../../_lap_files.ts";
import { migrate } from "../../../src/storage/hub/migrations.ts";
import { listLapRows } from "../../../src/storage/hub/laps.ts";
import { mergeVotes } from "../../../src/app/hub/hub_bundles.ts";
import type { SqlPort } from "../../../src/storage/hub/sql_port.ts";

let shared: SqlPort | null = null;
async function db(): Promise<SqlPort> {
  return shared ??= await freshPglite();
}

Deno.test("migrations apply once: a second run applies nothing", async () => {
  const port = await db();
  assert.deepEqual(await migrate(port), []);
  const rows = await port.query("select version from hub_schema_versions");
  assert.deepEqual(rows.map((r) => Number(r.version)), [1, 2, 3]);
});

Deno.test("laps are listed newest first by circuit, car, driver and before", async () => {
  const port = await db();
  const hub = await testHub(port);
  const alice = await hub.driver("alice");
  const bob = await hub.driver("bob");
  const push = async (token: string, n: number, track: string, car: number) => {
    const file = minimalLapFile(n, { track_name: track, car_id: car });
    const res = await hub.call("POST", "/api/laps", { token, body: file });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id as number;
  };
  const a1 = await push(alice, 60, "Tsukuba Circuit", 10);
  const b1 = await push(bob, 61, "Tsukuba Circuit", 10);
  const a2 = await push(alice, 62, "Suzuka", 10);
  const a3 = await push(alice, 63, "Tsukuba Circuit", 20);
  const ids = async (filter: Parameters<typeof listLapRows>[1]) =>
    (await listLapRows(port, filter)).map((l) => l.id);
  assert.deepEqual(await ids({ limit: 10 }), [a3, a2, b1, a1]);
  assert.deepEqual(await ids({ limit: 10, circuit: "tsukuba-circuit" }), [a3, b1, a1]);
  assert.deepEqual(await ids({ limit: 10, circuit: "tsukuba-circuit", car: 10 }), [b1, a1]);
  assert.deepEqual(await ids({ limit: 10, driver: "alice" }), [a3, a2, a1]);
  assert.deepEqual(await ids({ limit: 2, driver: "alice", before: a3 }), [a2, a1]);
  assert.deepEqual(await ids({ limit: 1 }), [a3]);
  const http = await hub.call("GET", "/api/laps?circuit=tsukuba-circuit&limit=0", { token: bob });
  assert.equal(http.status, 400);
  assert.deepEqual((http.body.errors as { path: string }[]).map((e) => e.path), ["limit"]);
});

/** A small bundle of the cells of `base` that `keep` picks, all voted by `source` alone. */
function votesOf(
  base: Record<string, unknown>,
  keep: boolean[],
  source: string,
): Record<string, unknown> {
  const doc = structuredClone(base) as {
    meta: { source_runs: Record<string, number>; runs: number };
    edges: { votes: Record<string, Record<string, unknown>> }[];
  };
  doc.edges = doc.edges.filter((_, i) => keep[i]);
  for (const edge of doc.edges) {
    for (const kind of Object.keys(edge.votes)) {
      edge.votes[kind] = { [source]: edge.votes[kind].abcdef };
    }
  }
  doc.meta.source_runs = { [source]: doc.meta.runs };
  return doc;
}

function withoutTime(text: string): unknown {
  const doc = JSON.parse(text);
  delete doc.meta.updated_at;
  return doc;
}

Deno.test("bundle votes merge to the same bundle in any order; the same votes twice change nothing", async () => {
  const port = await db();
  const bytes = (doc: unknown) => new TextEncoder().encode(JSON.stringify(doc));
  const merged = async (docs: Record<string, unknown>[], order: readonly number[]) => {
    await emptyHub(port);
    for (const i of order) {
      await mergeVotes(port, "ring", bytes(docs[i]), `2026-11-28T12:0${i}:00Z`);
    }
    const [row] = await port.query<{ doc: string }>("select doc from hub_bundles");
    return withoutTime(row.doc);
  };
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 1000 }),
      fc.array(fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), {
        minLength: 3,
        maxLength: 3,
      }),
      fc.constantFrom([0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]),
      async (seed, masks, order) => {
        const base = syntheticBundle({
          cells: 12,
          sources: ["abcdef"],
          runs: 3,
          seed,
          track: "Ring",
        });
        const docs = masks.map((keep, i) => votesOf(base, keep, `${i}${i}${i}aaa`));
        assert.deepEqual(await merged(docs, order), await merged(docs, [0, 1, 2]));
      },
    ),
    { numRuns: 6 },
  );
  await emptyHub(port);
  const doc = votesOf(
    syntheticBundle({ cells: 12, sources: ["abcdef"], runs: 3, seed: 7, track: "Ring" }),
    Array(12).fill(true),
    "000aaa",
  );
  const first = await mergeVotes(port, "ring", bytes(doc), "2026-11-28T12:00:00.000Z");
  const again = await mergeVotes(port, "ring", bytes(doc), "2026-11-28T13:00:00.000Z");
  assert.equal(first.changed, true);
  assert.deepEqual(again, { ...first, changed: false });
});

Deno.test("closing the test database", async () => {
  await shared?.close();
  shared = null;
});
