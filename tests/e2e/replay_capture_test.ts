import { strict as assert } from "node:assert";
import { join } from "node:path";
import { noFixtures, readGzFixture, SHARED_FIXTURES } from "../_fixtures.ts";
import { parseCapture } from "../../src/core/gt7/capture.ts";
import { readPacketId } from "../../src/core/gt7/decode.ts";
import type { Lap, LapSummary } from "../../src/core/laps/lap.ts";
import type { Session } from "../../src/core/laps/session.ts";
import { getJson, replayInto } from "./harness.ts";

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
      const [session] = await getJson<Session[]>(logger, "/api/sessions");
      const laps = await getJson<LapSummary[]>(logger, `/api/sessions/${session.id}/laps`);
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
