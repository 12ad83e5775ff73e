/**
 * A SIGKILL while a survey's save waits for a full disk: the save was
 * spilled (beside the laps' spill), so a restart with room stores the
 * survey run, counted once, its spill file removed, and the circuit
 * surveyed before the disk filled is untouched. The disk's refusals come
 * from the refusing store of tests/_refusing_kv.ts over a store on disk,
 * so the test runs (and is exact) on any machine.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { createApp } from "../../src/app/create_app.ts";
import { readBundle } from "../../src/storage/bundles.ts";
import { openStore, storePath } from "../../src/storage/kv.ts";
import { CrashChild } from "./_crash_harness.ts";

const CHILD = new URL("./_full_disk_survey_child.ts", import.meta.url).pathname;
const NOW = "2026-11-26T12:00:00.000Z";

Deno.test("SIGKILL while a survey save waits for a full disk: a restart with room stores the run, and what was stored before is intact", async () => {
  const base = await Deno.makeTempDir({ prefix: "full-survey-" });
  const data = join(base, "data");
  const spillBase = join(base, "spill");
  await Deno.mkdir(spillBase, { mode: 0o700 });
  try {
    const child = new CrashChild(CHILD, [data, spillBase, NOW]);
    const waiting = await child.waitFor("waiting", 1);
    const exit = await child.kill();
    assert.ok(waiting !== null && exit.killed, `the child ended first:\n${exit.stderr}`);
    assert.deepEqual(exit.lines.map((l) => [l.event, l.n]), [
      ["stored", 1],
      ["refused", 1],
      ["waiting", 1],
    ]);
    const spillRoot = join(spillBase, "sim-datalogger-spill");
    const [folder] = [...Deno.readDirSync(spillRoot)];
    assert.deepEqual(
      [...Deno.readDirSync(join(spillRoot, folder.name))].map((e) => e.name.replace(/-.*/, "")),
      ["survey"],
    );

    const kv = await openStore(data);
    try {
      // Before the restart's app: Alpha as stored, no Ring.
      const alpha = await readBundle(kv, "alpha");
      assert.ok(alpha !== null);
      assert.equal(alpha.doc.edges.length, 60);
      assert.equal(await readBundle(kv, "ring"), null);

      const app = await createApp({
        kv,
        now: () => new Date(NOW),
        storePath: storePath(kv),
        spillBase,
      });
      // The start stored the run before anything else was asked of it.
      const status = app.storeHealth.status();
      assert.deepEqual([status.surveys_waiting, status.surveys_dropped], [0, 0]);
      const ring = await readBundle(kv, "ring");
      assert.ok(ring !== null);
      assert.equal(ring.doc.edges.length, 60);
      assert.equal(ring.doc.meta.runs, 1);
      assert.equal(ring.doc.meta.track, "Ring");
      assert.deepEqual(await readBundle(kv, "alpha"), alpha);
      assert.deepEqual([...Deno.readDirSync(spillRoot)], []);
      await app.shutdown();
    } finally {
      kv.close();
    }
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
