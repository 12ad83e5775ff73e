/**
 * The issue's own trial, end to end: a real logger (HTTP, UDP receive
 * worker) with its store on a 3 MiB tmpfs, a drive replayed over UDP lap
 * after lap, the disk filled once the first lap is stored. Every lap ends
 * up stored, the status said how many waited, and the laps are those the
 * drive planned. Needs root for the tmpfs; skipped otherwise.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import type { LapSummary } from "../../src/core/laps/lap.ts";
import type { Session } from "../../src/core/laps/session.ts";
import { planDrive } from "../../src/core/synthetic/drive.ts";
import { getJson, replayInto } from "../e2e/harness.ts";
import { tmpfsOrSkip } from "./_tmpfs.ts";

Deno.test("a drive replayed over UDP into a logger whose disk fills after lap 1: every lap is stored once space is freed", async () => {
  const fs = await tmpfsOrSkip(3 * 2 ** 20);
  if (fs === null) return;
  const spillBase = await Deno.makeTempDir({ prefix: "spill-" });
  try {
    const plan = planDrive({ seed: 11, laps: 4 });
    let filled = false;
    const { logger } = await replayInto("synthetic:11", {
      laps: 4,
      speed: "max",
      logger: { data: join(fs.dir, "data"), spill: spillBase },
      beforePacket: (_sent, logger) => {
        if (!filled && logger.app.live.status().laps_recorded >= 1) {
          filled = true;
          fs.fill();
        }
        return Promise.resolve();
      },
    });
    try {
      assert.ok(filled);
      const status = await getJson<{ store: Record<string, unknown> }>(logger, "/api/status");
      assert.deepEqual(
        [status.store.state, status.store.writable, status.store.laps_waiting],
        ["full", false, 3],
      );
      const stored = Promise.withResolvers<void>();
      logger.app.bus.subscribe((e) => {
        if (e.type === "store" && e.status.laps_waiting === 0) stored.resolve();
      });
      await Deno.remove(join(fs.dir, "filler"));
      await stored.promise;
      const sessions = await getJson<Session[]>(logger, "/api/sessions");
      assert.equal(sessions.length, 1);
      const laps = await getJson<LapSummary[]>(logger, `/api/sessions/${sessions[0].id}/laps`);
      assert.deepEqual(laps.map((l) => l.number), [1, 2, 3, 4]);
      assert.deepEqual(laps.map((l) => l.time_ms), plan.lapTimesMs);
      assert.deepEqual(laps.map((l) => l.total_ticks), plan.lapTicks);
      assert.ok(laps.every((l) => l.frames_dropped === 0));
    } finally {
      await logger.close();
    }
  } finally {
    await fs.unmount();
    await Deno.remove(spillBase, { recursive: true });
  }
});
