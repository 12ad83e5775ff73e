import { strict as assert } from "node:assert";
import { type App, createApp } from "../../src/app/create_app.ts";
import type { AppEvent } from "../../src/app/events.ts";
import { BadRequest, ImportRejected, NotFound } from "../../src/core/errors.ts";
import { merge } from "../_merge_objects.ts";
import { serialiseBundle } from "../../src/core/bundle/serialise.ts";
import type { BundleV4 } from "../../src/core/bundle/types.ts";
import { upgradeImported } from "../../src/core/bundle/upgrade.ts";
import { validateBundle } from "../../src/core/bundle/validate.ts";
import { getBundleHead } from "../../src/storage/bundles.ts";
import { clone, FORMAT, FRIEND, legacyDoc, ME, v4Doc } from "../core/bundle/arbitraries.ts";
import { syntheticBundle } from "../_bundles.ts";

type Raw = Record<string, unknown>;
// Tests edit raw documents anywhere.
// deno-lint-ignore no-explicit-any
type Loose = any;

/** An app over a fresh in-memory store whose clock advances one second per call. */
async function withApp(fn: (app: App, events: AppEvent[]) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  let tick = 0;
  const app = await createApp({
    kv,
    now: () => new Date(Date.UTC(2026, 10, 21, 12, 0, tick++)),
  });
  tick = 0;
  const events: AppEvent[] = [];
  app.bus.subscribe((e) => events.push(e));
  try {
    await fn(app, events);
  } finally {
    kv.close();
  }
}

async function snapshot(kv: Deno.Kv): Promise<[Deno.KvKey, unknown, string][]> {
  const out: [Deno.KvKey, unknown, string][] = [];
  for await (const e of kv.list({ prefix: [] })) out.push([e.key, e.value, e.versionstamp]);
  return out;
}

/** The exported document with `updated_at` blanked, to compare everything else. */
async function content(app: App, slug: string): Promise<string> {
  const doc = await app.bundles.export(slug);
  doc.meta.updated_at = "";
  return serialiseBundle(doc);
}

function v1Doc(): Raw {
  return {
    format: FORMAT,
    version: 1,
    meta: { track: "Old Ring", runs: 3, updated_at: "2022-01-01T00:00:00" },
    edges: [
      { x: 0.2, z: 5, hx: 0, hz: 1, side: "R", kind: "straddle" },
      { x: 0.4, z: 5.1, hx: 0, hz: 1, side: "R", kind: "runoff" },
      { x: 1.2, z: 5, hx: 0, hz: 1, side: "R", kind: "auto" },
      { x: 2.2, z: 5, hx: 0, hz: 1, side: "L", kind: "wall" },
    ],
    finish_crossings: [{ x: 0, z: 5, hx: 0, hz: 1, lap: 1 }],
  };
}

Deno.test("a 6-cell v4 import adds 6; repeating it adds 0 and changes no votes or counters", async () => {
  await withApp(async (app, events) => {
    const raw = v4Doc(6, { source: FRIEND, run: 4 });
    const first = await app.bundles.import(raw);
    assert.deepEqual({ ...first, generation: 0 }, {
      slug: "test-ring",
      track: "Test Ring",
      generation: 0,
      edges_before: 0,
      edges: 6,
      added_edges: 6,
      runs: 4,
      source_runs: { [FRIEND]: 4 },
      updated_at: "2026-11-21T12:00:00.000Z",
      official: null,
      points: 6,
      elevation_points: 6,
      elevation_pct: 100,
      manual_points: 0,
      finish_crossings: 0,
      corners: 0,
      sections: 0,
      sources: 1,
      added_points: 6,
      corners_kept: false,
      sections_kept: false,
      official_kept: false,
    });
    const second = await app.bundles.import(raw);
    assert.equal(second.edges_before, 6);
    assert.equal(second.added_edges, 0);
    assert.equal(second.added_points, 0);
    assert.deepEqual(second.source_runs, { [FRIEND]: 4 });
    assert.equal(second.updated_at, "2026-11-21T12:00:01.000Z");
    assert.ok(second.generation > first.generation);
    const doc = await app.bundles.get("test-ring");
    for (const e of doc.edges) assert.deepEqual(e.votes, { auto: { [FRIEND]: [4, 4] } });
    assert.deepEqual(events, [
      { type: "bundle", slug: "test-ring", track: "Test Ring", reason: "import" },
      { type: "bundle", slug: "test-ring", track: "Test Ring", reason: "import" },
    ]);
  });
});

