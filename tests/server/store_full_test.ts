/**
 * What the faces say of a full store: a change over HTTP the full disk
 * refuses answers 507 with nothing written; `serve`'s console speaks once
 * per state change, in a sentence; the disk's free space going under the
 * warning line is announced as `low`.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import type { AppEvent } from "../../src/app/events.ts";
import type { StoreHealthStatus } from "../../src/app/store/store_health.ts";
import { createSession, getSession } from "../../src/storage/sessions.ts";
import { consoleLog } from "../../src/server/console_log.ts";
import { describeEvent } from "../../src/cli/console_output.ts";
import { createHttpApp, startHttp } from "../../src/server/http.ts";
import { appEventSchema } from "../../src/app/events.ts";
import { straight } from "../core/survey/_frames.ts";
import { SseReader } from "./_sse.ts";
import { problemOf } from "../../src/server/problem.ts";
import { DISK_FULL, refusingKv } from "../_refusing_kv.ts";
import { syntheticBundle } from "../_bundles.ts";

Deno.test("a change the full disk refuses answers 507 with the reason, and nothing is written", async () => {
  const memory = await Deno.openKv(":memory:");
  try {
    const store = refusingKv(memory);
    const app = await createApp({ kv: store.kv });
    const session = await createSession(memory, {
      kind: "live",
      started_at: "2026-11-26T12:00:00.000Z",
      car_id: 3315,
      car_name: "McLaren VGT",
    });
    store.full = true;
    const res = await createHttpApp(app).request(`/api/sessions/${session.id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Suzuka" }),
    });
    assert.equal(res.status, 507);
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    assert.deepEqual(await res.json(), {
      type: "https://sim-datalogger.dev/problems/insufficient-storage",
      title: "Insufficient storage",
      status: 507,
      detail: `the store's disk is full, so nothing was changed (${DISK_FULL}); ` +
        "free space on it and send this again",
    });
    assert.deepEqual(await getSession(memory, session.id), session);
    await app.shutdown();
  } finally {
    memory.close();
  }
});

Deno.test("a bundle import the full disk refuses answers 507, and once there is room the same body imports", async () => {
  const memory = await Deno.openKv(":memory:");
  try {
    const store = refusingKv(memory);
    const app = await createApp({ kv: store.kv });
    const http = createHttpApp(app);
    const body = JSON.stringify(
      syntheticBundle({ cells: 200, sources: ["a1b2c3"], runs: 2, seed: 4, track: "Ring" }),
    );
    store.full = true;
    const refused = await http.request("/api/track-bundles/import", { method: "POST", body });
    assert.equal(refused.status, 507);
    assert.match(
      (await refused.json()).detail,
      /^the store's disk is full, so nothing was changed/,
    );
    assert.deepEqual(await (await http.request("/api/track-bundles")).json(), []);
    store.full = false;
    const imported = await http.request("/api/track-bundles/import", { method: "POST", body });
    assert.equal(imported.status, 200);
    assert.equal((await (await http.request("/api/track-bundles")).json()).length, 1);
    await app.shutdown();
  } finally {
    memory.close();
  }
});

Deno.test("problemOf: a store's refusal is 507, any other thrown error still a bare 500", () => {
  assert.equal(problemOf(new TypeError(DISK_FULL)).status, 507);
  assert.equal(problemOf(new Error("No space left on device (os error 28)")).status, 507);
  assert.equal(problemOf(new TypeError("something else")).status, 500);
});

const HEALTH: StoreHealthStatus = {
  state: "full",
  writable: false,
  read_only_reason: null,
  disk: "/data",
  free_bytes: 0,
  low_space_bytes: 100 * 2 ** 20,
  laps_waiting: 3,
  laps_dropped: 0,
  surveys_waiting: 0,
  surveys_dropped: 0,
  spill: "/tmp/sim-datalogger-spill/ab12",
  spill_error: null,
  last_refusal: DISK_FULL,
};

Deno.test("serve's console says the store's state once per change, as a sentence", () => {
  const line = (previous: StoreHealthStatus["state"], status: StoreHealthStatus) =>
    describeEvent({
      type: "store",
      reason: previous === status.state ? "counts" : "state",
      previous,
      status,
    });
  assert.equal(
    line("ok", HEALTH),
    "store full: 3 laps not yet saved (0.0 MB free on /data); " +
      "they are kept in /tmp/sim-datalogger-spill/ab12 and stored once space is freed",
  );
  // A count changing within the state is not a new line.
  assert.equal(line("full", { ...HEALTH, laps_waiting: 4 }), null);
  assert.equal(
    line("full", { ...HEALTH, laps_waiting: 2, spill_error: "No space left on device" }),
    null,
  );
  assert.equal(
    line("full", {
      ...HEALTH,
      state: "low",
      writable: true,
      free_bytes: 50 * 2 ** 20,
      laps_waiting: 0,
      last_refusal: null,
    }),
    "store space low: 50.0 MB free on /data (warning under 100.0 MB)",
  );
  assert.equal(
    line("low", { ...HEALTH, state: "ok", free_bytes: 2 ** 30, laps_waiting: 0, laps_dropped: 2 }),
    "store writable: every lap is saved (1024.0 MB free on /data); 2 laps lost past the bounds",
  );
  assert.equal(
    line("ok", { ...HEALTH, spill_error: "No space left on device" }),
    "store full: 3 laps not yet saved (0.0 MB free on /data); " +
      "they are kept in memory only (the spill cannot be written)",
  );
});

Deno.test("free space going under the warning line is announced as low, and back over it as ok", async () => {
  const kv = await Deno.openKv(":memory:");
  let free = 200 * 2 ** 20;
  const app = await createApp({
    kv,
    disk: { where: "/data", freeBytes: () => free },
    watchStore: { probeMs: 10 },
  });
  try {
    assert.equal(app.storeHealth.status().state, "ok");
    assert.equal(app.storeHealth.status().low_space_bytes, 100 * 2 ** 20);
    const next = () => {
      const { promise, resolve } = Promise.withResolvers<AppEvent & { type: "store" }>();
      const off = app.bus.subscribe((e) => {
        if (e.type === "store") {
          off();
          resolve(e);
        }
      });
      return promise;
    };
    let event = next();
    free = 99 * 2 ** 20;
    assert.deepEqual([(await event).previous, (await event).status.state], ["ok", "low"]);
    event = next();
    free = 101 * 2 ** 20;
    assert.deepEqual([(await event).previous, (await event).status.state], ["low", "ok"]);
  } finally {
    await app.shutdown();
    kv.close();
  }
});

Deno.test("GET /api/events carries a store event when the store's state changes, of the documented shape", async () => {
  const memory = await Deno.openKv(":memory:");
  const store = refusingKv(memory);
  const app = await createApp({ kv: store.kv, disk: { where: "/data", freeBytes: () => 0 } });
  const server = startHttp(app, { hostname: "127.0.0.1", port: 0 });
  try {
    const sse = new SseReader(await fetch(`${server.url}/api/events`));
    store.full = true;
    // A change the store refuses: the live session's write, as a lap's would be.
    for (const f of straight(30, 12, () => "GTGT", { z0: 0, packet0: 1 })) app.live.ingest(f);
    await app.live.withSession((s) => Promise.resolve({ ...s }));
    const message = await sse.waitFor((m) => m.event === "store");
    const event = appEventSchema.parse(JSON.parse(message.data));
    assert.ok(event.type === "store");
    assert.deepEqual(
      [event.previous, event.status.state, event.status.writable, event.status.last_refusal],
      ["low", "full", false, DISK_FULL],
    );
    await sse.cancel();
  } finally {
    await server.close();
    await app.shutdown();
    memory.close();
  }
});

Deno.test("the console log writes a store's refusal as one sentence, any other error with its stack", () => {
  const lines: unknown[][] = [];
  const saved = console.error;
  console.error = (...args: unknown[]) => lines.push(args);
  try {
    consoleLog.error("compiled geometry not kept", new TypeError(DISK_FULL));
    const bug = new Error("a bug");
    consoleLog.error("lap hook failed", bug);
    assert.deepEqual(lines, [
      [`compiled geometry not kept: ${DISK_FULL}`],
      ["lap hook failed:", bug],
    ]);
  } finally {
    console.error = saved;
  }
});
