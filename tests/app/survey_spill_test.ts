/**
 * A survey's save the store refuses (a full disk, through the refusing
 * store of tests/_refusing_kv.ts) lands in the spill, one file per run
 * holding its newest save; once the store takes it the run is stored and
 * the file removed. Left waiting at a stop, it is stored by the next start,
 * before any new work. Status counts the runs waiting.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { createApp } from "../../src/app/create_app.ts";
import { storeSentence } from "../../src/app/store/store_health.ts";
import { StoreRefused } from "../../src/core/store_refusal.ts";
import { readBundle } from "../../src/storage/bundles.ts";
import { fileSurveySpill } from "../../src/storage/survey_spill.ts";
import { straight } from "../core/survey/_frames.ts";
import { refusingKv } from "../_refusing_kv.ts";

const clock = () => {
  let tick = 0;
  return () => new Date(Date.UTC(2026, 10, 26, 12, 0, tick++));
};

/** The survey files in `dir` (none when the folder is gone). */
function surveyFiles(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.startsWith("survey-"));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
}

Deno.test("a refused survey save lands in the spill and is stored once there is room, its file removed", async () => {
  const memory = await Deno.openKv(":memory:");
  const base = await Deno.makeTempDir();
  const dir = join(base, "spill", "store");
  try {
    const store = refusingKv(memory);
    const app = await createApp({ kv: store.kv, now: clock(), surveySpill: fileSurveySpill(dir) });
    await app.survey.start({ track: "Ring" });
    for (const f of straight(600, 12, () => "GTGT", { z0: 0, packet0: 1 })) app.live.ingest(f);
    store.full = true;
    const stop = await app.survey.stop().then(() => null, (err) => err);
    assert.ok(stop instanceof StoreRefused, String(stop));
    assert.equal(stop.status, 507);

    const files = surveyFiles(dir);
    assert.equal(files.length, 1);
    const spilled = fileSurveySpill(dir).read(files[0].slice("survey-".length, -".v8".length));
    assert.equal(spilled.cells.length, 60);
    assert.equal(spilled.circuit.slug, "ring");
    assert.equal(spilled.countRun, true);
    assert.equal(spilled.reason, "stop");
    const waiting = app.storeHealth.status();
    assert.deepEqual([waiting.state, waiting.surveys_waiting, waiting.surveys_dropped], [
      "full",
      1,
      0,
    ]);
    assert.equal(
      storeSentence(waiting),
      "store full: 1 survey run not yet saved",
    );
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
    assert.deepEqual(surveyFiles(dir), []);
    const after = app.storeHealth.status();
    assert.deepEqual([after.state, after.surveys_waiting, after.surveys_dropped], ["ok", 0, 0]);
    await app.shutdown();
  } finally {
    memory.close();
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("a survey save still refused at a stop stays in the spill, and the next start stores it before new work", async () => {
  const memory = await Deno.openKv(":memory:");
  const base = await Deno.makeTempDir();
  const dir = join(base, "spill", "store");
  try {
    const store = refusingKv(memory);
    const errors: string[] = [];
    const log = { warn() {}, error: (m: string) => errors.push(m) };
    const first = await createApp({
      kv: store.kv,
      now: clock(),
      log,
      surveySpill: fileSurveySpill(dir),
    });
    await first.survey.start({ track: "Ring" });
    for (const f of straight(600, 12, () => "GTGT", { z0: 0, packet0: 1 })) first.live.ingest(f);
    store.full = true;
    // The process ends with the store still full: its stop's save is refused and spilled.
    await first.shutdown();
    assert.deepEqual(errors, [
      `survey: 1 runs not yet saved are kept in ${dir}; ` +
      "the next start with room on the store's disk stores them",
    ]);
    assert.equal(surveyFiles(dir).length, 1);
    assert.equal(await readBundle(memory, "ring"), null);

    store.full = false;
    const second = await createApp({ kv: memory, now: clock(), surveySpill: fileSurveySpill(dir) });
    // Stored by the start itself, nothing new asked for.
    const doc = (await readBundle(memory, "ring"))!.doc;
    assert.equal(doc.edges.length, 60);
    assert.equal(doc.meta.runs, 1);
    assert.deepEqual(surveyFiles(dir), []);
    assert.equal(second.storeHealth.status().surveys_waiting, 0);
    await second.shutdown();
  } finally {
    memory.close();
    await Deno.remove(base, { recursive: true });
  }
});
