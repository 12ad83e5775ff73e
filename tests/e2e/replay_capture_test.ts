import { strict as assert } from "node:assert";
import { join } from "node:path";
import { noFixtures, readGzFixture, SHARED_FIXTURES } from "../_fixtures.ts";
import { parseCapture } from "../../src/core/gt7/capture.ts";
import { readPacketId } from "../../src/core/gt7/decode.ts";
import type { Lap, LapSummary } from "../../src/core/laps/lap.ts";
import type { Session } from "../../src/core/laps/session.ts";
import { assertSuzukaLap, getJson, mixIn, newestSessionLaps, replayInto } from "./harness.ts";
import { garbageDatagrams } from "../_garbage.ts";
import { ACK_WINDOW } from "../../src/cli/fake_console.ts";
import { decryptPacket } from "../../src/core/gt7/cipher.ts";
import { parseRecordFile } from "../../src/core/gt7/record_file.ts";

const capture = (name: string) => join(SHARED_FIXTURES, "gt7", name);

Deno.test({
  name: "replaying the Suzuka capture over UDP stores one lap of 99036 ms and 5942 samples",
  ignore: noFixtures,
  async fn() {
    const { logger, result } = await replayInto(capture("suzuka-full-lap.A.gt7.gz"));
    try {
      assert.equal(result.sent, 6420);
      const status = logger.udp.status();
      assert.equal(status.decoded, 6420);
      assert.equal(status.rejected, 0);
      assert.equal(status.packet_format, "A");
      const ids = parseCapture(readGzFixture("gt7/suzuka-full-lap.A.gt7.gz")).packets.map(
        readPacketId,
      );
      const gaps = ids.slice(1).map((id, i) => id - ids[i]);
      assert.equal(status.duplicates, gaps.filter((g) => g === 0).length);
      assert.equal(status.missing, gaps.reduce((n, g) => n + (g > 1 ? g - 1 : 0), 0));
      assert.ok(status.duplicates >= 4);
      const sessions = await getJson<Session[]>(logger, "/api/sessions");
      assert.equal(sessions.length, 1);
      assert.equal(sessions[0].kind, "live");
      assert.equal(sessions[0].lap_count, 1);
      assert.equal(sessions[0].best_lap_time_ms, 99036);
      const laps = await getJson<LapSummary[]>(logger, `/api/sessions/${sessions[0].id}/laps`);
      assert.equal(laps.length, 1);
      assert.equal(laps[0].time_ms, 99036);
      assert.ok(Math.abs(laps[0].total_ticks - 5942) <= 2, `${laps[0].total_ticks} samples`);
      const lap = await getJson<Lap>(logger, `/api/laps/${laps[0].id}`);
      assert.equal(lap.samples.t.length, laps[0].total_ticks);
      assert.equal(lap.car_id, 3315);
    } finally {
      await logger.close();
    }
  },
});

Deno.test({
  name: "replaying the Spa capture stores one lap of 115244 ms with surface codes",
  ignore: noFixtures,
  async fn() {
    const { logger } = await replayInto(capture("spa-full-lap.C.gt7.gz"));
    try {
      const laps = await newestSessionLaps(logger);
      assert.equal(laps.length, 1);
      assert.equal(laps[0].time_ms, 115244);
      const lap = await getJson<Lap>(logger, `/api/laps/${laps[0].id}`);
      assert.ok(lap.samples.surface && lap.samples.surface.every((s) => s > 0));
      assert.equal(lap.samples.surface.length, lap.samples.t.length);
    } finally {
      await logger.close();
    }
  },
});

Deno.test({
  name: "replaying the partial Nordschleife capture stores no lap",
  ignore: noFixtures,
  async fn() {
    // At "max" speed too, nothing may be lost.
    const { logger, result } = await replayInto(capture("nordschleife-partial.tilde.gt7.gz"), {
      speed: "max",
    });
    try {
      assert.equal(result.sent, 3600);
      assert.equal(logger.udp.status().decoded, 3600);
      assert.deepEqual(await getJson<Session[]>(logger, "/api/sessions"), []);
    } finally {
      await logger.close();
    }
  },
});

