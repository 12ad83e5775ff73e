import { strict as assert } from "node:assert";
import { type App } from "../../src/app/create_app.ts";
import { FORMAT } from "../core/bundle/arbitraries.ts";
import { straight } from "../core/survey/_frames.ts";
import { withServer as serve } from "./_server.ts";

const ME = "a1b2c3d4e5f6";
const FRIEND = "0f1e2d3c4b5a";

function bundle(track: string, source: string, xs: number[]) {
  return {
    format: FORMAT,
    version: 4,
    meta: { track, runs: 1, source_runs: { [source]: 1 }, updated_at: "", official: null },
    edges: xs.map((x) => ({ x, z: 0, side: "L", votes: { auto: { [source]: [1, 1] } } })),
    finish_crossings: [],
  };
}

function withServer(fn: (url: string, app: App) => Promise<void>): Promise<void> {
  return serve(fn, { now: new Date("2026-11-21T12:00:00.000Z") });
}

async function call(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/api${path}`, {
    method,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

const CORNERS = [
  { n: 7, name: "La Source", direction: "R", apex: { x: 10, z: 5 }, entry: { x: 30.0, z: 5.0 } },
  { name: "Eau Rouge", direction: "", apex: { x: 50, z: 60 }, note: "flat" },
];

Deno.test("corners and sections: 404 without a bundle, validated with JSON paths, renumbered, kept by surveys", async () => {
  await withServer(async (url, app) => {
    assert.equal((await call(url, "GET", "/track-bundles/spa/corners")).status, 404);
    assert.equal((await call(url, "PUT", "/track-bundles/spa/corners", CORNERS)).status, 404);
    assert.equal((await call(url, "GET", "/track-bundles/spa/sections")).status, 404);
    assert.equal((await call(url, "GET", "/track-bundles/Spa/corners")).status, 400);
    assert.equal(
      (await call(url, "POST", "/track-bundles/import", bundle("Spa", ME, [1, 2]))).status,
      200,
    );

    const put = await call(url, "PUT", "/track-bundles/spa/corners", { corners: CORNERS });
    assert.equal(put.status, 200);
    assert.deepEqual(put.json.corners, [
      {
        n: 1,
        name: "La Source",
        direction: "R",
        apex: { x: 10, z: 5 },
        entry: { x: 30, z: 5 },
        exit: null,
        note: "",
      },
      {
        n: 2,
        name: "Eau Rouge",
        direction: null,
        apex: { x: 50, z: 60 },
        entry: null,
        exit: null,
        note: "flat",
      },
    ]);
    assert.deepEqual(
      (await call(url, "GET", "/track-bundles/spa/corners")).json.corners,
      put.json.corners,
    );
    const exported = await call(url, "GET", "/track-bundles/spa");
    assert.deepEqual(exported.json.corners, put.json.corners);

    for (
      const [corner, path] of [
        [{ apex: { x: "1", z: 0 } }, "$.corners[0].apex.x"],
        [{ apex: { x: 1, z: 0 }, direction: "sideways" }, "$.corners[0].direction"],
        [{ apex: { x: 1, z: 0 }, name: "n".repeat(500) }, "$.corners[0].name"],
        [{ apex: null }, "$.corners[0].apex"],
      ] as const
    ) {
      const r = await call(url, "PUT", "/track-bundles/spa/corners", [corner]);
      assert.equal(r.status, 400);
      assert.equal(r.json.errors[0].path, path);
    }
    assert.equal(
      (await call(url, "PUT", "/track-bundles/spa/corners", { corners: "x" })).status,
      400,
    );
    // Refused edits wrote nothing.
    assert.equal((await call(url, "GET", "/track-bundles/spa/corners")).json.corners.length, 2);

    const sections = await call(url, "PUT", "/track-bundles/spa/sections", [
      { name: "S1", start: { x: 0, z: 0 }, end: { x: 100, z: 0 } },
    ]);
    assert.deepEqual(sections.json.sections, [
      { n: 1, name: "S1", start: { x: 0, z: 0 }, end: { x: 100, z: 0 } },
    ]);
    const badSection = await call(url, "PUT", "/track-bundles/spa/sections", [{
      start: { x: 0, z: 0 },
    }]);
    assert.equal(badSection.json.errors[0].path, "$.sections[0].end");

    // A survey save never alters authored data.
    await app.survey.start({ track: "Spa" });
    for (const f of straight(60, 12, () => "GTGT", { z0: 300 })) app.live.ingest(f);
    await app.survey.stop();
    const after = await call(url, "GET", "/track-bundles/spa");
    assert.equal(after.json.edges.length, 2 + 6);
    assert.deepEqual(after.json.corners, put.json.corners);
    assert.deepEqual(after.json.sections, sections.json.sections);
  });
});

Deno.test("rename merges into an existing slug; delete removes; both refused while a survey runs there", async () => {
  await withServer(async (url, app) => {
    assert.equal(
      (await call(url, "PATCH", "/track-bundles/lago-east", { track: "X" })).status,
      404,
    );
    assert.equal((await call(url, "DELETE", "/track-bundles/lago-east")).status, 404);
    await call(url, "POST", "/track-bundles/import", bundle("lago east", ME, [1, 2, 3]));
    await call(url, "POST", "/track-bundles/import", bundle("Lago - East End", FRIEND, [3, 4]));
    const blank = await call(url, "PATCH", "/track-bundles/lago-east", { track: " " });
    assert.equal(blank.status, 400);
    assert.equal(blank.json.errors[0].path, "$.track");

    await app.survey.start({ track: "Lago East" });
    assert.equal(
      (await call(url, "PATCH", "/track-bundles/lago-east", { track: "Y" })).status,
      409,
    );
    assert.equal((await call(url, "DELETE", "/track-bundles/lago-east")).status, 409);
    await app.survey.stop();

    const renamed = await call(url, "PATCH", "/track-bundles/lago-east", {
      track: "Lago - East End",
    });
    assert.equal(renamed.status, 200);
    assert.deepEqual(
      [
        renamed.json.slug,
        renamed.json.from,
        renamed.json.merged,
        renamed.json.edges,
        renamed.json.runs,
      ],
      ["lago-east-end", "lago-east", true, 4, 2],
    );
    assert.equal((await call(url, "GET", "/track-bundles/lago-east")).status, 404);
    const merged = await call(url, "GET", "/track-bundles/lago-east-end");
    assert.equal(merged.json.meta.track, "Lago - East End");
    assert.deepEqual(merged.json.meta.source_runs, { [FRIEND]: 1, [ME]: 1 });
    // Exports list cells in x order; x = 3 is the metre both sources surveyed.
    assert.deepEqual(merged.json.edges.map((e: { x: number }) => e.x), [1, 2, 3, 4]);
    assert.deepEqual(merged.json.edges[2].votes.auto, { [FRIEND]: [1, 1], [ME]: [1, 1] });

    // Same slug: only the spelling changes.
    const respelled = await call(url, "PATCH", "/track-bundles/lago-east-end", {
      track: "LAGO east end",
    });
    assert.deepEqual([respelled.json.slug, respelled.json.merged, respelled.json.track], [
      "lago-east-end",
      false,
      "LAGO east end",
    ]);

    const deleted = await call(url, "DELETE", "/track-bundles/lago-east-end");
    assert.deepEqual([deleted.status, deleted.json], [200, {
      status: "deleted",
      slug: "lago-east-end",
    }]);
    assert.equal((await call(url, "GET", "/track-bundles/lago-east-end")).status, 404);
    assert.equal((await call(url, "DELETE", "/track-bundles/lago-east-end")).status, 404);
    assert.deepEqual((await call(url, "GET", "/track-bundles")).json, []);
    // No chunks were left behind.
    const left: unknown[] = [];
    for await (const e of app.kv.list({ prefix: ["bundle_chunk"] })) left.push(e.key);
    assert.deepEqual(left, []);
  });
});
