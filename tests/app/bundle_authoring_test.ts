import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { parseCornersBody, parseSectionsBody } from "../../src/app/bundles/bundle_authoring.ts";
import type { AppEvent } from "../../src/app/events.ts";
import { NotFound } from "../../src/core/errors.ts";
import { getBundleHead } from "../../src/storage/bundles.ts";
import { FORMAT } from "../core/bundle/arbitraries.ts";

const ME = "a1b2c3d4e5f6";

function doc(track: string) {
  return {
    format: FORMAT,
    version: 4,
    meta: { track, runs: 1, source_runs: { [ME]: 1 }, updated_at: "", official: null },
    edges: [{ x: 1, z: 2, side: "R", votes: { straddle: { [ME]: [1, 1] } } }],
    finish_crossings: [],
  };
}

Deno.test("authoring edits announce themselves and change only what they name", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const app = await createApp({ kv, now: () => new Date("2026-11-21T12:00:00.000Z") });
    const events: AppEvent[] = [];
    app.bus.subscribe((e) => events.push(e));
    await app.bundles.import(doc("Ring"));
    const before = await getBundleHead(kv, "ring");
    const corners = await app.bundles.putCorners(
      "ring",
      parseCornersBody([{ apex: { x: 1, z: 2 } }, { apex: { x: 3, z: 4 } }]),
    );
    assert.deepEqual(corners.corners.map((c) => c.n), [1, 2]);
    const sections = await app.bundles.putSections("ring", parseSectionsBody({ sections: [] }));
    assert.deepEqual(sections.sections, []);
    assert.deepEqual((await app.bundles.sections("ring")).sections, []);
    const head = await getBundleHead(kv, "ring");
    assert.equal(head!.edges, before!.edges);
    assert.equal(head!.corners, 2);
    assert.ok(head!.generation > before!.generation);
    const renamed = await app.bundles.rename("ring", { track: "Big Ring" });
    assert.deepEqual([renamed.slug, renamed.merged, renamed.edges], ["big-ring", false, 1]);
    // The authored corners travel with the rename.
    assert.equal((await getBundleHead(kv, "big-ring"))!.corners, 2);
    await app.bundles.delete("big-ring");
    await assert.rejects(app.bundles.delete("big-ring"), NotFound);
    assert.deepEqual(
      events.filter((e) => e.type === "bundle").map((e) =>
        e.type === "bundle" && [e.slug, e.reason]
      ),
      [
        ["ring", "import"],
        ["ring", "authoring"],
        ["ring", "authoring"],
        ["big-ring", "rename"],
        ["ring", "delete"],
        ["big-ring", "delete"],
      ],
    );
  } finally {
    kv.close();
  }
});
