/**
 * `--share-live` (issue #40), the logger side, against a fake hub socket on
 * a real port (tests/_fake_live_hub.ts), with the send gate and the
 * back-off on a fake clock: at most 10 frames a second and the latest
 * wins, a stalled hub makes frames drop (not queue), the hub going and
 * coming back is found again, messages reach the frames and the notice
 * line and are not shown again after a restart, and recording never waits.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { type App, createApp } from "../../src/app/create_app.ts";
import { HubMessages, MESSAGE_SHOWN_MS } from "../../src/app/hub_link/hub_messages.ts";
import { LiveShare } from "../../src/app/hub_link/live_share.ts";
import type { HubTimers } from "../../src/app/hub_link/hub_sender.ts";
import { type LiveFrame, liveFrameSchema } from "../../src/app/live/live_frame.ts";
import type { LiveMessage } from "../../src/core/hub/live_message.ts";
import { SyntheticDrive } from "../../src/core/synthetic/drive.ts";
import { silentLog } from "../../src/app/log.ts";
import { TuiNotices } from "../../src/tui/notices.ts";
import { postHubMessages } from "../../src/tui/hub_message_notice.ts";
import { type FakeLiveHub, startFakeLiveHub, startStalledHub } from "../_fake_live_hub.ts";
import { driveInto, referenceContents, storeContents } from "../_driven_store.ts";

const NOW = "2026-11-28T12:00:00.000Z";
const GATE_MS = 100;

/** Timers held until the test fires one by its wait; the jitter reads 0.5. */
function clock() {
  let held: { ms: number; fn: () => void }[] = [];
  const added: (() => void)[] = [];
  const timers: HubTimers = {
    after(ms, fn) {
      const t = { ms, fn };
      held.push(t);
      for (const a of added.splice(0)) a();
      return () => {
        held = held.filter((x) => x !== t);
      };
    },
    random: () => 0.5,
  };
  return {
    timers,
    waits: () => held.map((t) => t.ms),
    /** Fires the oldest timer waiting `ms`; throws when none does. */
    fire(ms: number) {
      const i = held.findIndex((t) => t.ms === ms);
      if (i < 0) throw new Error(`no timer of ${ms} ms waits (${held.map((t) => t.ms)})`);
      const [t] = held.splice(i, 1);
      t.fn();
    },
    /** Resolves once a timer of `ms` waits. */
    async waitFor(ms: number) {
      while (!held.some((t) => t.ms === ms)) {
        await new Promise<void>((r) => added.push(r));
      }
    },
  };
}

/** A frame source the test drives by hand. */
function handFrames() {
  let fn: ((f: LiveFrame) => void) | null = null;
  return {
    source: {
      subscribe(_hz: number, f: (frame: LiveFrame) => void) {
        fn = f;
        return () => {
          fn = null;
        };
      },
    },
    emit(packetId: number, pad = "") {
      fn?.({ packet_id: packetId, pad } as unknown as LiveFrame);
    },
  };
}

async function sharing(url: string, c: ReturnType<typeof clock>, maxBufferedBytes?: number) {
  const kv = await Deno.openKv(":memory:");
  const frames = handFrames();
  const messages = new HubMessages({ kv, now: () => new Date(NOW) });
  const share = new LiveShare({ log: silentLog }, frames.source, messages, {
    url,
    token: "driver-token",
  }, { timers: c.timers, maxBufferedBytes });
  const connected = (up: boolean) => {
    const { promise, resolve } = Promise.withResolvers<void>();
    const check = () => share.status().connected === up && (off(), resolve());
    const off = share.onChange(check);
    check();
    return promise;
  };
  share.start();
  return {
    kv,
    frames,
    share,
    messages,
    connected,
    async [Symbol.asyncDispose]() {
      await share.close();
      kv.close();
    },
  };
}

const ids = (hub: FakeLiveHub) => hub.frames.map((f) => f.frame.packet_id);

Deno.test("frames go at most 10 a second of the clock, the latest of each tenth winning", async () => {
  const hub = startFakeLiveHub();
  const c = clock();
  try {
    await using s = await sharing(hub.url, c);
    await s.connected(true);
    await hub.until(() => hub.hellos.length === 1);
    assert.deepEqual(hub.hellos, [{ last_message_id: null }]);
    // 60 frames a second (a replay at 1x of 60 Hz): six between two openings of the gate.
    for (let i = 0; i < 60; i++) {
      s.frames.emit(i);
      if (i % 6 === 5) c.fire(GATE_MS);
    }
    await hub.until(() => hub.frames.length === 11);
    assert.deepEqual(ids(hub), [0, 5, 11, 17, 23, 29, 35, 41, 47, 53, 59]);
    assert.deepEqual(s.share.status(), { connected: true, frames_sent: 11, frames_dropped: 0 });
  } finally {
    await hub.close();
  }
});

