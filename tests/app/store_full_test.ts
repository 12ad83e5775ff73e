/**
 * A store that refuses writes (a full disk, through the fault-injecting
 * wrapper of tests/_refusing_kv.ts) loses no lap: the laps driven meanwhile
 * wait in line and in the spill, the status, the events and the link line
 * say how many, and once the store takes writes again they are stored in
 * order, exactly as a store that never refused would hold them.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { type App, createApp } from "../../src/app/create_app.ts";
import type { AppEvent } from "../../src/app/events.ts";
import { SyntheticDrive } from "../../src/core/synthetic/drive.ts";
import { listSessions } from "../../src/storage/sessions.ts";
import { fileSpill } from "../../src/storage/spill.ts";
import { createHttpApp } from "../../src/server/http.ts";
import { linkLine } from "../../src/tui/link_line.ts";
import { LiveModel } from "../../src/tui/live_model.ts";
import { DISK_FULL, refusingKv } from "../_refusing_kv.ts";
import { driveInto, referenceContents, storeContents } from "../_driven_store.ts";

const NOW = "2026-11-26T12:00:00.000Z";
const DRIVE = { seed: 3, laps: 4 };

/** Resolves with the first store event `pick` accepts. */
function storeEvent(app: App, pick: (e: AppEvent & { type: "store" }) => boolean) {
  const { promise, resolve } = Promise.withResolvers<AppEvent & { type: "store" }>();
  const off = app.bus.subscribe((e) => {
    if (e.type === "store" && pick(e)) {
      off();
      resolve(e);
    }
  });
  return promise;
}

Deno.test("laps driven while the store refuses writes are all stored, in order and whole, once it takes them, with no restart", async () => {
  const memory = await Deno.openKv(":memory:");
  const spillDir = await Deno.makeTempDir({ prefix: "spill-" });
  try {
    const reference = await referenceContents(NOW, [DRIVE]);
    assert.equal(reference.laps.length, DRIVE.laps);

    const store = refusingKv(memory);
    let free = 50 * 2 ** 20;
    const warnings: string[] = [];
    const app = await createApp({
      kv: store.kv,
      now: () => new Date(NOW),
      spill: fileSpill(join(spillDir, "laps")),
      disk: { where: "/fake-disk", freeBytes: () => free },
      lowSpaceBytes: 10 * 2 ** 20,
      log: { warn: (m) => warnings.push(m), error: (m) => warnings.push(`error: ${m}`) },
    });
    const transitions: string[] = [];
    const waiting: number[] = [];
    app.bus.subscribe((e) => {
      if (e.type !== "store") return;
      if (e.previous !== e.status.state) transitions.push(`${e.previous}->${e.status.state}`);
      waiting.push(e.status.laps_waiting);
    });
    const http = createHttpApp(app);

    // The disk fills once the first lap is stored: the three laps after it are driven on a full disk.
    await driveInto(app, DRIVE, (k) => {
      if (k === 1) {
        store.full = true;
        free = 0;
      }
    });
    assert.ok(store.refused >= 3, `writes refused: ${store.refused}`);
    assert.deepEqual((await storeContents(memory)).laps, reference.laps.slice(0, 1));
    assert.deepEqual(transitions, ["ok->full"]);
    assert.deepEqual(waiting, [1, 2, 3]);
    const status = await (await http.request("/api/status")).json();
    assert.deepEqual(
      {
        state: status.store.state,
        writable: status.store.writable,
        free_bytes: status.store.free_bytes,
        laps_waiting: status.store.laps_waiting,
        laps_dropped: status.store.laps_dropped,
        last_refusal: status.store.last_refusal,
      },
      {
        state: "full",
        writable: false,
        free_bytes: 0,
        laps_waiting: 3,
        laps_dropped: 0,
        last_refusal: DISK_FULL,
      },
    );
    assert.equal(status.store.spill, join(spillDir, "laps"));
    assert.equal([...Deno.readDirSync(join(spillDir, "laps"))].length, 3);
    const model = new LiveModel(app);
    assert.match(
      linkLine(model.snapshot().link, 200),
      /^store full: 3 laps not yet saved \(0\.0 MB free on \/fake-disk\) {2}/,
    );
    // No stack trace: the refusals are the store's health, told as such.
    assert.deepEqual(warnings.filter((w) => w.startsWith("error:")), []);

    // Room again: the back-off's next try stores every waiting lap, with no restart.
    const ok = storeEvent(app, (e) => e.status.laps_waiting === 0);
    store.full = false;
    free = 50 * 2 ** 20;
    const back = await ok;
    assert.equal(back.status.state, "ok");
    assert.deepEqual(transitions, ["ok->full", "full->ok"]);
    // One per lap kept; then the store writable again with 3 still waiting, one per lap stored.
    assert.deepEqual(waiting, [1, 2, 3, 3, 2, 1, 0]);
    assert.deepEqual(await storeContents(memory), reference);
    assert.throws(() => Deno.statSync(join(spillDir, "laps")), Deno.errors.NotFound);
    assert.equal(app.live.status().laps_recorded, DRIVE.laps);
    await app.shutdown();
  } finally {
    memory.close();
    await Deno.remove(spillDir, { recursive: true });
  }
});

