/**
 * The logger side of the team hub (issue #38) against a fake hub on a real
 * port (tests/_fake_hub.ts), with the sender's back-off on a fake clock:
 * laps recorded while the hub is down arrive once it is up, a lost answer
 * stores nothing twice, a restart resumes the outbox, refusals park or
 * stop, imported laps go only when asked, bundles go and come.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { type App, createApp } from "../../src/app/create_app.ts";
import type { HubStatus } from "../../src/app/hub_link/hub_status.ts";
import { listOutbox, listParked } from "../../src/storage/hub_outbox.ts";
import { saveLap } from "../../src/storage/laps.ts";
import { NotFound } from "../../src/core/errors.ts";
import { type FakeHub, startFakeHub } from "../_fake_hub.ts";
import { type FakeTimers, fakeTimers } from "../_fake_timers.ts";
import { driveInto, storeContents } from "../_driven_store.ts";
import { lineSamples, testLap, testSession } from "../_stored_laps.ts";
import { minimalLapFile } from "../_lap_files.ts";
import { syntheticBundle } from "../_bundles.ts";

const NOW = "2026-11-28T12:00:00.000Z";

async function hubApp(kv: Deno.Kv, hub: FakeHub, clock: FakeTimers): Promise<App> {
  return await createApp({
    kv,
    now: () => new Date(NOW),
    hub: { settings: { url: hub.url, token: hub.token }, link: { timers: clock.timers } },
  });
}

/** Resolves once the hub status satisfies `ok` (checked now and at every change). */
function hubStatus(app: App, ok: (s: HubStatus) => boolean): Promise<HubStatus> {
  const link = app.hub!;
  const { promise, resolve } = Promise.withResolvers<HubStatus>();
  const check = () => {
    const s = link.status();
    if (!ok(s)) return;
    off();
    resolve(s);
  };
  const off = link.onChange(check);
  check();
  return promise;
}

/** A complete recorded lap `number`; laps of other numbers differ in content (their finish time). */
async function storedLap(kv: Deno.Kv, number: number) {
  const s = await testSession(kv, "Suzuka");
  const at = new Date(Date.parse(NOW) + number * 60_000).toISOString();
  return (await saveLap(kv, s.id, testLap(lineSamples(30), { number, finished_at: at }))).lap;
}

Deno.test("laps recorded while the hub is down wait, backing off with jitter, and arrive whole once it is up", async () => {
  const hub = startFakeHub();
  await hub.down();
  const clock = fakeTimers(0.5);
  using kv = await Deno.openKv(":memory:");
  const app = await hubApp(kv, hub, clock);
  try {
    await driveInto(app, { seed: 5, laps: 2 });
    const stored = await storeContents(kv);
    const complete = stored.laps.filter((l) => l.complete && !l.imported);
    assert.equal(complete.length, 2);
    let s = await hubStatus(app, (x) => x.state === "backoff" && x.waiting === 2);
    assert.match(s.last_error!, /^hub unreachable: /);
    // The first wait is the 2 s step scaled into its upper half by the jitter (0.5 -> 1.5 s).
    assert.deepEqual(clock.pending(), [1500]);
    clock.fire();
    await hubStatus(app, () => clock.pending().length === 1);
    assert.deepEqual(clock.pending(), [3000]);
    assert.equal(hub.laps.length, 0);

    hub.up();
    clock.fire();
    s = await hubStatus(app, (x) => x.sent === 2 && x.state === "idle");
    assert.deepEqual({ waiting: s.waiting, last_error: s.last_error }, {
      waiting: 0,
      last_error: null,
    });
    assert.deepEqual(await listOutbox(kv), []);
    assert.equal(hub.laps.length, 2);
    for (const [i, lap] of complete.entries()) {
      const exported = await app.laps.exportFile(lap.id);
      assert.deepEqual(hub.laps[i].file, JSON.parse(JSON.stringify(exported)));
    }
  } finally {
    await app.shutdown();
    await hub.close();
  }
});

Deno.test("recording never waits for the hub: laps are stored while a push hangs", async () => {
  const hub = startFakeHub();
  hub.mode = { kind: "hold" };
  const clock = fakeTimers();
  using kv = await Deno.openKv(":memory:");
  const app = await hubApp(kv, hub, clock);
  try {
    const first = hub.nextPost();
    await storedLap(kv, 1);
    void app.hub!.flush();
    await first;
    // The first push hangs at the hub; three more laps are stored meanwhile.
    for (let n = 2; n <= 4; n++) await storedLap(kv, n);
    assert.equal((await storeContents(kv)).laps.length, 4);
    assert.equal(hub.laps.length, 0);
    hub.mode = { kind: "up" };
    hub.release();
    await app.hub!.flush();
    const s = await hubStatus(app, (x) => x.sent === 4);
    assert.equal(s.waiting, 0);
    assert.deepEqual(hub.laps.map((l) => l.file.lap.number), [1, 2, 3, 4]);
  } finally {
    await app.shutdown();
    await hub.close();
  }
});

Deno.test("a lost answer (stored at the hub, the reply cut) is retried and stores nothing twice", async () => {
  const hub = startFakeHub();
  hub.mode = { kind: "cut" };
  const clock = fakeTimers();
  using kv = await Deno.openKv(":memory:");
  const app = await hubApp(kv, hub, clock);
  try {
    await storedLap(kv, 1);
    await app.hub!.flush();
    await hubStatus(app, (x) => x.state === "backoff");
    assert.equal(hub.laps.length, 1);
    assert.equal((await listOutbox(kv)).length, 1);
    hub.mode = { kind: "up" };
    clock.fire();
    const s = await hubStatus(app, (x) => x.sent === 1);
    assert.equal(s.waiting, 0);
    assert.equal(hub.lapPosts, 2);
    assert.equal(hub.laps.length, 1);
  } finally {
    await app.shutdown();
    await hub.close();
  }
});