Deno.test("my [1,1] and a friend's imported [3,3] are both kept: total 4, runs 4", async () => {
  await withApp(async (app) => {
    await app.bundles.import(v4Doc(1, { source: ME, run: 1 }));
    const result = await app.bundles.import(v4Doc(1, { source: FRIEND, run: 3 }));
    assert.equal(result.runs, 4);
    assert.deepEqual(result.source_runs, { [ME]: 1, [FRIEND]: 3 });
    const doc = await app.bundles.get("test-ring");
    assert.deepEqual(doc.edges[0].votes, { auto: { [FRIEND]: [3, 3], [ME]: [1, 1] } });
  });
});

Deno.test("a v2 import is stored as v4 under a synthetic source, the same on re-import", async () => {
  await withApp(async (app) => {
    const first = await app.bundles.import(legacyDoc(4));
    assert.equal(first.slug, "old-ring");
    const doc = await app.bundles.get("old-ring");
    assert.equal(doc.version, 4);
    const sources = Object.keys(doc.meta.source_runs);
    assert.equal(sources.length, 1);
    assert.notEqual(sources[0], app.sourceId);
    assert.deepEqual(doc.edges[0].votes, { auto: { [sources[0]]: [2, 3] } });
    const again = await app.bundles.import(legacyDoc(4));
    assert.equal(again.sources, 1);
    assert.equal(again.added_edges, 0);
    assert.deepEqual(again.source_runs, first.source_runs);
  });
});

Deno.test("two 80-cell v2 files that differ only in the last cell vote as two sources", async () => {
  await withApp(async (app) => {
    await app.bundles.import(legacyDoc(80));
    const result = await app.bundles.import(legacyDoc(80, { lastX: 500 }));
    assert.equal(result.sources, 2);
    assert.equal(result.edges, 81);
    const doc = await app.bundles.get("old-ring");
    assert.equal(Object.keys(doc.edges[0].votes.auto!).length, 2);
  });
});

Deno.test("source_runs {} with votes at run 4 is stored as {src: 4}, runs 4", async () => {
  await withApp(async (app) => {
    const raw = v4Doc(2, { source: FRIEND, run: 4 }) as Loose;
    raw.meta.source_runs = {};
    raw.meta.runs = 0;
    const result = await app.bundles.import(raw);
    assert.deepEqual(result.source_runs, { [FRIEND]: 4 });
    assert.equal(result.runs, 4);
  });
});

Deno.test("re-importing the same file, in every version, changes nothing but updated_at", async () => {
  const files: [string, Raw][] = [
    ["v1", v1Doc()],
    ["v2", legacyDoc(5, { version: 2 })],
    ["v3", legacyDoc(5, { version: 3 })],
    ["v4", syntheticBundle({ cells: 300, sources: [ME, FRIEND], runs: 5, seed: 9 })],
  ];
  for (const [version, raw] of files) {
    await withApp(async (app) => {
      const first = await app.bundles.import(clone(raw));
      const before = await content(app, first.slug);
      const headBefore = (await getBundleHead(app.kv, first.slug))!;
      for (let i = 0; i < 2; i++) {
        const again = await app.bundles.import(clone(raw));
        assert.equal(again.added_edges, 0, version);
        assert.notEqual(again.updated_at, first.updated_at, version);
        assert.equal(await content(app, first.slug), before, version);
        const head = (await getBundleHead(app.kv, first.slug))!;
        assert.deepEqual(
          { ...head, generation: 0, chunks: null, updated_at: "" },
          { ...headBefore, generation: 0, chunks: null, updated_at: "" },
          version,
        );
      }
      // So does importing the bundle's own export.
      const exported = await app.bundles.export(first.slug);
      const again = await app.bundles.import(JSON.parse(JSON.stringify(exported)));
      assert.equal(again.added_edges, 0);
      assert.equal(await content(app, first.slug), before, version);
    });
  }
});

Deno.test("a v1 file upgrades: co-located kinds become votes of one cell at run 0", async () => {
  await withApp(async (app) => {
    const result = await app.bundles.import(v1Doc());
    assert.equal(result.edges, 3);
    const doc = await app.bundles.get("old-ring");
    const [source] = Object.keys(doc.meta.source_runs);
    assert.deepEqual(doc.edges[0].votes, {
      runoff: { [source]: [1, 0] },
      straddle: { [source]: [1, 0] },
    });
    assert.equal(doc.edges[0].kind, "runoff");
    assert.deepEqual(doc.meta.source_runs, { [source]: 3 });
  });
});

