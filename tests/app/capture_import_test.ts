import { strict as assert } from "node:assert";
import { type App, createApp } from "../../src/app/create_app.ts";
import type { AppEvent } from "../../src/app/events.ts";
import {
  type CaptureImportProgress,
  type CaptureImportResult,
} from "../../src/app/laps/capture_import.ts";
import { CaptureError, parseCapture } from "../../src/core/gt7/capture.ts";
import { type CaptureFile, openCaptureFile } from "../../src/core/gt7/capture_file.ts";
import { readCurrentLap, readPacketId } from "../../src/core/gt7/decode.ts";
import type { Lap } from "../../src/core/laps/lap.ts";
import { syntheticFrames } from "../../src/core/synthetic/drive.ts";
import { getLap, listLaps } from "../../src/storage/laps.ts";
import { getSession, listSessions, updateSession } from "../../src/storage/sessions.ts";
import { noFixtures, readFixture, readGzFixture } from "../_fixtures.ts";
import { buildRecordFile, mixWithGarbage } from "../_capture_files.ts";

const NOW = "2026-11-24T09:30:00.000Z";
const SUZUKA = "gt7/suzuka-full-lap.A.gt7.gz";

async function freshApp(): Promise<App> {
  return await createApp({ kv: await Deno.openKv(":memory:"), now: () => new Date(NOW) });
}

/** The only lap of session `id`, with its samples. */
async function onlyLap(app: App, session: number): Promise<Lap> {
  const laps = await listLaps(app.kv, session);
  assert.equal(laps.length, 1);
  return (await getLap(app.kv, laps[0].id))!;
}

/** Duplicates and missing packets of a packet-id sequence, as the recorder counts them. */
function idGaps(ids: readonly number[]): { duplicates: number; missing: number } {
  const gaps = ids.slice(1).map((id, i) => id - ids[i]);
  return {
    duplicates: gaps.filter((g) => g === 0).length,
    missing: gaps.reduce((n, g) => n + (g > 1 ? g - 1 : 0), 0),
  };
}

/** A lap without what differs between two recordings of the same packets. */
function sameDrive(lap: Lap): Omit<Lap, "id" | "session_id" | "finished_at"> {
  const { id: _i, session_id: _s, finished_at: _f, ...rest } = lap;
  return rest;
}

Deno.test({
  name: "the Suzuka capture imported: one lap of 99036 ms and 5942 samples in a new session",
  ignore: noFixtures,
  async fn() {
    const app = await freshApp();
    try {
      const progress: CaptureImportProgress[] = [];
      const events: AppEvent[] = [];
      app.bus.subscribe((e) => events.push(e));
      const file = openCaptureFile(readFixture(SUZUKA));
      const result = await app.laps.importCapture(file, {
        onProgress: (p) => progress.push(p),
        progressEveryMs: 0,
      });
      const ids = parseCapture(readGzFixture(SUZUKA)).packets.map(readPacketId);
      assert.deepEqual(
        result,
        {
          kind: "capture",
          datagrams: 6420,
          decoded: 6420,
          rejected_size: 0,
          rejected_magic: 0,
          rejected: 0,
          ...idGaps(ids),
          laps: 1,
          incomplete_laps: result.incomplete_laps === null ? null : 0,
          sessions: [1],
          // Named from its reference line: no signature or bundle is needed.
          named: [{ session: 1, track: "Suzuka Circuit" }],
          trailing_bytes: 224,
        } satisfies CaptureImportResult,
      );

      const [session] = await listSessions(app.kv);
      assert.equal(session.id, 1);
      assert.equal(session.kind, "imported");
      assert.equal(session.started_at, NOW);
      assert.equal(session.car_id, 3315);
      assert.equal(session.lap_count, 1);
      assert.equal(session.best_lap_time_ms, 99036);
      const lap = await onlyLap(app, 1);
      assert.equal(lap.time_ms, 99036);
      assert.equal(lap.total_ticks, 5942);
      assert.equal(lap.samples.t.length, 5942);
      assert.equal(lap.finished_at, NOW);
      assert.equal(lap.imported, false);

      // A report every 512 datagrams, then the final one.
      assert.equal(progress.length, Math.floor(6420 / 512) + 1);
      assert.deepEqual(progress.map((p) => p.done), [
        ...Array.from({ length: 12 }, (_, i) => (i + 1) * 512),
        6420,
      ]);
      assert.ok(progress.every((p) => p.total === 6420 && p.rejected === 0));
      assert.deepEqual(progress.at(-1), { done: 6420, total: 6420, rejected: 0, laps: 1 });
      // The app's own live session never saw a frame.
      assert.equal(app.live.session, null);
      assert.equal(app.live.lastFrame, null);
      const lapEvent = events.find((e) => e.type === "lap");
      assert.equal(lapEvent?.type === "lap" && lapEvent.lap.id, lap.id);
    } finally {
      app.kv.close();
    }
  },
});

