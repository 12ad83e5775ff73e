/**
 * A SIGKILL while laps wait for a full disk: after a restart with room the
 * spill's laps are stored, in order and whole, and nothing stored before
 * is harmed. When the spill could not be written either (it is on the
 * same full disk), the child said so while it ran (`spill_error` in the
 * status), and a restart holds exactly the laps stored before: the waiting
 * ones died with the process, as the status had warned. Needs root for the
 * tmpfs; skipped otherwise.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { createApp } from "../../src/app/create_app.ts";
import { openStore, storePath } from "../../src/storage/kv.ts";
import { CrashChild } from "./_crash_harness.ts";
import { tmpfsOrSkip } from "./_tmpfs.ts";
import { referenceContents, storeContents } from "../_driven_store.ts";

const CHILD = new URL("./_full_disk_child.ts", import.meta.url).pathname;
const NOW = "2026-11-26T12:00:00.000Z";
const DRIVE = { seed: 3, laps: 5 };
const FILL_AFTER = 2;

/** What a store with room holds after the drive. */
const reference = () => referenceContents(NOW, [DRIVE]);

/** Runs the child until it drove every lap, with `waiting` laps waiting, then kills it. */
async function killWhileWaiting(args: string[], waiting: number) {
  const child = new CrashChild(CHILD, args);
  const drove = await child.waitFor("drove", 0);
  const exit = await child.kill();
  assert.ok(drove !== null && exit.killed, `the child ended first:\n${exit.stderr}`);
  const counts = exit.lines.filter((l) => l.event === "waiting").map((l) => l.n);
  assert.equal(counts.at(-1), waiting, JSON.stringify(counts));
  return exit;
}

Deno.test("SIGKILL while laps wait for a full disk: a restart with room stores the spilled laps, and the laps before are intact", async () => {
  const fs = await tmpfsOrSkip(3 * 2 ** 20);
  if (fs === null) return;
  const spillBase = await Deno.makeTempDir({ prefix: "spill-" });
  try {
    const ref = await reference();
    assert.equal(ref.laps.length, DRIVE.laps);
    const data = join(fs.dir, "data");
    const filler = join(fs.dir, "filler");
    const exit = await killWhileWaiting(
      [data, spillBase, NOW, String(DRIVE.seed), String(DRIVE.laps), String(FILL_AFTER), filler],
      DRIVE.laps - FILL_AFTER,
    );
    assert.ok(!exit.lines.some((l) => l.event === "spill-failed"));

    await Deno.remove(filler);
    const kv = await openStore(data);
    try {
      // Before the restart's app: exactly the laps stored before the disk filled.
      assert.deepEqual((await storeContents(kv)).laps, ref.laps.slice(0, FILL_AFTER));
      const app = await createApp({
        kv,
        now: () => new Date(NOW),
        storePath: storePath(kv),
        spillBase,
      });
      assert.equal(app.storeHealth.status().laps_waiting, 0);
      assert.deepEqual(await storeContents(kv), ref);
      assert.deepEqual([...Deno.readDirSync(join(spillBase, "sim-datalogger-spill"))], []);
      await app.shutdown();
    } finally {
      kv.close();
    }
  } finally {
    await fs.unmount();
    await Deno.remove(spillBase, { recursive: true });
  }
});

Deno.test("SIGKILL while laps wait and the spill is on the same full disk: the status said so, and the laps before are intact", async () => {
  const fs = await tmpfsOrSkip(3 * 2 ** 20);
  if (fs === null) return;
  try {
    const ref = await reference();
    const data = join(fs.dir, "data");
    const filler = join(fs.dir, "filler");
    const exit = await killWhileWaiting(
      [
        data,
        join(fs.dir, "spill"),
        NOW,
        String(DRIVE.seed),
        String(DRIVE.laps),
        String(FILL_AFTER),
        filler,
      ],
      DRIVE.laps - FILL_AFTER,
    );
    // The child's status carried the spill's failure while the laps waited in memory only.
    assert.ok(exit.lines.some((l) => l.event === "spill-failed"), exit.stderr);

    await Deno.remove(filler);
    const kv = await openStore(data);
    try {
      const app = await createApp({
        kv,
        now: () => new Date(NOW),
        storePath: storePath(kv),
        spillBase: join(fs.dir, "spill"),
      });
      assert.equal(app.storeHealth.status().laps_waiting, 0);
      const held = await storeContents(kv);
      assert.deepEqual(held.laps, ref.laps.slice(0, FILL_AFTER));
      assert.deepEqual(held.sessions.map((s) => [s.id, s.lap_count]), [
        [ref.sessions[0].id, FILL_AFTER],
      ]);
      await app.shutdown();
    } finally {
      kv.close();
    }
  } finally {
    await fs.unmount();
  }
});
