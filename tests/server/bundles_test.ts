import { strict as assert } from "node:assert";
import { Hono } from "hono";
import { type App, createApp } from "../../src/app/create_app.ts";
import { problemResponse } from "../../src/server/problem.ts";
import { bundleRoutes } from "../../src/server/routes/bundles.ts";
import { bundleJsonSchema } from "../../src/core/bundle/json_schema.ts";
import { serialiseBundle } from "../../src/core/bundle/serialise.ts";
import { lapFileJsonSchema } from "../../src/core/laps/lap_file.ts";
import { clone, FORMAT, FRIEND, legacyDoc, ME, v4Doc } from "../core/bundle/arbitraries.ts";
import { syntheticBundle } from "../_bundles.ts";
import { withServer as serve } from "./_server.ts";

type Raw = Record<string, unknown>;
// Rejection cases write ill-typed values anywhere in a document.
// deno-lint-ignore no-explicit-any
type Loose = any;

const NOW = new Date("2026-11-21T12:00:00.000Z");

function withServer(fn: (url: string, app: App) => Promise<void>): Promise<void> {
  return serve(fn, { now: NOW });
}

/** Every entry of the store: key, value and versionstamp. */
async function snapshot(kv: Deno.Kv): Promise<[Deno.KvKey, unknown, string][]> {
  const out: [Deno.KvKey, unknown, string][] = [];
  for await (const e of kv.list({ prefix: [] })) out.push([e.key, e.value, e.versionstamp]);
  return out;
}

function post(url: string, body: BodyInit, query = ""): Promise<Response> {
  return fetch(`${url}/api/track-bundles/import${query}`, { method: "POST", body });
}

function edit(mutate: (doc: Loose) => void, base: Raw = v4Doc(3)): string {
  const doc = clone(base);
  mutate(doc);
  return JSON.stringify(doc);
}

/** A rejection case: a body and the JSON path its first error names (null: a bad-JSON 400). */
type Case = [name: string, body: string, path: string | null];