Deno.test("a restart (the same store reopened) resumes the outbox", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hub-link-" });
  const hub = startFakeHub();
  await hub.down();
  try {
    const path = join(dir, "store.db");
    {
      using kv = await Deno.openKv(path);
      const app = await hubApp(kv, hub, fakeTimers());
      await storedLap(kv, 1);
      await storedLap(kv, 2);
      await app.hub!.flush();
      assert.equal(app.hub!.status().waiting, 2);
      await app.shutdown();
    }
    hub.up();
    using kv = await Deno.openKv(path);
    const app = await hubApp(kv, hub, fakeTimers());
    try {
      await hubStatus(app, (x) => x.sent === 2 && x.state === "idle");
      assert.deepEqual(hub.laps.map((l) => l.file.lap.number), [1, 2]);
      assert.deepEqual(await listOutbox(kv), []);
    } finally {
      await app.shutdown();
    }
  } finally {
    await hub.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a refused entry (413) is parked with the hub's reason and the next goes on; 401 stops the sender", async () => {
  const hub = startFakeHub();
  hub.mode = { kind: "refuse", status: 413, detail: "lap file is over 64 MiB" };
  const clock = fakeTimers();
  using kv = await Deno.openKv(":memory:");
  const app = await hubApp(kv, hub, clock);
  try {
    const a = await storedLap(kv, 1);
    await app.hub!.flush();
    let s = await hubStatus(app, (x) => x.parked === 1);
    assert.equal(s.last_error, `lap ${a.id} parked: 413: lap file is over 64 MiB`);
    assert.equal((await listParked(kv))[0].reason, "413: lap file is over 64 MiB");
    assert.deepEqual(clock.pending(), []);

    hub.mode = { kind: "up" };
    hub.token = "revoked";
    await storedLap(kv, 2);
    await app.hub!.flush();
    s = await hubStatus(app, (x) => x.state === "stopped");
    assert.match(s.last_error!, /^the hub refused the token \(401: unknown token\)/);
    assert.equal(s.waiting, 1);
    // Stopped: nothing scheduled, and a new lap is counted, not sent.
    await storedLap(kv, 3);
    await app.hub!.flush();
    assert.deepEqual(clock.pending(), []);
    assert.equal(app.hub!.status().waiting, 2);
    assert.equal(hub.laps.length, 0);
  } finally {
    await app.shutdown();
    await hub.close();
  }
});

Deno.test("imported laps go only when asked; an unknown id is named and nothing is queued", async () => {
  const hub = startFakeHub();
  const clock = fakeTimers();
  using kv = await Deno.openKv(":memory:");
  const app = await hubApp(kv, hub, clock);
  try {
    const imported = await app.laps.importFile(minimalLapFile(40, { track_name: "Suzuka" }));
    await app.hub!.flush();
    assert.deepEqual(await listOutbox(kv), []);
    await assert.rejects(
      () => app.hub!.pushLaps([imported.lap.id, 999, 1000]),
      (e) =>
        e instanceof NotFound &&
        e.message === "no stored lap has id 999, 1000: nothing was queued for the hub",
    );
    assert.deepEqual(await listOutbox(kv), []);
    const result = await app.hub!.pushLaps([imported.lap.id]);
    assert.deepEqual(result.queued, [imported.lap.id]);
    await hubStatus(app, (x) => x.sent === 1 && x.state === "idle");
    assert.equal(hub.laps[0].file.lap.track_name, "Suzuka");
  } finally {
    await app.shutdown();
    await hub.close();
  }
});

Deno.test("a bundle's votes are pushed on demand and after a survey save; the team bundle is pulled through the import", async () => {
  const hub = startFakeHub();
  const clock = fakeTimers();
  using kv = await Deno.openKv(":memory:");
  const app = await hubApp(kv, hub, clock);
  try {
    const mine = syntheticBundle({
      cells: 40,
      sources: ["aaaaaa"],
      runs: 2,
      seed: 1,
      track: "Test Ring",
    });
    const { slug } = await app.bundles.import(mine);
    await app.hub!.pushBundle(slug);
    await hubStatus(app, (x) => x.sent === 1 && x.state === "idle");
    assert.deepEqual(hub.votes.get(slug), [
      JSON.parse(JSON.stringify(await app.bundles.export(slug))),
    ]);
    app.bus.emit({ type: "bundle", slug, track: "Test Ring", reason: "survey" });
    await hubStatus(app, (x) => x.sent === 2 && x.state === "idle");
    assert.equal(hub.votes.get(slug)!.length, 2);

    const team = syntheticBundle({
      cells: 60,
      sources: ["bbbbbb"],
      runs: 3,
      seed: 2,
      track: "Test Ring",
    });
    hub.bundles.set(slug, team);
    const before = (await app.bundles.get(slug)).edges.length;
    const pulled = await app.hub!.pullBundle(slug);
    assert.equal(pulled.slug, slug);
    assert.equal(pulled.edges_before, before);
    assert.ok(pulled.edges >= 60);
    // The local bundle is the vote merge of both: importing the team's again adds nothing.
    assert.equal((await app.bundles.import(team)).added_edges, 0);

    hub.bundles.set(slug, { format: "sim-datalogger-track-bundle", version: 4 });
    const merged = await app.bundles.export(slug);
    await assert.rejects(() => app.hub!.pullBundle(slug));
    assert.deepEqual(await app.bundles.export(slug), merged);
    await assert.rejects(
      () => app.hub!.pullBundle("monza"),
      (e) => e instanceof NotFound && e.message === "the hub has no bundle monza",
    );
  } finally {
    await app.shutdown();
    await hub.close();
  }
});