Deno.test({
  name: "replaying a raw encrypted capture decodes every packet",
  ignore: noFixtures,
  async fn() {
    const file = join(SHARED_FIXTURES, "gt7/encrypted/tsukuba-circuit--full-course.A.gt7");
    const packets = Deno.statSync(file).size / 296;
    const { logger, result } = await replayInto(file);
    try {
      assert.equal(result.sent, packets);
      assert.equal(logger.udp.status().decoded, packets);
      assert.equal(logger.udp.status().rejected, 0);
    } finally {
      await logger.close();
    }
  },
});

Deno.test({
  name:
    "the Suzuka capture at --speed max with 5,000 garbage datagrams: one lap, 99,036 ms, 5,942 samples",
  ignore: noFixtures,
  async fn() {
    const junk = garbageDatagrams(13, 5000);
    const mix = mixIn(junk, 6420);
    const { logger, result } = await replayInto(capture("suzuka-full-lap.A.gt7.gz"), {
      speed: "max",
      beforePacket: mix.beforePacket,
    });
    try {
      assert.equal(result.sent, 6420);
      // Paced by the logger's acknowledgements, not by luck.
      assert.ok(result.acks > 0);
      assert.ok(result.maxInFlight <= ACK_WINDOW, `${result.maxInFlight} in flight`);
      const status = logger.udp.status();
      assert.equal(status.decoded, 6420);
      assert.equal(status.rejected, 5000);
      assert.equal(status.packets_received, 6420 + 5000);
      if (status.kernel_drops !== null) assert.equal(status.kernel_drops, 0);
      await assertSuzukaLap(logger);
    } finally {
      mix.close();
      await logger.close();
    }
  },
});

Deno.test({
  name: "--record writes every datagram received, garbage too, in order, across rotated files",
  ignore: noFixtures,
  async fn() {
    const dir = await Deno.makeTempDir();
    const path = join(dir, "session.sdlrec");
    const junk = garbageDatagrams(5, 300);
    const mix = mixIn(junk, 3600);
    const notices: string[] = [];
    const { logger, result } = await replayInto(capture("nordschleife-partial.tilde.gt7.gz"), {
      speed: "max",
      beforePacket: mix.beforePacket,
      logger: {
        record: { path, maxBytes: 512 * 1024, keep: 9 },
        onNotice: (line) => notices.push(line),
      },
    });
    try {
      mix.close();
      assert.equal(result.sent, 3600);
      const recording = logger.udp.status().record!;
      assert.equal(recording.path, path);
      assert.equal(recording.error, null);
      await logger.close();
      // 3,600 packets of 354 bytes with their entry headers, plus garbage: three files.
      const rotated = recording.files_rotated;
      assert.equal(rotated, 2);
      assert.equal(notices.length, 2);
      assert.match(notices[0], /session\.sdlrec reached 524288 bytes; kept it as .*\.sdlrec\.1/);
      const names = [...Array.from({ length: rotated }, (_, i) => `${path}.${rotated - i}`), path];
      const files = names.map((name) => parseRecordFile(Deno.readFileSync(name)));
      assert.ok(files.every((f) => f.trailingBytes === 0));
      const datagrams = files.flatMap((f) => f.datagrams);
      assert.equal(datagrams.length, 3600 + 300);
      const times = datagrams.map((d) => d.atMs);
      assert.ok(times.every((t, i) => i === 0 || t >= times[i - 1]), "arrival times never go back");
      assert.ok(files.every((f) => f.startedAtMs <= f.datagrams[0].atMs));
      // The same sequence the replay and the garbage sender produced.
      const ids = parseCapture(readGzFixture("gt7/nordschleife-partial.tilde.gt7.gz")).packets.map(
        readPacketId,
      );
      const expected: (number | Uint8Array)[] = [];
      let next = 0;
      ids.forEach((id, i) => {
        const upTo = Math.floor(((i + 1) * junk.length) / ids.length);
        while (next < upTo) expected.push(junk[next++]);
        expected.push(id);
      });
      const seen = datagrams.map((d) => {
        const plain = decryptPacket(d.bytes.slice());
        return plain === null ? d.bytes : readPacketId(plain);
      });
      assert.deepEqual(seen, expected);
    } finally {
      mix.close();
      await logger.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
