/**
 * End to end: a synthetic driver brakes 30 m early for turn 2 on lap 2; when
 * lap 2 is stored its notes go on the bus, and during lap 3 `/api/live`
 * carries the cue "Turn 2: brake later" before the car reaches the
 * reference's braking point. Laps 1 and 2 are replayed at 20x; lap 3 is
 * replayed at 1x from its line until well past turn 2, so the notes race a
 * car at real speed.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import type { LiveFrame } from "../../src/app/live/live_frame.ts";
import { CUE_LEAD_M } from "../../src/app/live/live_cue.ts";
import type { Logger } from "../../src/cli/logger_process.ts";
import { planDrive } from "../../src/core/synthetic/drive.ts";
import type { Mistake } from "../../src/core/synthetic/mistakes.ts";
import { replayInto } from "./harness.ts";

const SEED = 25;
// Turn 2's slowest point is about 772 m into a lap of this circuit.
const MISTAKE: Mistake = { kind: "brake_early", lap: 2, atM: 772, metres: 30 };
/** Frames of lap 3 sent at real time: 16 s, past turn 2's braking point (about 600 m in). */
const REAL_TIME_FRAMES = 16 * 60;

/** Reads SSE live frames from `res` into `frames` until the stream ends or is cancelled. */
async function readFrames(res: Response, frames: LiveFrame[]): Promise<void> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = message.split("\n").find((l) => l.startsWith("data: "));
        if (data) frames.push(JSON.parse(data.slice(6)) as LiveFrame);
      }
    }
  } catch {
    // Cancelled at the end of the test.
  }
}

Deno.test("the cue for the corner the last lap lost most arrives on /api/live before its braking point, at 1x", async () => {
  const plan = planDrive({ seed: SEED, laps: 3, steady: true });
  const lap3 = plan.crossingFrames[2];
  const frames: LiveFrame[] = [];
  let reading: Promise<void> | null = null;
  let realStart: number | null = null;
  let logger: Logger | null = null;
  try {
    const replay = await replayInto(`synthetic:${SEED}`, {
      laps: 3,
      synthetic: { steady: true, mistakes: [MISTAKE] },
      before: async (l) => {
        reading = readFrames(await fetch(`${l.http.url}/api/live?hz=20`), frames);
      },
      // Lap 3 from its line at the console's own pace: one frame each 1/60 s of wall clock.
      beforePacket: async (sent) => {
        if (sent < lap3 || sent >= lap3 + REAL_TIME_FRAMES) return;
        realStart ??= performance.now();
        const due = realStart + ((sent - lap3) * 1000) / 60;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      },
    });
    logger = replay.logger;
    const laps = await logger.app.sessions.laps(logger.app.live.session!.id);
    assert.equal(laps.length, 3);

    // What lap 2's notes said when it was stored (against lap 1, then the only other lap):
    // turn 2 lost most, braked about 30 m early.
    const notes = await logger.app.analysis.notes(laps[1].id, { ref: laps[0].id });
    assert.ok(Math.abs(notes.notes[0].causes[0].value! - 30) <= 3);
    const first = notes.notes[0];
    assert.equal(first.n, 2);
    assert.equal(first.cue, "Turn 2: brake later");
    // A note that lost time always has its cue's place.
    const brakeAt = first.cue_at_m!;

    const onLap3 = frames.filter((f) => f.lap === 3 && f.distance_m < brakeAt + 200);
    const cued = onLap3.filter((f) => f.cue);
    assert.ok(cued.length > 0, "no frame of lap 3 carried the cue");
    for (const f of cued) {
      assert.equal(f.cue!.text, "Turn 2: brake later");
      assert.equal(f.cue!.n, 2);
      assert.equal(f.cue!.lap_id, laps[1].id);
      assert.equal(f.cue!.at_m, brakeAt);
      // Only on the straight before the braking point.
      assert.ok(f.distance_m >= brakeAt - CUE_LEAD_M && f.distance_m < brakeAt, `${f.distance_m}`);
    }
    // It arrived before the car reached the braking point, and went once the car passed it.
    assert.ok(cued[0].distance_m < brakeAt - 100, `first cue at ${cued[0].distance_m} m`);
    assert.ok(onLap3.some((f) => f.distance_m >= brakeAt && f.cue === null));
    // No cue on the laps before: lap 1 had no reference, lap 2's cue was lap 1's (none).
    assert.ok(frames.filter((f) => f.lap < 3).every((f) => !f.cue));
  } finally {
    // Closing the logger ends the stream, and with it the reading.
    await logger?.close();
    await reading;
  }
});
