/**
 * The same capture recorded twice: replayed over real loopback UDP into a
 * logger, and imported through the capture import. The stored laps must be
 * the same, sample for sample and field for field; only ids and wall-clock
 * times may differ.
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { createApp } from "../../src/app/create_app.ts";
import { parseCapture } from "../../src/core/gt7/capture.ts";
import { openCaptureFile } from "../../src/core/gt7/capture_file.ts";
import { decryptPacket } from "../../src/core/gt7/cipher.ts";
import { readCurrentLap } from "../../src/core/gt7/decode.ts";
import { parseRecordFile } from "../../src/core/gt7/record_file.ts";
import type { Lap } from "../../src/core/laps/lap.ts";
import { getLap, listLaps } from "../../src/storage/laps.ts";
import { listSessions } from "../../src/storage/sessions.ts";
import { noFixtures, readGzFixture, SHARED_FIXTURES } from "../_fixtures.ts";
import { buildRecordFile, mixWithGarbage } from "../_capture_files.ts";
import { replayInto } from "./harness.ts";

/** Every lap in the store with its samples, oldest session and lap first. */
async function storedLaps(kv: Deno.Kv): Promise<Lap[]> {
  const laps: Lap[] = [];
  for (const session of (await listSessions(kv)).reverse()) {
    for (const summary of await listLaps(kv, session.id)) {
      laps.push((await getLap(kv, summary.id))!);
    }
  }
  return laps;
}

/** A lap without its ids and its wall-clock time. */
function drive(lap: Lap): Omit<Lap, "id" | "session_id" | "finished_at"> {
  const { id: _i, session_id: _s, finished_at: _f, ...rest } = lap;
  return rest;
}

for (
  const [name, packets, timeMs] of [
    ["suzuka-full-lap.A.gt7.gz", 6420, 99036],
    ["spa-full-lap.C.gt7.gz", 6914, 115244],
  ] as const
) {
  Deno.test({
    name: `${name} through import: identical laps to the live recording over UDP`,
    ignore: noFixtures,
    async fn() {
      const path = join(SHARED_FIXTURES, "gt7", name);
      const { logger, result } = await replayInto(path);
      let live: Lap[];
      try {
        assert.equal(result.sent, packets);
        assert.equal(logger.udp.status().decoded, packets, "the live recording lost packets");
        live = await storedLaps(logger.app.kv);
      } finally {
        await logger.close();
      }

      const kv = await Deno.openKv(":memory:");
      try {
        const app = await createApp({ kv });
        const imported = await app.laps.importCapture(openCaptureFile(await Deno.readFile(path)));
        assert.equal(imported.decoded, packets);
        assert.equal(imported.laps, 1);
        const laps = await storedLaps(kv);
        assert.equal(live.length, 1);
        assert.equal(laps.length, 1);
        assert.equal(laps[0].time_ms, timeMs);
        assert.equal(laps[0].samples.t.length, live[0].samples.t.length);
        // Column by column first, so a difference names its column.
        for (const column of Object.keys(live[0].samples) as (keyof Lap["samples"])[]) {
          assert.deepEqual(laps[0].samples[column], live[0].samples[column], `column ${column}`);
        }
        assert.deepEqual(drive(laps[0]), drive(live[0]));
        const [session] = await listSessions(kv);
        assert.equal(session.kind, "imported");
        assert.equal(session.best_lap_time_ms, timeMs);
      } finally {
        kv.close();
      }
    },
  });
}

Deno.test({
  name: "a record file replays its valid packets over UDP: the Suzuka lap, garbage left out",
  ignore: noFixtures,
  async fn() {
    const packets = parseCapture(readGzFixture("gt7/suzuka-full-lap.A.gt7.gz")).packets;
    const startMs = Date.UTC(2026, 10, 23, 7, 0, 0);
    const mixed = mixWithGarbage(packets, { startMs, periodMs: 17, every: 5, seed: 77 });
    const dir = await Deno.makeTempDir();
    try {
      const path = join(dir, "suzuka.rec");
      await Deno.writeFile(path, buildRecordFile(startMs, mixed.entries, 0));
      const { logger, result } = await replayInto(path);
      try {
        assert.equal(result.sent, 6420);
        const status = logger.udp.status();
        assert.equal(status.decoded, 6420);
        assert.equal(status.rejected, 0);
        const [lap] = await storedLaps(logger.app.kv);
        assert.equal(lap.time_ms, 99036);
        assert.equal(lap.samples.t.length, 5942);
      } finally {
        await logger.close();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "a session recorded with --record re-imports to the lap the logger stored, dated by arrival",
  ignore: noFixtures,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const path = join(dir, "suzuka.sdlrec");
      const { logger, result } = await replayInto(
        join(SHARED_FIXTURES, "gt7/suzuka-full-lap.A.gt7.gz"),
        { logger: { record: { path, maxBytes: 64 * 2 ** 20, keep: 1 } } },
      );
      let live: Lap[];
      try {
        assert.equal(result.sent, 6420);
        assert.equal(logger.udp.status().decoded, 6420, "the live recording lost packets");
        live = await storedLaps(logger.app.kv);
      } finally {
        await logger.close();
      }

      const bytes = await Deno.readFile(path);
      // The lap ends with the first packet of lap 2, at the time it arrived.
      const crossing = parseRecordFile(bytes).datagrams.find((d) => {
        const plain = decryptPacket(d.bytes.slice());
        return plain !== null && readCurrentLap(plain) === 2;
      })!;
      const kv = await Deno.openKv(":memory:");
      try {
        const app = await createApp({ kv });
        const imported = await app.laps.importCapture(openCaptureFile(bytes));
        assert.equal(imported.kind, "record");
        assert.equal(imported.datagrams, 6420);
        assert.equal(imported.rejected, 0);
        assert.equal(imported.trailing_bytes, 0);
        const laps = await storedLaps(kv);
        assert.equal(laps.length, 1);
        assert.equal(laps[0].time_ms, 99036);
        assert.equal(laps[0].finished_at, new Date(crossing.atMs).toISOString());
        assert.deepEqual(drive(laps[0]), drive(live[0]));
      } finally {
        kv.close();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