Deno.test("laps left waiting at a stop stay in the spill and the next start stores them first", async () => {
  const memory = await Deno.openKv(":memory:");
  const spillDir = await Deno.makeTempDir({ prefix: "spill-" });
  try {
    const reference = await referenceContents(NOW, [DRIVE]);

    const store = refusingKv(memory);
    const errors: string[] = [];
    const log = { warn: () => {}, error: (m: string) => errors.push(m) };
    const spill = () => fileSpill(join(spillDir, "laps"));
    const first = await createApp({ kv: store.kv, now: () => new Date(NOW), spill: spill(), log });
    await driveInto(first, DRIVE, (k) => {
      if (k === 2) store.full = true;
    });
    assert.equal(first.storeHealth.status().laps_waiting, 2);
    await first.shutdown();
    assert.deepEqual(errors, [
      `2 laps not yet saved are kept in ${join(spillDir, "laps")}; ` +
      "the next start with room on the store's disk stores them",
    ]);

    store.full = false;
    const second = await createApp({ kv: memory, now: () => new Date(NOW), spill: spill(), log });
    assert.equal(second.storeHealth.status().laps_waiting, 0);
    assert.deepEqual((await storeContents(memory)).laps, reference.laps);
    assert.throws(() => Deno.statSync(join(spillDir, "laps")), Deno.errors.NotFound);
    await second.shutdown();
  } finally {
    memory.close();
    await Deno.remove(spillDir, { recursive: true });
  }
});

Deno.test("laps the spill could not keep are reported lost at a stop, never silently", async () => {
  const memory = await Deno.openKv(":memory:");
  try {
    const store = refusingKv(memory);
    const errors: string[] = [];
    const failing = {
      dir: "/full/spill",
      write(): number {
        throw new Error("No space left on device (os error 28)");
      },
      read(): never {
        throw new Error("nothing spilled");
      },
      remove() {},
      list: () => [],
    };
    const app = await createApp({
      kv: store.kv,
      now: () => new Date(NOW),
      spill: failing,
      log: { warn() {}, error: (m) => errors.push(m) },
    });
    await driveInto(app, DRIVE, (k) => {
      if (k === 1) store.full = true;
    });
    const status = app.storeHealth.status();
    assert.deepEqual([status.state, status.laps_waiting, status.spill_error], [
      "full",
      3,
      "No space left on device (os error 28)",
    ]);
    await app.shutdown();
    assert.deepEqual(errors, [
      "3 laps not yet saved are lost: the spill could not keep them " +
      "(No space left on device (os error 28))",
    ]);
  } finally {
    memory.close();
  }
});

Deno.test("laps of two sessions driven on a store full from the start go, once it has room, each into its own session", async () => {
  const memory = await Deno.openKv(":memory:");
  const refKv = await Deno.openKv(":memory:");
  const A = { seed: 3, laps: 2 };
  const B = { seed: 5, laps: 2 };
  const feed = async (app: App) => {
    for (const opts of [A, B]) {
      for (const frame of new SyntheticDrive(opts).frames()) app.live.ingest(frame);
      await app.live.flush();
    }
  };
  try {
    const refApp = await createApp({ kv: refKv, now: () => new Date(NOW) });
    await feed(refApp);
    await refApp.shutdown();
    const reference = await storeContents(refKv);
    assert.deepEqual(reference.sessions.map((s) => [s.id, s.lap_count]), [[2, 2], [1, 2]]);

    const store = refusingKv(memory);
    const app = await createApp({ kv: store.kv, now: () => new Date(NOW), spill: null });
    store.full = true;
    await feed(app);
    assert.equal(app.storeHealth.status().laps_waiting, 4);
    assert.deepEqual(await listSessions(memory), []);
    store.full = false;
    await app.live.retryWaiting();
    assert.equal(app.storeHealth.status().laps_waiting, 0);
    assert.deepEqual((await storeContents(memory)).laps, reference.laps);
    assert.deepEqual(
      (await listSessions(memory)).map((s) => [s.id, s.car_id, s.lap_count]),
      reference.sessions.map((s) => [s.id, s.car_id, s.lap_count]),
    );
    await app.shutdown();
  } finally {
    memory.close();
    refKv.close();
  }
});

Deno.test("a refused write with no lap waiting leaves the store full until its disk has room again", async () => {
  const memory = await Deno.openKv(":memory:");
  let free = 0;
  const store = refusingKv(memory);
  const app = await createApp({
    kv: store.kv,
    now: () => new Date(NOW),
    spill: null,
    disk: { where: "/data", freeBytes: () => free },
    lowSpaceBytes: 1,
    watchStore: { probeMs: 10 },
  });
  try {
    store.full = true;
    const full = storeEvent(app, (e) => e.status.state === "full");
    for (const f of new SyntheticDrive({ seed: 3, laps: 1 }).frames().take(30)) app.live.ingest(f);
    await app.live.withSession((s) => Promise.resolve({ ...s }));
    assert.equal((await full).status.laps_waiting, 0);
    const ok = storeEvent(app, (e) => e.status.state === "ok");
    store.full = false;
    free = 2 ** 30;
    const back = await ok;
    assert.deepEqual([back.previous, back.status.writable, back.status.last_refusal], [
      "full",
      true,
      null,
    ]);
  } finally {
    await app.shutdown();
    memory.close();
  }
});
