/**
 * A survey's save the store refuses (a full disk, through the refusing
 * store of tests/_refusing_kv.ts) is kept and written once there is room;
 * one still refused when the process stops is reported lost, not silent.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { StoreRefused } from "../../src/core/store_refusal.ts";
import { readBundle } from "../../src/storage/bundles.ts";
import { straight } from "../core/survey/_frames.ts";
import { refusingKv } from "../_refusing_kv.ts";

const clock = () => {
  let tick = 0;
  return () => new Date(Date.UTC(2026, 10, 26, 12, 0, tick++));
};

Deno.test("a survey stopped on a full disk answers 507, and its run is saved and counted once there is room", async () => {
  const memory = await Deno.openKv(":memory:");
  try {
    const store = refusingKv(memory);
    const app = await createApp({ kv: store.kv, now: clock() });
    await app.survey.start({ track: "Ring" });
    for (const f of straight(600, 12, () => "GTGT", { z0: 0, packet0: 1 })) app.live.ingest(f);
    store.full = true;
    const stop = await app.survey.stop().then(() => null, (err) => err);
    assert.ok(stop instanceof StoreRefused, String(stop));
    assert.equal(stop.status, 507);
    assert.equal(
      stop.message,
      "the store's disk is full: the survey's save of 60 cells on \"Ring\" waits and is written once space is freed",
    );
    assert.equal(app.survey.status().running, false);
    assert.equal(await readBundle(memory, "ring"), null);

    const saved = Promise.withResolvers<void>();
    app.bus.subscribe((e) => {
      if (e.type === "bundle" && e.reason === "survey") saved.resolve();
    });
    store.full = false;
    await saved.promise;
    const doc = (await readBundle(memory, "ring"))!.doc;
    assert.equal(doc.edges.length, 60);
    assert.equal(doc.meta.runs, 1);
    await app.shutdown();
  } finally {
    memory.close();
  }
});

Deno.test("a survey save still refused when the process stops is reported lost, with its cells", async () => {
  const memory = await Deno.openKv(":memory:");
  try {
    const store = refusingKv(memory);
    const errors: string[] = [];
    const app = await createApp({
      kv: store.kv,
      now: clock(),
      log: { warn() {}, error: (m) => errors.push(m) },
    });
    await app.survey.start({ track: "Ring" });
    for (const f of straight(600, 12, () => "GTGT", { z0: 0, packet0: 1 })) app.live.ingest(f);
    store.full = true;
    await app.shutdown();
    assert.deepEqual(errors, [
      'survey: a run of 60 cells on "Ring" could not be saved (the store\'s disk is full) and is lost with the process',
    ]);
  } finally {
    memory.close();
  }
});