const V4_CASES: Case[] = [
  // REFERENCE.md section 6, tests/test_track_manager.py.
  ["wrong format", edit((d) => d.format = "gt7-datalogger-track-bundle"), "$.format"],
  ["version 99", edit((d) => d.version = 99), "$.version"],
  ["blank track", edit((d) => d.meta.track = "  "), "$.meta.track"],
  ['side "U"', edit((d) => d.edges[1].side = "U"), "$.edges[1].side"],
  [
    'kind "grass"',
    edit((d) => d.edges[0].votes = { grass: { [ME]: [1, 1] } }),
    "$.edges[0].votes.grass",
  ],
  [
    'source "not a source"',
    edit((d) => d.edges[2].votes.auto = { "not a source": [1, 1] }),
    "$.edges[2].votes.auto['not a source']",
  ],
  ["x = 1e12", edit((d) => d.edges[0].x = 1e12), "$.edges[0].x"],
  ["votes {}", edit((d) => d.edges[1].votes = {}), "$.edges[1].votes"],
  ['edges "lots"', edit((d) => d.edges = "lots"), "$.edges"],
  ["a NaN literal", edit((d) => d.edges[0].x = 7777).replace("7777", "NaN"), null],
  [
    "vote [1000000, 1]",
    edit((d) => d.edges[0].votes.auto[ME] = [1000000, 1]),
    `$.edges[0].votes.auto.${ME}`,
  ],
  ["vote [3, 2]", edit((d) => d.edges[0].votes.auto[ME] = [3, 2]), `$.edges[0].votes.auto.${ME}`],
  [
    "vote [1.5, 2]",
    edit((d) => d.edges[0].votes.auto[ME] = [1.5, 2]),
    `$.edges[0].votes.auto.${ME}`,
  ],
  ["source_runs -3", edit((d) => d.meta.source_runs[ME] = -3), `$.meta.source_runs.${ME}`],
  ["source_runs 2.5", edit((d) => d.meta.source_runs[ME] = 2.5), `$.meta.source_runs.${ME}`],
  // SPEC.md section 7 and the limits of section 8.
  ["version newer by one", edit((d) => d.version = 5), "$.version"],
  ["version as a string", edit((d) => d.version = "4"), "$.version"],
  ["version true", edit((d) => d.version = true), "$.version"],
  ["format missing", edit((d) => delete d.format), "$.format"],
  ["not an object", "[1, 2, 3]", "$"],
  ["meta missing", edit((d) => delete d.meta), "$.meta"],
  ["track missing", edit((d) => delete d.meta.track), "$.meta.track"],
  ["track of 81 characters", edit((d) => d.meta.track = "T".repeat(81)), "$.meta.track"],
  [
    "an overflowing number (1e999 = Infinity)",
    edit((d) => d.edges[0].z = 7777).replace("7777", "1e999"),
    "$.edges[0].z",
  ],
  ["an Infinity literal", edit((d) => d.edges[0].z = 7777).replace("7777", "Infinity"), null],
  ["y out of range", edit((d) => d.edges[0].y = 1e8), "$.edges[0].y"],
  ["hx past a unit", edit((d) => d.edges[0].hx = 1.5), "$.edges[0].hx"],
  ["tw of 11 m", edit((d) => d.edges[0].tw = 11), "$.edges[0].tw"],
  ["x a string", edit((d) => d.edges[0].x = "3"), "$.edges[0].x"],
  ["x missing", edit((d) => delete d.edges[0].x), "$.edges[0].x"],
  ["an edge with no votes", edit((d) => delete d.edges[0].votes), "$.edges[0].votes"],
  ["a kind with no sources", edit((d) => d.edges[0].votes.auto = {}), "$.edges[0].votes.auto"],
  [
    "a vote of three numbers",
    edit((d) => d.edges[0].votes.auto[ME] = [1, 1, 1]),
    `$.edges[0].votes.auto.${ME}`,
  ],
  [
    "a vote count of 0",
    edit((d) => d.edges[0].votes.auto[ME] = [0, 1]),
    `$.edges[0].votes.auto.${ME}`,
  ],
  [
    "a negative last_run",
    edit((d) => d.edges[0].votes.auto[ME] = [1, -1]),
    `$.edges[0].votes.auto.${ME}`,
  ],
  [
    "last_run over 1,000,000",
    edit((d) => d.edges[0].votes.auto[ME] = [1, 1_000_001]),
    `$.edges[0].votes.auto.${ME}`,
  ],
  ["edge run over 1,000,000", edit((d) => d.edges[0].run = 1_000_001), "$.edges[0].run"],
  [
    "source_runs over 1,000,000",
    edit((d) => d.meta.source_runs[ME] = 1_000_001),
    `$.meta.source_runs.${ME}`,
  ],
  [
    "run counters summing past 1,000,000",
    edit((d) => d.meta.source_runs = { [ME]: 600_000, [FRIEND]: 600_000 }),
    "$.meta.source_runs",
  ],
  [
    "an upper-case source id",
    edit((d) => d.meta.source_runs = { ABCDEF: 1 }),
    "$.meta.source_runs.ABCDEF",
  ],
  [
    "a 5-character source id",
    edit((d) => d.edges[0].votes.auto = { abcde: [1, 1] }),
    "$.edges[0].votes.auto.abcde",
  ],
  ["source_runs missing", edit((d) => delete d.meta.source_runs), "$.meta.source_runs"],
  [
    "updated_at of 65 characters",
    edit((d) => d.meta.updated_at = "2".repeat(65)),
    "$.meta.updated_at",
  ],
  [
    "21 finish crossings",
    edit((d) => d.finish_crossings = Array(21).fill({ x: 1, z: 1 })),
    "$.finish_crossings",
  ],
  ["a crossing without z", edit((d) => d.finish_crossings = [{ x: 1 }]), "$.finish_crossings[0].z"],
  ["101 corners", edit((d) => d.corners = Array(101).fill({ apex: { x: 1, z: 1 } })), "$.corners"],
  [
    "a corner name of 61 characters",
    edit((d) => d.corners = [{ name: "c".repeat(61), apex: { x: 1, z: 1 } }]),
    "$.corners[0].name",
  ],
  [
    "a corner note of 241 characters",
    edit((d) => d.corners = [{ note: "n".repeat(241), apex: { x: 1, z: 1 } }]),
    "$.corners[0].note",
  ],
  [
    'a corner direction "sideways"',
    edit((d) => d.corners = [{ direction: "sideways", apex: { x: 1, z: 1 } }]),
    "$.corners[0].direction",
  ],
  ["a corner apex null", edit((d) => d.corners = [{ apex: null }]), "$.corners[0].apex"],
  [
    "a non-numeric apex.x",
    edit((d) => d.corners = [{ apex: { x: "a", z: 1 } }]),
    "$.corners[0].apex.x",
  ],
  [
    "41 sections",
    edit((d) => d.sections = Array(41).fill({ start: { x: 0, z: 0 }, end: { x: 1, z: 1 } })),
    "$.sections",
  ],
  [
    "a section without end",
    edit((d) => d.sections = [{ start: { x: 0, z: 0 } }]),
    "$.sections[0].end",
  ],
  ["official turns 1001", edit((d) => d.meta.official = { turns: 1001 }), "$.meta.official.turns"],
  [
    "official_name of 161 characters",
    edit((d) => d.meta.official = { official_name: "o".repeat(161) }),
    "$.meta.official.official_name",
  ],
  ["official a string", edit((d) => d.meta.official = "Lago"), "$.meta.official"],
];