Deno.test("authored corners, sections and an official match stay when local ones exist", async () => {
  await withApp(async (app) => {
    const official = {
      track: "Lago Maggiore",
      layout: "East End",
      official_id: "lago-east",
      official_name: "Lago Maggiore - East End",
      turns: 8,
      length_m: 1800,
      reverse: false,
    };
    const local = v4Doc(3) as Loose;
    local.corners = [{ name: "Mine", direction: "L", apex: { x: 30, z: 5 } }];
    local.sections = [{ name: "S1", start: { x: 0, z: 0 }, end: { x: 1, z: 1 } }];
    local.meta.official = official;
    await app.bundles.import(local);

    const incoming = v4Doc(3, { source: FRIEND }) as Loose;
    incoming.corners = [{ name: "Theirs", apex: { x: 1, z: 1 } }, { apex: { x: 2, z: 2 } }];
    incoming.sections = [{ name: "T1", start: { x: 5, z: 5 }, end: { x: 6, z: 6 } }];
    incoming.meta.official = { ...official, official_id: "other" };
    const result = await app.bundles.import(incoming);
    assert.equal(result.corners_kept, true);
    assert.equal(result.sections_kept, true);
    assert.equal(result.official_kept, true);
    assert.equal(result.corners, 1);
    const doc = await app.bundles.get("test-ring");
    assert.deepEqual(doc.corners, [{
      n: 1,
      name: "Mine",
      direction: "L",
      apex: { x: 30, z: 5 },
      entry: null,
      exit: null,
      note: "",
    }]);
    assert.deepEqual(doc.sections.map((s) => s.name), ["S1"]);
    assert.equal(doc.meta.official?.official_id, "lago-east");
  });
});

Deno.test("into a bundle without corners, incoming corners apply and nothing is 'kept'", async () => {
  await withApp(async (app) => {
    await app.bundles.import(v4Doc(3));
    const incoming = v4Doc(3, { source: FRIEND }) as Loose;
    incoming.corners = [{ name: "T1", apex: { x: 1, z: 1 } }];
    const result = await app.bundles.import(incoming);
    assert.equal(result.corners_kept, false);
    assert.equal(result.official_kept, false);
    assert.deepEqual((await app.bundles.get("test-ring")).corners.map((c) => c.name), ["T1"]);
  });
});

Deno.test("a track override names and places the bundle; blank, long and control are refused", async () => {
  await withApp(async (app) => {
    const renamed = await app.bundles.import(v4Doc(2), { track: "  Lago Maggiore - East End " });
    assert.equal(renamed.slug, "lago-maggiore-east-end");
    assert.equal(renamed.track, "Lago Maggiore - East End");
    assert.equal((await app.bundles.get("lago-maggiore-east-end")).meta.track, renamed.track);
    await assert.rejects(app.bundles.get("test-ring"), NotFound);

    const before = await snapshot(app.kv);
    for (
      const [track, rule] of [
        [" \t ", "is blank: give 1 to 80 characters that are not all spaces"],
        ["N".repeat(81), "is too long: 81 characters, at most 80"],
        ["A\u0001B", "holds a control character, U+0001, at character 2: none is allowed"],
      ]
    ) {
      await assert.rejects(app.bundles.import(v4Doc(2), { track }), (err: Error) => {
        assert.ok(err instanceof BadRequest);
        assert.equal(err.message, `track ${rule}`);
        assert.deepEqual(err.issues, [{ path: "track", message: rule }]);
        return true;
      });
    }
    assert.deepEqual(await snapshot(app.kv), before);
  });
});

Deno.test("reads: canonical slugs only, 404 for unknown, list rows from the heads", async () => {
  await withApp(async (app) => {
    for (const bad of ["Test-Ring", "test ring", "-test", "test--ring", "", "a_b"]) {
      await assert.rejects(app.bundles.get(bad), (err: Error) => {
        assert.ok(err instanceof BadRequest, bad);
        assert.equal(err.message, "invalid bundle name");
        assert.equal((err as BadRequest).issues[0].path, "path.slug");
        return true;
      });
    }
    await assert.rejects(app.bundles.get("test-ring"), NotFound);
    await assert.rejects(app.bundles.export("test-ring"), NotFound);
    assert.deepEqual(await app.bundles.list(), []);

    await app.bundles.import(v4Doc(3, { source: FRIEND, run: 2 }));
    await app.bundles.import(legacyDoc(4));
    assert.deepEqual(await app.bundles.list(), [
      {
        slug: "old-ring",
        track: "Old Ring",
        edges: 4,
        runs: 3,
        sources: 1,
        updated_at: "2026-11-21T12:00:01.000Z",
        official: null,
        coverage: {
          left_pct: 0,
          right_pct: 0,
          road_pct: 0,
          closed: false,
          closed_left: false,
          closed_right: false,
        },
      },
      {
        slug: "test-ring",
        track: "Test Ring",
        edges: 3,
        runs: 2,
        sources: 1,
        updated_at: "2026-11-21T12:00:00.000Z",
        official: null,
        coverage: {
          left_pct: 0,
          right_pct: 0,
          road_pct: 0,
          closed: false,
          closed_left: false,
          closed_right: false,
        },
      },
    ]);
  });
});

