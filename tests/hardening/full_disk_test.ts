/**
 * A full disk loses no lap, on a real small filesystem (a 3 MiB tmpfs the
 * test mounts, which needs root; elsewhere it is skipped, and
 * tests/app/store_full_test.ts shows the same through a refusing store).
 *
 * The store lives on the tmpfs and the spill on the ordinary disk. Once
 * the first lap is stored the tmpfs is filled to the last byte; the five
 * laps driven after it wait, and the status and the dashboard's link line
 * say so; once the filler is removed they are stored with no restart,
 * exactly as in a store that never filled. Filled again and restarted, the
 * store opens read-only and says which file, how much room it needs and
 * what to do; reads work and changes answer 503 with that reason.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { createApp } from "../../src/app/create_app.ts";
import type { AppEvent } from "../../src/app/events.ts";
import { createHttpApp } from "../../src/server/http.ts";
import { RecordWriter } from "../../src/capture/record_writer.ts";
import { closeStore, openStore, readOnlyReason, storePath } from "../../src/storage/kv.ts";
import { LiveModel } from "../../src/tui/live_model.ts";
import { linkLine } from "../../src/tui/link_line.ts";
import { tmpfsOrSkip } from "./_tmpfs.ts";
import { driveInto, referenceContents, storeContents } from "../_driven_store.ts";

const NOW = "2026-11-26T12:00:00.000Z";
const DRIVE = { seed: 3, laps: 6 };
/** The drive on the read-only store: two laps fit the 3 MiB disk once the filler is gone. */
const SHORT = { seed: 5, laps: 2 };