const LEGACY_CASES: Case[] = [
  ['v1 kind "grass"', edit((d) => d.edges[0].kind = "grass", v1()), "$.edges[0].kind"],
  [
    "v1 x = -1e999 (-Infinity)",
    edit((d) => d.edges[0].x = 7777, v1()).replace("7777", "-1e999"),
    "$.edges[0].x",
  ],
  ["v2 votes {}", edit((d) => d.edges[0].votes = {}, legacyDoc(2)), "$.edges[0].votes"],
  [
    "v2 vote kind grass",
    edit((d) => d.edges[0].votes = { grass: [1, 1] }, legacyDoc(2)),
    "$.edges[0].votes.grass",
  ],
  [
    "v3 vote count 0",
    edit((d) => d.edges[0].votes = { auto: [0, 1] }, legacyDoc(2, { version: 3 })),
    "$.edges[0].votes.auto",
  ],
  ["v2 blank track", edit((d) => d.meta.track = "\t", legacyDoc(2)), "$.meta.track"],
  ["v2 runs -1", edit((d) => d.meta.runs = -1, legacyDoc(2)), "$.meta.runs"],
];

function v1(): Raw {
  return {
    format: FORMAT,
    version: 1,
    meta: { track: "Test Ring", runs: 1, updated_at: "" },
    edges: [{ x: 0, z: 0, hx: 1, hz: 0, side: "L", kind: "auto" }],
    finish_crossings: [],
  };
}

Deno.test("every rejection answers 400 with the failing path and leaves the store untouched", async () => {
  await withServer(async (url, app) => {
    const local = v4Doc(3) as Loose;
    local.corners = [{ name: "Mine", apex: { x: 1, z: 1 } }];
    assert.equal((await post(url, JSON.stringify(local))).status, 200);
    await post(url, JSON.stringify(legacyDoc(2)));
    const before = await snapshot(app.kv);
    const exported = await (await fetch(`${url}/api/track-bundles/test-ring`)).text();
    for (const [name, body, path] of [...V4_CASES, ...LEGACY_CASES]) {
      const res = await post(url, body);
      assert.equal(res.status, 400, name);
      assert.equal(res.headers.get("content-type"), "application/problem+json", name);
      const problem = await res.json();
      assert.equal(problem.status, 400, name);
      if (path === null) {
        assert.equal(problem.title, "Bad request", name);
        assert.match(problem.detail, /^body is not valid JSON: /, name);
      } else {
        assert.equal(problem.title, "Document rejected", name);
        assert.equal(problem.errors[0].path, path, `${name}: ${JSON.stringify(problem.errors)}`);
        assert.equal(typeof problem.errors[0].message, "string");
      }
      assert.deepEqual(await snapshot(app.kv), before, name);
    }
    assert.equal(await (await fetch(`${url}/api/track-bundles/test-ring`)).text(), exported);
  });
});

Deno.test("documents at the limits are refused whole: 50,001 edges, a merge past 50,000", async () => {
  await withServer(async (url, app) => {
    const base = { sources: [ME], runs: 2, track: "Test Ring" };
    await post(url, JSON.stringify(syntheticBundle({ ...base, cells: 40_000, seed: 1 })));
    const before = await snapshot(app.kv);
    const cases: Case[] = [
      [
        "50,001 edges",
        JSON.stringify(syntheticBundle({ ...base, cells: 50_001, seed: 2 })),
        "$.edges",
      ],
      [
        "a merge reaching 50,001 edges",
        JSON.stringify(syntheticBundle({ ...base, cells: 10_001, seed: 3, first: 40_000 })),
        "$.edges",
      ],
    ];
    for (const [name, body, path] of cases) {
      const res = await post(url, body);
      assert.equal(res.status, 400, name);
      const problem = await res.json();
      assert.equal(problem.errors[0].path, path, name);
      assert.match(problem.errors[0].message, /50000/, name);
      assert.deepEqual(await snapshot(app.kv), before, name);
    }
  });
});

