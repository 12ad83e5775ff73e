/**
 * The hub over HTTP on PGlite: who may do what (401, 403), refused bodies
 * (413, 400) writing nothing, a repeat push answering the same lap, a real
 * lap read back with its samples exactly as pushed, the leaderboard, and
 * bundle votes merged once.
 */
import { strict as assert } from "node:assert";
import { noFixtures } from "../../_fixtures.ts";
import { ADMIN_TOKEN, freshPglite, suzukaLapFile, testHub } from "../../_hub.ts";
import { minimalLapFile } from "../../_lap_files.ts";
import { MAX_IMPORT_BYTES } from "../../../src/server/body.ts";
import type { SqlPort } from "../../../src/storage/hub/sql_port.ts";

let shared: SqlPort | null = null;
async function db(): Promise<SqlPort> {
  return shared ??= await freshPglite();
}

async function lapCount(port: SqlPort): Promise<number> {
  const [row] = await port.query<{ n: number }>("select count(*)::int as n from hub_laps");
  return Number(row.n);
}

Deno.test("a request without a token, with an unknown one or a revoked one is 401", async () => {
  const hub = await testHub(await db());
  const alice = await hub.driver("alice");
  assert.equal((await hub.call("GET", "/api/health")).status, 200);
  assert.equal((await hub.call("GET", "/api/me")).status, 401);
  const unknown = await hub.call("GET", "/api/me", { token: "hub_nothing-of-this-hub-at-all" });
  assert.equal(unknown.status, 401);
  assert.equal(unknown.body.detail, "the bearer token is not a token of this hub");
  assert.deepEqual((await hub.call("GET", "/api/me", { token: alice })).body, {
    name: "alice",
    admin: false,
  });
  const revoked = await hub.call("DELETE", "/api/drivers/alice", { token: ADMIN_TOKEN });
  assert.equal(revoked.status, 200);
  const after = await hub.call("GET", "/api/laps", { token: alice });
  assert.equal(after.status, 401);
  assert.equal(after.body.detail, `the token of alice was revoked at ${revoked.body.revoked_at}`);
  assert.equal(after.headers.get("content-type"), "application/problem+json");
});

Deno.test("a driver may not add drivers, delete another's lap; the admin may not push", async () => {
  const port = await db();
  const hub = await testHub(port);
  const alice = await hub.driver("alice");
  const bob = await hub.driver("bob");
  const add = await hub.call("POST", "/api/drivers", { token: alice, body: { name: "carol" } });
  assert.equal(add.status, 403);
  assert.equal((await hub.call("GET", "/api/drivers", { token: alice })).status, 403);
  const pushed = await hub.call("POST", "/api/laps", { token: alice, body: minimalLapFile(60) });
  assert.equal(pushed.status, 201);
  const id = pushed.body.id;
  assert.equal((await hub.call("DELETE", `/api/laps/${id}`, { token: bob })).status, 403);
  assert.equal(await lapCount(port), 1);
  const byAdmin = await hub.call("POST", "/api/laps", {
    token: ADMIN_TOKEN,
    body: minimalLapFile(61),
  });
  assert.equal(byAdmin.status, 403);
  assert.equal(await lapCount(port), 1);
  assert.deepEqual((await hub.call("DELETE", `/api/laps/${id}`, { token: alice })).body, { id });
  assert.equal(await lapCount(port), 0);
  const dup = await hub.call("POST", "/api/drivers", { token: ADMIN_TOKEN, body: { name: "bob" } });
  assert.equal(dup.status, 409);
  const blank = await hub.call("POST", "/api/drivers", { token: ADMIN_TOKEN, body: { name: " " } });
  assert.equal(blank.status, 400);
  assert.deepEqual((blank.body.errors as { path: string }[]).map((e) => e.path), ["name"]);
});

Deno.test("a body over the limit is 413, bad JSON 400, a refused lap file 400: nothing written", async () => {
  const port = await db();
  const hub = await testHub(port);
  const alice = await hub.driver("alice");
  // Announced over the limit: refused before a byte is read.
  const big = await hub.http.request("http://hub/api/laps", {
    method: "POST",
    headers: { authorization: `Bearer ${alice}`, "content-length": String(MAX_IMPORT_BYTES + 1) },
    body: new ReadableStream({ start: (c) => c.close() }),
  });
  assert.equal(big.status, 413);
  // Streamed without a length, past the limit: refused while streaming.
  let sent = 0;
  const chunk = new Uint8Array(1 << 20).fill(32);
  const endless = await hub.http.request("http://hub/api/laps", {
    method: "POST",
    headers: { authorization: `Bearer ${alice}` },
    body: new ReadableStream({
      pull(c) {
        sent += chunk.byteLength;
        c.enqueue(chunk);
      },
    }),
  });
  assert.equal(endless.status, 413);
  assert.ok(sent <= MAX_IMPORT_BYTES + 2 * chunk.byteLength, `read ${sent} bytes`);
  const bad = await hub.call("POST", "/api/laps", { token: alice, body: "{not json" });
  assert.equal(bad.status, 400);
  const file = minimalLapFile(60);
  (file.lap.samples as Record<string, number[]>).speed[3] = Number.NaN;
  const refused = await hub.call("POST", "/api/laps", { token: alice, body: file });
  assert.equal(refused.status, 400);
  assert.equal(
    (refused.body.errors as { path: string }[])[0].path,
    "$.lap.samples.speed[3]",
  );
  assert.equal(await lapCount(port), 0);
});