Deno.test({
  name: "a record file imports every valid packet, counts the garbage and dates laps by arrival",
  ignore: noFixtures,
  async fn() {
    const packets = parseCapture(readGzFixture(SUZUKA)).packets;
    const startMs = Date.UTC(2026, 10, 20, 18, 0, 0);
    const mixed = mixWithGarbage(packets, { startMs, periodMs: 17, every: 3, seed: 41 });
    // A recorder killed while writing one more datagram leaves 123 of its 306 bytes.
    const last = [startMs + packets.length * 17, packets[0].slice()] as const;
    const bytes = buildRecordFile(startMs - 5, [...mixed.entries, last], 10 + 296 - 123);

    const app = await freshApp();
    const reference = await freshApp();
    try {
      const result = await app.laps.importCapture(openCaptureFile(bytes));
      const garbage = mixed.garbage.length;
      assert.equal(garbage, 2140);
      // Garbage in thirds: a packet size failing the magic check, then two sizes of no format.
      const badMagic = Math.ceil(garbage / 3);
      const ids = packets.map(readPacketId);
      assert.deepEqual(
        result,
        {
          kind: "record",
          datagrams: 6420 + garbage,
          decoded: 6420,
          rejected_size: garbage - badMagic,
          rejected_magic: badMagic,
          rejected: garbage,
          ...idGaps(ids),
          laps: 1,
          incomplete_laps: result.incomplete_laps === null ? null : 0,
          sessions: [1],
          // Named from its reference line: no signature or bundle is needed.
          named: [{ session: 1, track: "Suzuka Circuit" }],
          trailing_bytes: 123,
        } satisfies CaptureImportResult,
      );

      // The lap ends, and the session is stored, with the first packet of lap 2.
      const crossing = packets.findIndex((p) => readCurrentLap(p) === 2);
      assert.equal(crossing, 6317);
      const crossedAt = new Date(startMs + crossing * 17).toISOString();
      const session = (await getSession(app.kv, 1))!;
      assert.equal(session.kind, "imported");
      assert.equal(session.started_at, crossedAt);
      // Named from its reference line during the import: that change is now.
      assert.equal(session.updated_at, new Date(NOW).toISOString());
      const lap = await onlyLap(app, 1);
      assert.equal(lap.finished_at, crossedAt);
      assert.equal(lap.time_ms, 99036);
      assert.equal(lap.total_ticks, 5942);

      // Through encryption and garbage, the same lap as the decrypted capture gives.
      await reference.laps.importCapture(openCaptureFile(readFixture(SUZUKA)));
      assert.deepEqual(sameDrive(lap), sameDrive(await onlyLap(reference, 1)));
    } finally {
      app.kv.close();
      reference.kv.close();
    }
  },
});

