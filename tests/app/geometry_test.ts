import { strict as assert } from "node:assert";
import { type App, createApp } from "../../src/app/create_app.ts";
import { BadRequest, NotFound } from "../../src/core/errors.ts";
import { deleteCompiled, getCompiledHead } from "../../src/storage/compiled.ts";
import { getBundleHead } from "../../src/storage/bundles.ts";
import { syntheticFrames } from "../../src/core/synthetic/drive.ts";
import { borderCells, bundleOf, ovalCentre } from "../core/geometry/_cells.ts";

let tick = 0;
async function withApp(fn: (app: App) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({
    kv,
    now: () => new Date(Date.UTC(2026, 10, 21, 12, 0, tick++)),
  });
  try {
    await fn(app);
  } finally {
    kv.close();
  }
}

const half = borderCells(ovalCentre(100, 100, 10), { keep: [{ from: 0, to: 300 }] });
const whole = borderCells(ovalCentre(100, 100, 10));

Deno.test("compiledFor compiles the current generation once, then serves it from the cache", async () => {
  await withApp(async (app) => {
    await assert.rejects(app.geometry.compiled("Test Circuit"), BadRequest);
    await assert.rejects(app.geometry.compiled("test-circuit"), NotFound);
    await app.bundles.import(bundleOf(half));
    const head = (await getBundleHead(app.kv, "test-circuit"))!;
    const first = await app.geometry.compiled("test-circuit");
    assert.equal(first.coverage.L.closed, false);
    assert.deepEqual(first._bundle_identity, [head.generation, head.json_bytes]);
    assert.equal((await getCompiledHead(app.kv, "test-circuit"))!.generation, head.generation);
    // A second read is the same compile (same compiled_at), not a new one.
    assert.equal((await app.geometry.compiled("test-circuit")).compiled_at, first.compiled_at);
    // Importing the rest of the ring makes a new generation and a new, closed compile.
    await app.bundles.import(bundleOf(whole));
    const second = await app.geometry.compiled("test-circuit");
    assert.notEqual(second.compiled_at, first.compiled_at);
    assert.equal(second.coverage.L.closed, true);
    assert.equal(second.coverage.L.pct, 100);
    assert.ok(second._bundle_identity[0] > first._bundle_identity[0]);
  });
});

Deno.test("a deleted cache is rebuilt on the next read; the list carries coverage figures", async () => {
  await withApp(async (app) => {
    await app.bundles.import(bundleOf(whole));
    const before = await app.geometry.compiled("test-circuit");
    await deleteCompiled(app.kv, "test-circuit");
    assert.equal(await getCompiledHead(app.kv, "test-circuit"), null);
    // Another app over the same store has no memory cache: it must compile again.
    const other = await createApp({ kv: app.kv, now: () => new Date("2027-01-01T00:00:00Z") });
    const rebuilt = await other.geometry.compiled("test-circuit");
    assert.equal(rebuilt.compiled_at, "2027-01-01T00:00:00.000Z");
    assert.deepEqual({ ...rebuilt, compiled_at: "" }, { ...before, compiled_at: "" });
    const rows = await other.bundles.list();
    assert.deepEqual(rows.map((r) => r.coverage), [
      {
        left_pct: 100,
        right_pct: 100,
        road_pct: 100,
        closed: true,
        closed_left: true,
        closed_right: true,
      },
    ]);
    assert.match(await other.geometry.mapSvg("test-circuit"), /^<svg /);
  });
});

Deno.test("the list shows null coverage for a bundle without cells", async () => {
  await withApp(async (app) => {
    await app.bundles.import(bundleOf([], { track: "Empty" }));
    assert.deepEqual((await app.bundles.list()).map((r) => [r.slug, r.coverage]), [[
      "empty",
      null,
    ]]);
  });
});

Deno.test("watchBundles rebuilds on a bundle change, so reads find the compile ready", async () => {
  await withApp(async (app) => {
    const watch = app.geometry.watch();
    try {
      await app.bundles.import(bundleOf(half));
      await watch.idle();
      const head = (await getBundleHead(app.kv, "test-circuit"))!;
      const cached = (await getCompiledHead(app.kv, "test-circuit"))!;
      assert.equal(cached.generation, head.generation);
      assert.equal(cached.coverage.L.closed, false);
      await app.bundles.import(bundleOf(whole));
      await watch.idle();
      const next = (await getCompiledHead(app.kv, "test-circuit"))!;
      assert.ok(next.generation > cached.generation);
      assert.equal(next.coverage.L.closed, true);
      // A delete announced on the bus drops the cache.
      app.bus.emit({
        type: "bundle",
        slug: "test-circuit",
        track: "Test Circuit",
        reason: "delete",
      });
      await watch.idle();
      assert.equal(await getCompiledHead(app.kv, "test-circuit"), null);
    } finally {
      await watch.stop();
    }
  });
});

Deno.test("a partial survey's driven line follows the car, and the SVG map draws it", async () => {
  const frames = [...syntheticFrames({ seed: 7, laps: 1, mode: "survey" })];
  const part = frames.slice(0, Math.floor(frames.length * 0.4));
  await withApp(async (app) => {
    await assert.rejects(app.geometry.drivenLine("test-circuit"), NotFound);
    await app.survey.start({ track: "Half Seven" });
    for (const f of part) app.live.ingest(f);
    await app.survey.stop();
    const rows = await app.bundles.list();
    assert.deepEqual(
      rows.map((r) => [r.slug, r.coverage?.closed_left, r.coverage?.closed_right]),
      [["half-seven", false, false]],
    );
    const driven = await app.geometry.drivenLine("half-seven");
    const points = driven.flat();
    assert.ok(points.length > 100, `${points.length} points`);
    // Each point is where the car was when a record was laid: within a wheelbase of a frame.
    const xs = part.map((f) => f.posX);
    const zs = part.map((f) => f.posZ);
    let worst = 0;
    for (const [x, z] of points) {
      let best = Infinity;
      for (let i = 0; i < xs.length; i++) best = Math.min(best, Math.hypot(x - xs[i], z - zs[i]));
      worst = Math.max(worst, best);
    }
    assert.ok(worst < 2, `farthest driven point ${worst.toFixed(2)} m from the car's path`);
    const svg = await app.geometry.mapSvg("half-seven");
    assert.equal(svg.split(`<g id="driven"`).length - 1, 1);
    assert.equal(
      svg.split(`<g id="driven"`)[1].split("</g>")[0].split("<path ").length - 1,
      driven.length,
    );
  });
});
