/**
 * The live frame's brake marker and rev-alert range over a real logger fed
 * the synthetic drive over UDP: lap 1 becomes the reference, and through
 * lap 2 `next_brake` counts down to lap 1's own braking points (its corner
 * report), in order along the lap; `rpm_alert` is the packet's own range.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import type { LiveFrame } from "../../src/app/live/live_frame.ts";
import type { LiveFrameService } from "../../src/app/live/live_frames.ts";
import type { CornerReport } from "../../src/core/analysis/types.ts";
import { getJson, replayInto } from "./harness.ts";

Deno.test("next_brake counts down to the reference's braking points; rpm_alert is the packet's", async () => {
  const seen: LiveFrame[] = [];
  const alerts: { frame: LiveFrame; min: number; max: number }[] = [];
  let off = () => {};
  const { logger } = await replayInto("synthetic:7", {
    laps: 2,
    speed: "max",
    before: (logger) => {
      off = logger.app.frames.subscribe(60, (f) => {
        seen.push(f);
        const raw = logger.app.live.lastFrame!;
        if (alerts.length < 50) {
          alerts.push({ frame: f, min: raw.rpmAlertMin, max: raw.rpmAlertMax });
        }
      });
      return Promise.resolve();
    },
    // The reference is read when lap 1 is stored: hold the drive until reads are done, so what
    // the frames carry follows console time, not the machine's load.
    beforePacket: async (sent, logger) => {
      if (sent % 30 !== 0) return;
      await logger.app.live.flush();
      await (logger.app.frames as LiveFrameService).settled();
    },
  });
  try {
    off();
    for (const a of alerts) {
      assert.deepEqual(a.frame.rpm_alert, { min: Math.round(a.min), max: Math.round(a.max) });
    }
    assert.ok(alerts[0].max > alerts[0].min, JSON.stringify(alerts[0].frame.rpm_alert));
    const laps = await logger.app.sessions.laps(logger.app.live.session!.id);
    assert.equal(laps.length, 2);
    // Lap 1 has no reference: no marker.
    assert.ok(seen.filter((f) => f.lap === 1).every((f) => f.next_brake === null));
    const report = await getJson<CornerReport>(logger, `/api/analysis/corners?lap=${laps[0].id}`);
    const braked = report.corners.filter((c) => c.brake_m !== null)
      .sort((a, b) => a.brake_m! - b.brake_m!);
    const lap2 = seen.filter((f) => f.lap === 2 && f.next_brake !== null);
    const runs: { corner: number; name: string; first: number; last: number }[] = [];
    for (const f of lap2) {
      const { corner, name, distance_m } = f.next_brake!;
      assert.ok(distance_m > 0, `${distance_m}`);
      const run = runs.at(-1);
      if (run?.corner === corner) run.last = distance_m;
      else runs.push({ corner, name, first: distance_m, last: distance_m });
    }
    // Every braking point of the reference in order; the lap ends counting to the first again.
    const order = runs.map((r) => r.corner);
    const wanted = braked.map((c) => c.n);
    if (order.length === wanted.length + 1) wanted.push(braked[0].n);
    assert.deepEqual(order, wanted);
    assert.deepEqual(runs.map((r) => r.name).slice(0, braked.length), braked.map((c) => c.name));
    // Each countdown runs down to within a few metres of its point (one frame at speed).
    for (const r of runs.slice(1, -1)) assert.ok(r.first > r.last && r.last < 5, JSON.stringify(r));
    console.log(
      `brake markers in lap 2: ${runs.map((r) => `${r.name} ${r.first}→${r.last} m`).join(", ")}`,
    );
  } finally {
    // The last lap's reference read runs in the background: let it finish before the store closes.
    await (logger.app.frames as LiveFrameService).settled();
    await logger.close();
  }
});
