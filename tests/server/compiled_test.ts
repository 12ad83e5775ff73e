import { strict as assert } from "node:assert";
import { type App, createApp } from "../../src/app/create_app.ts";
import { createHttpApp } from "../../src/server/http.ts";
import { compiledTrackSchema } from "../../src/core/geometry/schema.ts";
import { borderCells, bundleOf, ovalCentre } from "../core/geometry/_cells.ts";

let tick = 0;
async function withHttp(
  fn: (get: (path: string, init?: RequestInit) => Promise<Response>, app: App) => Promise<void>,
): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv, now: () => new Date(Date.UTC(2026, 10, 21, 12, 0, tick++)) });
  const http = createHttpApp(app);
  try {
    await fn(
      (path, init) => Promise.resolve(http.fetch(new Request(`http://localhost${path}`, init))),
      app,
    );
  } finally {
    kv.close();
  }
}

const part = bundleOf(borderCells(ovalCentre(100, 100, 10), { keep: [{ from: 0, to: 300 }] }));
const rest = bundleOf(borderCells(ovalCentre(100, 100, 10), { keep: [{ from: 300, to: 700 }] }));

Deno.test("GET compiled and map.svg: 400 for a non-canonical slug, 404 for an unknown one", async () => {
  await withHttp(async (get) => {
    for (const path of ["compiled", "map.svg"]) {
      const bad = await get(`/api/track-bundles/Test_Circuit/${path}`);
      assert.equal(bad.status, 400);
      assert.equal(bad.headers.get("content-type"), "application/problem+json");
      assert.equal((await bad.json()).errors[0].path, "path.slug");
      const missing = await get(`/api/track-bundles/nowhere/${path}`);
      assert.equal(missing.status, 404);
      assert.equal((await missing.json()).status, 404);
    }
  });
});

Deno.test("GET compiled validates; importing more cells gives a new generation and a new document", async () => {
  await withHttp(async (get) => {
    const post = (doc: unknown) =>
      get("/api/track-bundles/import", { method: "POST", body: JSON.stringify(doc) });
    assert.equal((await post(part)).status, 200);
    const res = await get("/api/track-bundles/test-circuit/compiled");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type")!, /^application\/json/);
    const first = compiledTrackSchema.parse(await res.json());
    assert.equal(first.format, "sim-datalogger-track-compiled");
    assert.equal(first.slug, "test-circuit");
    assert.equal(first.coverage.L.closed, false);
    // Same generation: the same document.
    const again = await (await get("/api/track-bundles/test-circuit/compiled")).json();
    assert.deepEqual(again, first);
    const imported = await (await post(rest)).json();
    const second = compiledTrackSchema.parse(
      await (await get("/api/track-bundles/test-circuit/compiled")).json(),
    );
    assert.equal(second._bundle_identity[0], imported.generation);
    assert.ok(second._bundle_identity[0] > first._bundle_identity[0]);
    assert.notEqual(second.compiled_at, first.compiled_at);
    assert.equal(second.coverage.L.closed, true);
    assert.equal(second.coverage.R.pct, 100);
    const list = await (await get("/api/track-bundles")).json();
    assert.deepEqual(list[0].coverage, {
      left_pct: 100,
      right_pct: 100,
      road_pct: 100,
      closed: true,
      closed_left: true,
      closed_right: true,
    });
  });
});

Deno.test("GET map.svg answers SVG; GET the compiled schema answers JSON Schema", async () => {
  await withHttp(async (get) => {
    await get("/api/track-bundles/import", { method: "POST", body: JSON.stringify(part) });
    const map = await get("/api/track-bundles/test-circuit/map.svg");
    assert.equal(map.status, 200);
    assert.equal(map.headers.get("content-type"), "image/svg+xml; charset=utf-8");
    const svg = await map.text();
    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(svg, /<path id="road"/);
    const schema = await get("/api/schemas/track-compiled.v1.json");
    assert.equal(schema.status, 200);
    assert.equal(schema.headers.get("content-type"), "application/schema+json");
    const body = await schema.json();
    assert.equal(body.properties.format.const, "sim-datalogger-track-compiled");
    assert.ok(body.required.includes("coverage"));
  });
});