Deno.test("import answers 200 with the report; list and GET serve the stored bundle", async () => {
  await withServer(async (url) => {
    const res = await post(url, JSON.stringify(v4Doc(6, { source: FRIEND, run: 4 })));
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.slug, "test-ring");
    assert.equal(body.edges_before, 0);
    assert.equal(body.edges, 6);
    assert.equal(body.added_edges, 6);
    assert.equal(body.corners_kept, false);
    assert.equal(body.updated_at, NOW.toISOString());

    const list = await (await fetch(`${url}/api/track-bundles`)).json();
    assert.deepEqual(list, [{
      slug: "test-ring",
      track: "Test Ring",
      edges: 6,
      runs: 4,
      sources: 1,
      updated_at: NOW.toISOString(),
      official: null,
      coverage: {
        left_pct: 100,
        right_pct: 0,
        road_pct: 0,
        closed: false,
        closed_left: false,
        closed_right: false,
      },
    }]);

    const got = await fetch(`${url}/api/track-bundles/test-ring`);
    assert.equal(got.status, 200);
    assert.match(got.headers.get("content-type")!, /^application\/json/);
    const doc = await got.json();
    assert.equal(doc.format, FORMAT);
    assert.equal(doc.version, 4);
    assert.equal(doc.edges.length, 6);
    assert.equal(JSON.stringify(doc), serialiseBundle(doc));

    // Re-importing the served document changes nothing but updated_at (the clock is fixed here).
    const again = await (await post(url, JSON.stringify(doc))).json();
    assert.equal(again.added_edges, 0);
    assert.equal(
      await (await fetch(`${url}/api/track-bundles/test-ring`)).text(),
      JSON.stringify(doc),
    );
  });
});

Deno.test("GET of a bundle: 400 for a non-canonical slug, 404 for an unknown one", async () => {
  await withServer(async (url) => {
    for (const bad of ["Test-Ring", "test%20ring", "-test", "test--ring", "a_b", "%C3%BC"]) {
      const res = await fetch(`${url}/api/track-bundles/${bad}`);
      assert.equal(res.status, 400, bad);
      const problem = await res.json();
      assert.equal(problem.detail, "invalid bundle name");
      assert.equal(problem.errors[0].path, "path.slug");
    }
    const res = await fetch(`${url}/api/track-bundles/nowhere`);
    assert.equal(res.status, 404);
    assert.equal((await res.json()).title, "Not found");
  });
});

Deno.test("?track= is held to the one name rule: blank, over 80 characters or a control character is 400, never cut", async () => {
  await withServer(async (url, app) => {
    const blank = "is blank: give 1 to 80 characters that are not all spaces";
    const control = (code: string, at: number) =>
      `holds a control character, U+${code}, at character ${at}: none is allowed`;
    const before = await snapshot(app.kv);
    const long = "Lago Maggiore ".repeat(36).slice(0, 500);
    for (
      const [track, rule] of [
        ["  ", blank],
        ["", blank],
        ["\t", blank],
        [long, "is too long: 500 characters, at most 80"],
        ["x".repeat(81), "is too long: 81 characters, at most 80"],
        ["A\u0001B", control("0001", 2)],
        ["Spa\x1b[2J", control("001B", 4)],
        ["a\nb", control("000A", 2)],
      ]
    ) {
      const res = await post(url, JSON.stringify(v4Doc(2)), `?track=${encodeURIComponent(track)}`);
      assert.equal(res.status, 400, JSON.stringify(track));
      assert.deepEqual(await res.json(), {
        type: "https://sim-datalogger.dev/problems/bad-request",
        title: "Bad request",
        status: 400,
        detail: `track ${rule}`,
        errors: [{ path: "track", message: rule }],
      });
      assert.deepEqual(await snapshot(app.kv), before, JSON.stringify(track));
    }
    const res = await post(url, JSON.stringify(v4Doc(2)), `?track=${encodeURIComponent(" Lago ")}`);
    assert.equal(res.status, 200);
    assert.equal((await res.json()).track, "Lago");
    const list = await fetch(`${url}/api/track-bundles`);
    assert.equal(list.status, 200);
    assert.deepEqual((await list.json()).map((b: { slug: string }) => b.slug), ["lago"]);
  });
});

Deno.test("an empty body is refused as an empty file, and nothing is stored", async () => {
  await withServer(async (url, app) => {
    const before = await snapshot(app.kv);
    const res = await post(url, "");
    assert.equal(res.status, 400);
    assert.equal(
      (await res.json()).detail,
      "request body is empty: the file is empty, or was not sent; send a track bundle (JSON)",
    );
    assert.deepEqual(await snapshot(app.kv), before);
  });
});