Deno.test("an export is the canonical v4 document: stored kinds re-resolved, maps sorted", async () => {
  await withApp(async (app) => {
    const raw = v4Doc(1, { source: FRIEND, run: 2 }) as Loose;
    raw.edges[0].votes = { straddle: { [FRIEND]: [1, 2], [ME]: [1, 1] }, wall: { [ME]: [1, 1] } };
    raw.edges[0].kind = "auto";
    raw.meta.source_runs = { [FRIEND]: 2, [ME]: 1 };
    await app.bundles.import(raw);
    const doc = await app.bundles.export("test-ring");
    assert.equal(doc.edges[0].kind, "wall");
    assert.deepEqual(Object.keys(doc.edges[0].votes), ["wall", "straddle"]);
    assert.deepEqual(Object.keys(doc.edges[0].votes.straddle!), [ME, FRIEND]);
    assert.deepEqual(Object.keys(doc.meta.source_runs), [ME, FRIEND]);
    assert.deepEqual(Object.keys(doc), [
      "format",
      "version",
      "meta",
      "edges",
      "finish_crossings",
      "corners",
      "sections",
    ]);
  });
});

Deno.test("a merge past 50,000 edges is refused whole and leaves the store unchanged", async () => {
  await withApp(async (app) => {
    const base = { sources: [ME], runs: 3, track: "Big Ring" };
    await app.bundles.import(syntheticBundle({ ...base, cells: 30_000, seed: 1 }));
    const before = await snapshot(app.kv);
    await assert.rejects(
      app.bundles.import(syntheticBundle({ ...base, cells: 20_001, seed: 2, first: 30_000 })),
      (err: Error) => {
        assert.ok(err instanceof ImportRejected);
        assert.equal(err.issues[0].path, "$.edges");
        assert.match(err.issues[0].message, /would hold 50001 edges; the limit is 50000/);
        return true;
      },
    );
    assert.deepEqual(await snapshot(app.kv), before);
    // Exactly at the limit is fine.
    const full = await app.bundles.import(
      syntheticBundle({ ...base, cells: 20_000, seed: 2, first: 30_000 }),
    );
    assert.equal(full.edges, 50_000);
  });
});

Deno.test("ten concurrent imports of one circuit end as the sequential imports would", async () => {
  await withApp(async (app) => {
    const track = { track: "Test Ring" };
    const files: Raw[] = [
      v4Doc(4, { source: ME, run: 1 }),
      v4Doc(4, { source: ME, run: 1 }),
      v4Doc(6, { source: FRIEND, run: 2 }),
      v4Doc(6, { source: FRIEND, run: 3 }),
      syntheticBundle({ cells: 50, sources: [ME, FRIEND], runs: 4, seed: 1, ...track }),
      syntheticBundle({ cells: 50, sources: [ME, FRIEND], runs: 4, seed: 1, ...track }),
      syntheticBundle({ cells: 80, sources: ["0123456789"], runs: 2, seed: 2, ...track }),
      { ...legacyDoc(10, { version: 3 }), meta: { track: "Test Ring", runs: 3 } },
      { ...legacyDoc(10, { version: 3 }), meta: { track: "Test Ring", runs: 3 } },
      { ...v1Doc(), meta: { track: "test ring", runs: 1 } },
    ];
    const results = await Promise.all(files.map((f) => app.bundles.import(clone(f))));
    assert.ok(results.every((r) => r.slug === "test-ring"));

    const order = results.map((r, i) => [r.generation, i]).sort((a, b) => a[0] - b[0]);
    let expected: BundleV4 | null = null;
    for (const [, i] of order) {
      const incoming = upgradeImported(validateBundle(clone(files[i])));
      expected = merge(expected, incoming, { now: results[i].updated_at }).merged;
    }
    const stored = await app.bundles.export("test-ring");
    assert.equal(serialiseBundle(stored), serialiseBundle(expected!));
  });
});

Deno.test("with geometry watched, an import's rebuild ends before the next import merges, and onRebuilt hears it", async () => {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv, watchGeometry: true });
  const order: string[] = [];
  const stop = app.geometry.onRebuilt(() => order.push("rebuilt"));
  app.bus.subscribe((e) => {
    if (e.type === "bundle") order.push(`bundle ${e.reason}`);
  });
  try {
    const doc = syntheticBundle({ cells: 2_000, sources: [ME], runs: 3, seed: 5 });
    const first = app.bundles.import(clone(doc));
    await first;
    // The first import's rebuild is under way; the second import waits for it.
    const second = await app.bundles.import(clone(doc));
    await app.geometry.rebuilt();
    assert.deepEqual(order, ["bundle import", "rebuilt", "bundle import", "rebuilt"]);
    assert.equal((await app.geometry.compiled(second.slug))._bundle_identity[0], second.generation);
    stop();
    await app.bundles.import(clone(doc));
    await app.geometry.rebuilt();
    assert.equal(order.length, 5);
  } finally {
    await app.shutdown();
    kv.close();
  }
});