Deno.test("on a full 3 MiB filesystem every lap waits and is stored once space is freed; a restart while full opens read-only and says why", async () => {
  const fs = await tmpfsOrSkip(3 * 2 ** 20);
  if (fs === null) return;
  const spillBase = await Deno.makeTempDir({ prefix: "spill-" });
  try {
    const both = await referenceContents(NOW, [DRIVE, SHORT], true);
    const reference = {
      laps: both.laps.slice(0, DRIVE.laps),
      sessions: both.sessions.filter((s) => s.id === 1),
    };
    const shortLaps = both.laps.slice(DRIVE.laps);
    assert.equal(reference.laps.length, DRIVE.laps);

    const data = join(fs.dir, "data");
    const kv = await openStore(data);
    const app = await createApp({
      kv,
      now: () => new Date(NOW),
      storePath: storePath(kv),
      spillBase,
      watchStore: { probeMs: 50 },
    });
    const http = createHttpApp(app);
    const states: string[] = [];
    app.bus.subscribe((e) => {
      if (e.type === "store" && e.previous !== e.status.state) {
        states.push(`${e.previous}->${e.status.state}`);
      }
    });
    let filled = 0;
    await driveInto(app, DRIVE, (k) => {
      if (k === 1) filled = fs.fill();
    });
    assert.ok(filled > 0);

    const status = (await (await http.request("/api/status")).json()).store;
    assert.deepEqual(
      [status.state, status.writable, status.free_bytes, status.laps_waiting, status.laps_dropped],
      ["full", false, 0, 5, 0],
    );
    assert.match(status.last_refusal, /database or disk is full/);
    assert.equal(status.disk, data);
    assert.equal(
      [...Deno.readDirSync(status.spill)].filter((e) => e.name.endsWith(".v8")).length,
      5,
    );
    assert.equal(
      linkLine(new LiveModel(app).snapshot().link, 200).split("  ")[0],
      `store full: 5 laps not yet saved (0.0 MB free on ${data})`,
    );
    assert.deepEqual((await storeContents(kv, true)).laps, reference.laps.slice(0, 1));

    // Space freed, no restart: the next measurement sees room and the laps go in, in order.
    const stored = Promise.withResolvers<void>();
    app.bus.subscribe((e: AppEvent) => {
      if (e.type === "store" && e.status.laps_waiting === 0) stored.resolve();
    });
    await Deno.remove(join(fs.dir, "filler"));
    await stored.promise;
    assert.deepEqual(await storeContents(kv, true), reference);
    assert.throws(() => Deno.statSync(status.spill), Deno.errors.NotFound);
    assert.deepEqual(states.slice(0, 2), ["low->full", "full->low"]);

    // Full again, and restarted: SQLite cannot fold the log in, so the store opens read-only.
    fs.fill("filler2");
    await app.shutdown();
    const closed = closeStore(kv);
    assert.ok(closed.wal_bytes > 0, "the log could not be folded into a full disk");
    const again = await openStore(data, { readOnlyFallback: true });
    try {
      const reason = readOnlyReason(again);
      assert.ok(reason !== null, "opened read-only");
      assert.match(
        reason,
        new RegExp(
          `^the data store ${join(data, "sim-datalogger.db")} cannot be opened for writing ` +
            `\\(database or disk is full\\): its disk has 0 KiB free, and opening it needs about ` +
            `\\d+\\.\\d MB \\(32 KiB for the index of its write-ahead log and \\d+\\.\\d MB to fold ` +
            `that log into the database\\); free space on that disk, or copy the data directory ` +
            `to a disk with room and pass --data\\. Started read-only`,
        ),
      );
      const ro = await createApp({
        kv: again,
        now: () => new Date(NOW),
        storePath: storePath(again),
        spillBase,
      });
      // Its source id is read, never made up: exports keep naming this installation.
      assert.equal(ro.sourceId, app.sourceId);
      const roHttp = createHttpApp(ro);
      assert.deepEqual(await storeContents(again, true), reference);
      const sessions = await (await roHttp.request("/api/sessions")).json();
      assert.equal(sessions.length, 1);
      const refused = await roHttp.request(`/api/sessions/${reference.sessions[0].id}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Renamed" }),
      });
      assert.equal(refused.status, 503);
      const problem = await refused.json();
      assert.equal(problem.title, "Service unavailable");
      assert.ok(problem.detail.startsWith(`the store is open read-only: ${reason}`));
      const roStatus = (await (await roHttp.request("/api/status")).json()).store;
      assert.deepEqual([roStatus.state, roStatus.writable], ["read_only", false]);
      // Laps driven on the read-only store wait in the spill (on another disk) for a restart.
      await driveInto(ro, SHORT);
      assert.equal(ro.storeHealth.status().laps_waiting, SHORT.laps);
      await ro.shutdown();
    } finally {
      closeStore(again);
    }
    await Deno.remove(join(fs.dir, "filler2"));
    const roomy = await openStore(data);
    try {
      const app3 = await createApp({
        kv: roomy,
        now: () => new Date(NOW),
        storePath: storePath(roomy),
        spillBase,
      });
      const after = await storeContents(roomy, true);
      assert.deepEqual(after.sessions.map((s) => [s.id, s.lap_count]), [
        [1, DRIVE.laps],
        [2, SHORT.laps],
      ]);
      // The laps driven while read-only, in a session of their own, exactly as recorded.
      assert.deepEqual(after.laps.slice(DRIVE.laps), shortLaps);
      assert.equal(app3.storeHealth.status().laps_waiting, 0);
      await app3.shutdown();
    } finally {
      closeStore(roomy);
    }
  } finally {
    await fs.unmount();
    await Deno.remove(spillBase, { recursive: true });
  }
});

Deno.test("--record on a full disk stops writing the record file with a notice and takes every datagram after it without a throw", async () => {
  const fs = await tmpfsOrSkip(256 * 1024);
  if (fs === null) return;
  try {
    const notices: string[] = [];
    const path = join(fs.dir, "drive.gt7rec");
    const writer = new RecordWriter(
      { path, maxBytes: 64 * 2 ** 20, keep: 0 },
      0,
      (l) => notices.push(l),
    );
    const datagram = new Uint8Array(296).fill(7);
    for (let i = 0; i < 2000; i++) writer.write(i, datagram);
    writer.flush(2000);
    const status = writer.status();
    assert.match(status.error ?? "", /No space left on device/);
    assert.deepEqual(notices, [
      `record: the disk is full; stopped writing ${path} (laps are still recorded): ${status.error}`,
    ]);
    // Later datagrams are taken quietly: the receive loop never sees a throw.
    writer.write(3000, datagram);
    writer.close();
    assert.equal(notices.length, 1);
  } finally {
    await fs.unmount();
  }
});

Deno.test("a store folded into one file, its disk then filled, opens read-only without its log's index (immutable)", async () => {
  const fs = await tmpfsOrSkip(1 * 2 ** 20);
  if (fs === null) return;
  try {
    const data = join(fs.dir, "data");
    const kv = await openStore(data);
    await kv.set(["probe"], "kept");
    assert.equal(closeStore(kv).wal_bytes, 0);
    fs.fill();
    const refused = await openStore(data).then(() => null, (err) => err);
    assert.ok(refused instanceof Error);
    assert.match(
      refused.message,
      /cannot be opened for writing \(disk I\/O error\): its disk has 0 KiB free, and opening it needs about 32 KiB \(32 KiB for the index of its write-ahead log\)/,
    );
    const ro = await openStore(data, { readOnlyFallback: true });
    try {
      assert.ok(readOnlyReason(ro)?.includes("Started read-only"));
      assert.equal((await ro.get(["probe"])).value, "kept");
      await assert.rejects(() => ro.set(["probe"], "changed"), /read-only/);
    } finally {
      closeStore(ro);
    }
  } finally {
    await fs.unmount();
  }
});