Deno.test("a hub that stops reading makes frames drop, never queue: the socket's buffer stays bounded", async () => {
  const stalled = startStalledHub();
  const c = clock();
  const bound = 256 * 1024;
  await using s = await sharing(stalled.url, c, bound);
  try {
    await s.connected(true);
    const pad = "x".repeat(64 * 1024);
    const offer = async () => {
      s.frames.emit(i++, pad);
      c.fire(GATE_MS);
      // A turn of the event loop, so the socket's writes that can complete do.
      await new Promise((r) => setTimeout(r, 0));
    };
    let i = 0;
    // The kernel's buffers fill first (a few MB); then bufferedAmount passes the bound.
    while (s.share.status().frames_dropped === 0) {
      assert.ok(i < 2000, "frames never dropped");
      await offer();
    }
    const sent = s.share.status().frames_sent;
    for (let k = 0; k < 50; k++) await offer();
    assert.deepEqual(s.share.status(), { connected: true, frames_sent: sent, frames_dropped: 51 });
  } finally {
    // Gone before the link closes, so its close is not left waiting for an answer.
    stalled.close();
  }
});

Deno.test("the hub going away is tried again with a growing back-off, and frames resume once it is back", async () => {
  const hub = startFakeLiveHub();
  const c = clock();
  try {
    await using s = await sharing(hub.url, c);
    await s.connected(true);
    s.frames.emit(1);
    await hub.until(() => hub.frames.length === 1);
    await hub.down();
    await s.connected(false);
    c.fire(GATE_MS);
    s.frames.emit(2); // nowhere to go: dropped
    assert.deepEqual(c.waits().filter((ms) => ms !== GATE_MS), [750]);
    c.fire(750); // the hub is still down: refused, the next wait doubles
    await c.waitFor(1500);
    hub.up();
    c.fire(1500);
    await s.connected(true);
    await hub.until(() => hub.hellos.length === 2);
    c.fire(GATE_MS);
    s.frames.emit(3);
    await hub.until(() => hub.frames.length === 2);
    assert.deepEqual(ids(hub), [1, 3]);
    assert.deepEqual(s.share.status(), { connected: true, frames_sent: 2, frames_dropped: 1 });
  } finally {
    await hub.close();
  }
});

/** An app sharing live with `hub`, on `kv`, at the clock `now`. */
async function sharingApp(kv: Deno.Kv, hub: { url: string }, now: () => Date): Promise<App> {
  return await createApp({
    kv,
    now,
    hub: { settings: { url: hub.url, token: "driver-token", shareLive: true } },
  });
}

function nextMessage(app: App): Promise<LiveMessage> {
  const { promise, resolve } = Promise.withResolvers<LiveMessage>();
  const off = app.hub!.messages.onMessage((m) => (off(), resolve(m)));
  return promise;
}

Deno.test("a message from the hub is in the live frames for 30 s, on the notice line, and not shown again after a restart", async () => {
  const hub = startFakeLiveHub();
  let t = Date.parse(NOW);
  const now = () => new Date(t);
  using kv = await Deno.openKv(":memory:");
  try {
    const posted = hub.post("Box this lap, fuel for 12");
    let app = await sharingApp(kv, hub, now);
    const notices = new TuiNotices();
    const shown: { ms: number; fn: () => void }[] = [];
    const stop = postHubMessages(app.hub!.messages, notices, (ms, fn) => {
      shown.push({ ms, fn });
      return () => {};
    });
    assert.deepEqual(await nextMessage(app), posted);
    assert.equal(notices.standing, "✉ alice: Box this lap, fuel for 12");
    const drive = new SyntheticDrive({ seed: 5, laps: 1 }).frames();
    const ingest = (n: number) => {
      for (let i = 0; i < n; i++) app.live.ingest(drive.next().value!);
    };
    ingest(30);
    const frame = liveFrameSchema.parse(app.frames.latest());
    assert.deepEqual(frame.message, posted);
    t += MESSAGE_SHOWN_MS;
    ingest(1);
    assert.equal(app.frames.latest()!.message, null);
    assert.equal(shown[0].ms, MESSAGE_SHOWN_MS);
    shown[0].fn();
    assert.equal(notices.standing, null);
    stop();
    await app.shutdown();

    // A restart tells the hub the last id taken: the old message is not sent nor shown again.
    app = await sharingApp(kv, hub, now);
    await hub.until(() => hub.hellos.length === 2);
    assert.deepEqual(hub.hellos, [{ last_message_id: null }, { last_message_id: 1 }]);
    const next = nextMessage(app);
    const second = hub.post("Push now", "bob");
    assert.deepEqual(await next, second);
    assert.equal(await app.hub!.messages.take(posted), false);
    assert.deepEqual(app.hub!.messages.current(), second);
    await app.shutdown();
  } finally {
    await hub.close();
  }
});

Deno.test("recording never waits for the link: with a hub that stopped reading, every lap is stored whole", async () => {
  const drives = [{ seed: 5, laps: 2 }];
  const expected = await referenceContents(NOW, drives);
  const stalled = startStalledHub();
  using kv = await Deno.openKv(":memory:");
  const app = await sharingApp(kv, stalled, () => new Date(NOW));
  try {
    await stalled.accepted;
    await driveInto(app, drives[0]);
    stalled.close();
    assert.deepEqual(await storeContents(kv), expected);
    assert.ok(app.hub!.status().live!.frames_sent >= 1);
  } finally {
    await app.shutdown();
  }
});
