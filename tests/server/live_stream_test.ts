/**
 * GET /api/live: a bad rate is a 400 naming `hz`; a client that stops
 * reading is dropped as soon as it falls more than 5 s of console time
 * behind (counted in packet ids, never by the wall clock), while a client
 * at the same rate that reads gets every frame, in order; lap and session
 * events come between the frames.
 */
import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import type { LiveFrame } from "../../src/app/live/live_frame.ts";
import type { LiveFrameService } from "../../src/app/live/live_frames.ts";
import type { Frame } from "../../src/core/gt7/frame.ts";
import { syntheticFrames } from "../../src/core/synthetic/drive.ts";
import { LIVE_BACKLOG_S, LiveStreams } from "../../src/server/routes/live.ts";
import { withServer } from "./_server.ts";
import { SseReader } from "./_sse.ts";

Deno.test("GET /api/live refuses a bad hz or an unknown parameter with problem+json", async () => {
  await withServer(async (url) => {
    for (
      const [query, path] of [
        ["hz=0", "hz"],
        ["hz=61", "hz"],
        ["hz=1.5", "hz"],
        ["hz=ten", "hz"],
        ["hz=", "hz"],
        ["rate=10", "rate"],
        ["speak=2", "speak"],
        ["speak=yes", "speak"],
      ]
    ) {
      const res = await fetch(`${url}/api/live?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.headers.get("content-type"), "application/problem+json", query);
      const body = await res.json();
      assert.equal(body.errors[0].path, path, query);
      if (path === "hz") {
        assert.equal(body.errors[0].message, "must be a whole number from 1 to 60");
      }
    }
  });
});

Deno.test("speak=1 claims the voice: the newest stream speaks, and the voice goes back when it ends", async () => {
  await withServer(async (url) => {
    const speakerEvents = (r: SseReader) =>
      r.messages.filter((m) => m.event === "speaker").map((m) => JSON.parse(m.data).speaking);
    const a = new SseReader(await fetch(`${url}/api/live?hz=1&speak=1`));
    await a.waitFor((m) => m.event === "speaker");
    const quiet = new SseReader(await fetch(`${url}/api/live?hz=1`));
    const b = new SseReader(await fetch(`${url}/api/live?hz=1&speak=1`));
    await b.waitFor((m) => m.event === "speaker");
    await a.waitFor((m) => m.event === "speaker" && JSON.parse(m.data).speaking === false);
    await b.cancel();
    await a.waitFor((m) => m.event === "speaker" && speakerEvents(a).length === 3);
    assert.deepEqual(speakerEvents(a), [true, false, true]);
    assert.deepEqual(speakerEvents(b), [true]);
    // A stream that did not ask never hears of the voice.
    const probe = new SseReader(await fetch(`${url}/api/live?hz=1&speak=0`));
    await probe.cancel();
    assert.deepEqual(speakerEvents(quiet), []);
    await a.cancel();
    await quiet.cancel();
  });
});

/** The frames of the synthetic drive (seed 7, one lap). */
function driveFrames(): Frame[] {
  return [...syntheticFrames({ seed: 7, laps: 1 })];
}

for (const hz of [1, 10, 60]) {
  Deno.test(`at ${hz} Hz a client that stops reading is dropped once 5 s of console time behind`, async () => {
    const kv = await Deno.openKv(":memory:");
    const app = await createApp({ kv });
    const streams = new LiveStreams(app.frames, app.bus);
    const frames = driveFrames();
    // Every 60/hz-th packet: the thinning the stream promises, worked out from the packet ids.
    const sent: number[] = [];
    let bucket: number | null = null;
    try {
      const reader = new SseReader(new Response(streams.open(hz)));
      streams.open(hz); // never read
      assert.deepEqual(streams.stats(), { clients: 2, dropped: 0 });
      let droppedAt: number | null = null;
      let backlogAtDrop = -1;
      // 40 s of console time, read 1 s at a time by the reading client.
      for (let i = 0; i < 40 * 60; i++) {
        const f = frames[i];
        const b = Math.floor(f.packetId * hz / 60);
        if (b !== bucket) {
          bucket = b;
          sent.push(f.packetId);
        }
        app.live.ingest(f);
        if (droppedAt === null && streams.stats().dropped === 1) {
          droppedAt = f.packetId;
          // The frames the stalled client had waiting: every one sent before this one.
          backlogAtDrop = sent.at(-2)! - sent[0];
        }
        if (i % 60 === 59) {
          await reader.waitFor((m) => m.event === "frame" && pid(m.data) === sent.at(-1));
        }
      }
      assert.deepEqual(streams.stats(), { clients: 1, dropped: 1 });
      // Dropped on the first frame more than 300 packets (5 s) after the oldest it had not read,
      // never holding more than 5 s of frames.
      const limit = LIVE_BACKLOG_S * 60;
      assert.equal(droppedAt, sent.find((p) => p - sent[0] > limit));
      assert.ok(backlogAtDrop <= limit, `${backlogAtDrop} packets behind`);
      assert.ok(backlogAtDrop > limit - 60 / hz, `${backlogAtDrop} packets behind`);
      // The reading client got every frame, in order: hz per second of console time.
      const got = reader.messages.filter((m) => m.event === "frame").map((m) => pid(m.data));
      assert.deepEqual(got, sent);
      for (let s = 1; s < 39; s++) {
        const inSecond = got.filter((p) =>
          p - frames[0].packetId >= s * 60 && p - frames[0].packetId < (s + 1) * 60
        );
        assert.equal(inSecond.length, hz, `second ${s}`);
      }
      await reader.cancel();
    } finally {
      streams.closeAll();
      await app.shutdown();
      kv.close();
    }
  });
}

Deno.test("lap and session events come between the frames, in the order they happened", async () => {
  await withServer(async (url, app) => {
    const reader = new SseReader(await fetch(`${url}/api/live?hz=2`));
    const frames = driveFrames();
    for (let i = 0; i < frames.length; i++) {
      app.live.ingest(frames[i]);
      // Each second the client reads what was sent, and stored laps are announced.
      if (i % 60 === 59) {
        await app.live.flush();
        const p = frames[i].packetId;
        await reader.waitFor((m) => m.event === "frame" && pid(m.data) > p - 30);
      }
    }
    await app.live.flush();
    const last = app.frames.latest()!;
    await reader.waitFor((m) => m.event === "lap");
    await reader.waitFor((m) => m.event === "frame" && pid(m.data) >= last.packet_id - 30);
    const kinds = reader.messages.filter((m) => m.event !== "comment").map((m) => m.event);
    // The session is created and announced when lap 1 is stored, just before the lap.
    const lapAt = kinds.indexOf("lap");
    assert.equal(kinds[lapAt - 1], "session");
    assert.ok(kinds.slice(0, lapAt).includes("frame"));
    assert.ok(kinds.slice(lapAt + 1).includes("frame"), "frames go on after the lap");
    const lap = JSON.parse(reader.messages.find((m) => m.event === "lap")!.data);
    assert.equal(lap.lap.number, 1);
    // The frame after the lap event is on lap 2.
    const after = reader.messages.slice(reader.messages.findIndex((m) => m.event === "lap"))
      .find((m) => m.event === "frame")!;
    assert.equal((JSON.parse(after.data) as LiveFrame).lap, 2);
    await reader.cancel();
    await (app.frames as LiveFrameService).settled();
  });
});

function pid(data: string): number {
  return (JSON.parse(data) as LiveFrame).packet_id;
}