Deno.test({
  name: "an import never joins the live session, and the live session goes on after it",
  ignore: noFixtures,
  async fn() {
    const app = await freshApp();
    try {
      const frames = [...syntheticFrames({ seed: 5, laps: 3 })];
      const half = frames.length >> 1;
      for (const frame of frames.slice(0, half)) app.live.ingest(frame);
      await app.live.flush();
      const live = app.live.session!;
      assert.ok(live, "the synthetic drive stored a lap before the import");
      const before = app.live.status();

      const result = await app.laps.importCapture(openCaptureFile(readFixture(SUZUKA)));
      assert.equal(result.laps, 1);
      assert.deepEqual(result.sessions, [live.id + 1]);
      assert.deepEqual(app.live.status(), before);
      assert.deepEqual(await getSession(app.kv, live.id), live);

      for (const frame of frames.slice(half)) app.live.ingest(frame);
      await app.live.flush();
      assert.equal(app.live.session?.id, live.id);
      const stored = await listLaps(app.kv, live.id);
      assert.ok(stored.length > live.lap_count);
      assert.ok(stored.every((l) => l.car_id === frames[0].carId));
      assert.deepEqual((await listLaps(app.kv, live.id + 1)).map((l) => l.time_ms), [99036]);
    } finally {
      app.kv.close();
    }
  },
});

Deno.test({
  name: "identification names the sessions the import created, never older ones",
  ignore: noFixtures,
  async fn() {
    const app = await freshApp();
    try {
      const capture = readFixture(SUZUKA);
      const first = await app.laps.importCapture(openCaptureFile(capture));
      assert.deepEqual(first.named, [{ session: 1, track: "Suzuka Circuit" }]);
      const [lap] = await listLaps(app.kv, 1);
      await app.tracks.create({ name: "Suzuka Circuit", lap_id: lap.id });
      // Session 1 unnamed again: it would match, but the next import must leave it alone.
      await updateSession(app.kv, 1, (s) => ({ ...s, track_name: "", track_source: "" }));

      const events: AppEvent[] = [];
      app.bus.subscribe((e) => events.push(e));
      const second = await app.laps.importCapture(openCaptureFile(capture));
      assert.deepEqual(second.sessions, [2]);
      assert.deepEqual(second.named, [{ session: 2, track: "Suzuka Circuit" }]);
      assert.equal((await getSession(app.kv, 2))!.track_name, "Suzuka Circuit");
      assert.equal((await getSession(app.kv, 2))!.track_source, "signature");
      assert.equal((await getSession(app.kv, 1))!.track_name, "");
      const identified = events.filter((e) => e.type === "session" && e.reason === "identified");
      assert.deepEqual(identified.map((e) => e.type === "session" && e.session?.id), [2]);
    } finally {
      app.kv.close();
    }
  },
});

Deno.test("a file of garbage stores nothing; a file without datagrams is refused", async () => {
  const app = await freshApp();
  try {
    const junk: CaptureFile = {
      kind: "record",
      compressed: false,
      encrypted: true,
      format: null,
      datagrams: [new Uint8Array(296), new Uint8Array(12), new Uint8Array(368).fill(9)],
      arrivals: [1, 2, 3],
      startedAtMs: 0,
      trailingBytes: 0,
    };
    const result = await app.laps.importCapture(junk);
    assert.equal(result.datagrams, 3);
    assert.equal(result.decoded, 0);
    assert.equal(result.rejected_size, 1);
    assert.equal(result.rejected_magic, 2);
    assert.equal(result.laps, 0);
    assert.equal(result.incomplete_laps, null);
    assert.deepEqual(result.sessions, []);
    await assert.rejects(
      app.laps.importCapture({ ...junk, datagrams: [], arrivals: [] }),
      (e: unknown) => e instanceof CaptureError && e.message === "record file holds no datagrams",
    );
    assert.deepEqual(await listSessions(app.kv), []);
  } finally {
    app.kv.close();
  }
});