Deno.test({
  name: "a real lap pushed twice is stored once; read back its samples are those pushed",
  ignore: noFixtures,
  async fn() {
    const port = await db();
    const hub = await testHub(port);
    const alice = await hub.driver("alice");
    const bob = await hub.driver("bob");
    const file = await suzukaLapFile();
    const first = await hub.call("POST", "/api/laps", { token: alice, body: file });
    assert.equal(first.status, 201);
    assert.deepEqual({ ...first.body, id: 0 }, {
      id: 0,
      driver: "alice",
      circuit: "suzuka-circuit",
      car_id: 3315,
      time_ms: 99036,
      finished_at: (file.lap as { finished_at: string }).finished_at,
      created: true,
    });
    const again = await hub.call("POST", "/api/laps", { token: alice, body: file });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, { ...first.body, created: false });
    assert.equal(await lapCount(port), 1);
    for (const path of [`/api/laps/${first.body.id}`, `/api/laps/${first.body.id}/export.json`]) {
      const back = await hub.call("GET", path, { token: bob });
      assert.equal(back.status, 200);
      const pushed = (file.lap as { samples: Record<string, number[]> }).samples;
      const read = (back.body.lap as { samples: Record<string, number[]> }).samples;
      assert.deepEqual(Object.keys(read), Object.keys(pushed));
      for (const column of Object.keys(pushed)) {
        const a = new Float64Array(pushed[column]);
        const b = new Float64Array(read[column]);
        assert.deepEqual(new Uint8Array(b.buffer), new Uint8Array(a.buffer), column);
      }
    }
    // Bob's copy of the lap, its time 16 ms slower (still complete), ranks behind alice's.
    const slower = structuredClone(file) as { lap: { time_ms: number } };
    slower.lap.time_ms = 99052;
    const bobs = await hub.call("POST", "/api/laps", { token: bob, body: slower });
    assert.equal(bobs.status, 201);
    const board = await hub.call("GET", "/api/leaderboard?circuit=suzuka-circuit&car=3315", {
      token: bob,
    });
    const rows = board.body.rows as Record<string, unknown>[];
    assert.deepEqual(rows.map((r) => [r.driver, r.best_ms, r.gap_ms, r.laps]), [
      ["alice", 99036, 0, 1],
      ["bob", 99052, 16, 1],
    ]);
    const theoretical = rows[0].theoretical_best_ms as number;
    assert.ok(
      theoretical !== null && theoretical <= 99036 && theoretical > 99000,
      `${theoretical}`,
    );
    const listed = await hub.call("GET", "/api/laps?driver=bob&circuit=suzuka-circuit", {
      token: alice,
    });
    assert.deepEqual((listed.body.laps as { id: number }[]).map((l) => l.id), [bobs.body.id]);
  },
});

Deno.test("the OpenAPI document names every route the hub serves", async () => {
  const hub = await testHub(await db());
  const doc = await hub.call("GET", "/openapi.json");
  assert.equal(doc.status, 200);
  const paths = Object.keys(doc.body.paths as Record<string, unknown>).sort();
  assert.deepEqual(paths, [
    "/api/analysis/compare",
    "/api/analysis/consistency",
    "/api/analysis/corners",
    "/api/analysis/sectors",
    "/api/bundles",
    "/api/bundles/{slug}",
    "/api/bundles/{slug}/compiled",
    "/api/bundles/{slug}/votes",
    "/api/drivers",
    "/api/drivers/{name}",
    "/api/health",
    "/api/laps",
    "/api/laps/{id}",
    "/api/laps/{id}/export.json",
    "/api/laps/{id}/notes",
    "/api/leaderboard",
    "/api/live",
    "/api/live/socket",
    "/api/live/{driver}",
    "/api/me",
    "/api/messages",
    "/chart_options.js",
    "/compare",
    "/compare.js",
    "/compare_fetch.js",
    "/compare_requests.js",
    "/compare_specs.js",
    "/compare_tables.js",
    "/cues.js",
    "/engineer.css",
    "/engineer.js",
    "/favicon.svg",
    "/hub_token.js",
    "/laps",
    "/laps.js",
    "/live",
    "/live.css",
    "/live/{driver}",
    "/live_drivers.js",
    "/live_sectors.js",
    "/openapi.json",
    "/pages.css",
    "/pages.js",
    "/shared_api.js",
    "/shared_charts.js",
    "/shared_map.js",
    "/team_laps.js",
    "/team_rows.js",
    "/vendor/uplot.iife.min.js",
    "/vendor/uplot.min.css",
  ]);
});

Deno.test("closing the test database", async () => {
  await shared?.close();
  shared = null;
});