Deno.test("importing over existing corners keeps them and says so", async () => {
  await withServer(async (url) => {
    const local = v4Doc(3) as Loose;
    local.corners = [{ name: "Mine", apex: { x: 30, z: 5 }, entry: { x: 30.0, z: 5.0 } }];
    await post(url, JSON.stringify(local));
    const incoming = v4Doc(3, { source: FRIEND }) as Loose;
    incoming.corners = [{ name: "Theirs", apex: { x: 1, z: 1 } }];
    const body = await (await post(url, JSON.stringify(incoming))).json();
    assert.equal(body.corners_kept, true);
    assert.equal(body.corners, 1);
    const doc = await (await fetch(`${url}/api/track-bundles/test-ring`)).json();
    assert.deepEqual(doc.corners, [{
      n: 1,
      name: "Mine",
      direction: null,
      apex: { x: 30, z: 5 },
      entry: { x: 30, z: 5 },
      exit: null,
      note: "",
    }]);
  });
});

/** A bundle route with a small body limit, errors mapped as the server maps them. */
async function smallLimitApp(limit: number): Promise<{ http: Hono; app: App }> {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv, now: () => NOW });
  const http = new Hono();
  http.route("/", bundleRoutes(app, { maxImportBytes: limit }));
  http.onError((err) => problemResponse(err, app.log));
  return { http, app };
}

/** A stream of `total` bytes of JSON-ish text in chunks of `chunk`, counting what was pulled. */
function streamOf(
  total: number,
  chunk: number,
): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0;
  const block = new TextEncoder().encode(" ".repeat(chunk));
  return {
    body: new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= total) return controller.close();
        const part = block.subarray(0, Math.min(chunk, total - sent));
        sent += part.byteLength;
        controller.enqueue(part);
      },
    }),
    pulled: () => sent,
  };
}

Deno.test("a chunked body over the cap is refused with 413 while streaming", async () => {
  const { http, app } = await smallLimitApp(2048);
  try {
    const before = await snapshot(app.kv);
    const stream = streamOf(1_000_000, 512);
    const res = await http.request("/api/track-bundles/import", {
      method: "POST",
      body: stream.body,
    });
    assert.equal(res.status, 413);
    assert.equal((await res.json()).title, "Payload too large");
    assert.ok(stream.pulled() <= 2048 + 512 * 2, `read ${stream.pulled()} bytes past a 2048 cap`);
    // An announced length over the cap is refused before reading.
    const declared = await http.request("/api/track-bundles/import", {
      method: "POST",
      body: "x".repeat(4096),
      headers: { "content-length": "4096" },
    });
    assert.equal(declared.status, 413);
    // At the cap, the body is read and judged on its content.
    const doc = JSON.stringify(v4Doc(1));
    assert.ok(doc.length < 2048);
    const ok = await http.request("/api/track-bundles/import", { method: "POST", body: doc });
    assert.equal(ok.status, 200);
    assert.notDeepEqual(await snapshot(app.kv), before);
  } finally {
    app.kv.close();
  }
});

Deno.test("over real HTTP, a chunked body past 64 MiB is refused with 413", async () => {
  await withServer(async (url, app) => {
    const before = await snapshot(app.kv);
    const started = performance.now();
    const stream = streamOf(64 * 1024 * 1024 + 65_536, 65_536);
    const res = await fetch(`${url}/api/track-bundles/import`, {
      method: "POST",
      body: stream.body,
    });
    assert.equal(res.status, 413);
    assert.equal((await res.json()).status, 413);
    assert.ok(stream.pulled() > 64 * 1024 * 1024);
    assert.deepEqual(await snapshot(app.kv), before);
    const ms = performance.now() - started;
    assert.ok(ms < 30_000, `took ${Math.round(ms)} ms`);
  });
});

Deno.test("the schema endpoints serve exactly the generated schemas", async () => {
  await withServer(async (url) => {
    const bundle = await fetch(`${url}/api/schemas/track-bundle.v4.json`);
    assert.equal(bundle.status, 200);
    assert.equal(bundle.headers.get("content-type"), "application/schema+json");
    const schema: Loose = await bundle.json();
    assert.equal(schema.properties.format.const, FORMAT);
    assert.deepEqual(schema, bundleJsonSchema());
    const lap = await fetch(`${url}/api/schemas/lap.v2.json`);
    assert.equal(lap.status, 200);
    assert.deepEqual(await lap.json(), lapFileJsonSchema());
    assert.equal((await fetch(`${url}/api/schemas/nope.json`)).status, 404);
  });
});
