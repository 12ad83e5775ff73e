import { strict as assert } from "node:assert";
import type { LapSummary } from "../../src/core/laps/lap.ts";
import type { Session } from "../../src/core/laps/session.ts";
import { planDrive } from "../../src/core/synthetic/drive.ts";
import { getJson, replayInto } from "./harness.ts";

Deno.test("the synthetic drive replayed over UDP stores exactly its planned laps", async () => {
  const plan = planDrive({ seed: 11, laps: 2 });
  const { logger, result } = await replayInto("synthetic:11", { laps: 2, speed: "max" });
  try {
    assert.equal(result.sent, plan.totalFrames);
    const status = logger.udp.status();
    assert.equal(status.decoded, plan.totalFrames);
    assert.equal(status.missing, 0);
    assert.equal(status.packet_format, "C");
    const sessions = await getJson<Session[]>(logger, "/api/sessions");
    assert.equal(sessions.length, 1);
    const laps = await getJson<LapSummary[]>(logger, `/api/sessions/${sessions[0].id}/laps`);
    assert.deepEqual(laps.map((l) => l.time_ms), plan.lapTimesMs);
    assert.deepEqual(laps.map((l) => l.total_ticks), plan.lapTicks);
    assert.deepEqual(laps.map((l) => l.number), [1, 2]);
    assert.equal(sessions[0].best_lap_time_ms, Math.min(...plan.lapTimesMs));
    assert.ok(laps.every((l) => l.frames_dropped === 0 && l.counts_for_best));
  } finally {
    await logger.close();
  }
});
