import { strict as assert } from "node:assert";
import { createHash } from "node:crypto";
import type { Frame } from "../../../src/core/gt7/frame.ts";
import { FLAG } from "../../../src/core/gt7/frame.ts";
import { GR3_CAR } from "../../../src/core/synthetic/car.ts";
import {
  type DriveOptions,
  planDrive,
  SyntheticDrive,
  syntheticFrames,
} from "../../../src/core/synthetic/drive.ts";

const cache = new Map<string, Frame[]>();
function frames(opts: DriveOptions): Frame[] {
  const key = JSON.stringify(opts);
  let out = cache.get(key);
  if (!out) {
    out = [...syntheticFrames(opts)];
    cache.set(key, out);
  }
  return out;
}

function digest(it: Iterable<Frame>): string {
  const h = createHash("sha256");
  for (const f of it) h.update(JSON.stringify(f));
  return h.digest("hex");
}

Deno.test("syntheticFrames: the same options give identical frames", () => {
  const opts = { seed: 31, laps: 1 };
  assert.equal(digest(syntheticFrames(opts)), digest(syntheticFrames(opts)));
  const drive = new SyntheticDrive({ seed: 31, laps: 1, mode: "survey" });
  assert.equal(digest(drive.frames()), digest(drive.frames()));
  assert.equal(
    digest(drive.frames()),
    digest(syntheticFrames({ seed: 31, laps: 1, mode: "survey" })),
  );
});

Deno.test("syntheticFrames: different seeds give different drives", () => {
  const a = planDrive({ seed: 1, laps: 1 });
  const b = planDrive({ seed: 2, laps: 1 });
  assert.notEqual(a.circuit.length, b.circuit.length);
  assert.notDeepEqual(a.lapTimesMs, b.lapTimesMs);
  assert.notEqual(
    digest(syntheticFrames({ seed: 1, laps: 1 })),
    digest(syntheticFrames({ seed: 2, laps: 1 })),
  );
});

Deno.test("planDrive: agrees with the frames (count, crossings, lap times)", () => {
  for (const opts of [{ seed: 4, laps: 3 }, { seed: 5, laps: 2, mode: "survey" as const }]) {
    const plan = planDrive(opts);
    const fs = frames(opts);
    assert.equal(fs.length, plan.totalFrames);
    assert.equal(plan.lapTimesMs.length, opts.laps);
    assert.equal(plan.crossingFrames.length, opts.laps + 1);
    const changes: number[] = [];
    for (let i = 1; i < fs.length; i++) {
      if (fs[i].currentLap !== fs[i - 1].currentLap) changes.push(i);
    }
    assert.deepEqual(changes, plan.crossingFrames);
    for (let k = 0; k < opts.laps; k++) {
      assert.equal(plan.lapTicks[k], plan.crossingFrames[k + 1] - plan.crossingFrames[k]);
      assert.equal(plan.lapTimesMs[k], Math.round(plan.lapTicks[k] * 1000 / 60));
    }
  }
});

Deno.test("lap counter: 0 on the out-lap, +1 at each crossing, lastLapMs = ticks of the lap", () => {
  const opts = { seed: 4, laps: 3 };
  const fs = frames(opts);
  assert.equal(fs[0].currentLap, 0);
  assert.equal(fs[0].lastLapMs, -1);
  assert.equal(fs[0].bestLapMs, -1);
  assert.equal(fs[fs.length - 1].currentLap, 4);
  // A logger that segments by the counter gets laps of exactly the reported length.
  const counts = new Map<number, number>();
  for (let i = 0; i < fs.length; i++) {
    const f = fs[i];
    counts.set(f.currentLap, (counts.get(f.currentLap) ?? 0) + 1);
    if (i === 0) continue;
    const prev = fs[i - 1];
    assert.ok(f.currentLap === prev.currentLap || f.currentLap === prev.currentLap + 1);
    if (f.currentLap !== prev.currentLap) {
      if (prev.currentLap === 0) {
        assert.equal(f.lastLapMs, -1);
      } else {
        const ticks = counts.get(prev.currentLap)!;
        assert.equal(f.lastLapMs, Math.round(ticks * 1000 / 60));
      }
      assert.equal(f.surface!.lapTimeMs, 0);
    } else {
      assert.equal(f.lastLapMs, prev.lastLapMs);
      const step = f.surface!.lapTimeMs - prev.surface!.lapTimeMs;
      assert.ok(step === 16 || step === 17, `lap clock step ${step}`);
    }
  }
  const laps = [1, 2, 3].map((k) => Math.round(counts.get(k)! * 1000 / 60));
  assert.deepEqual(laps, planDrive(opts).lapTimesMs);
  assert.equal(fs[fs.length - 1].bestLapMs, Math.min(...laps));
  assert.equal(fs[fs.length - 1].lastLapMs, laps[2]);
  // Laps are long enough for a logger that needs 600 samples, and differ a little.
  for (const k of [1, 2, 3]) assert.ok(counts.get(k)! > 600);
  assert.ok(new Set(laps).size > 1);
});

Deno.test("lap counter: increments on the frame that first passes the start/finish line", () => {
  for (const mode of ["race", "survey"] as const) {
    const opts = { seed: 8, laps: 2, mode };
    const plan = planDrive(opts);
    const fs = frames(opts);
    const line = plan.circuit.station(0);
    const along = (f: Frame) => (f.posX - line.x) * line.tx + (f.posZ - line.z) * line.tz;
    for (const i of plan.crossingFrames) {
      const before = along(fs[i - 1]);
      const after = along(fs[i]);
      assert.ok(before < 0 && after >= 0, `${mode} frame ${i}: ${before} -> ${after}`);
      assert.ok(after - before <= fs[i].speed / 60 + 0.05);
      const lateral = Math.hypot(fs[i].posX - line.x, fs[i].posZ - line.z);
      assert.ok(lateral < line.width / 2 + 2);
    }
    // The out-lap starts a few hundred metres before the line.
    const start = plan.circuit.locate(fs[0].posX, fs[0].posZ)!;
    const before = plan.circuit.length - start.s;
    assert.ok(before > 240 && before < 470, `${mode}: ${before} m before the line`);
  }
});

Deno.test("frames: counters, clocks and constant fields", () => {
  const fs = frames({ seed: 4, laps: 3 });
  const plan = planDrive({ seed: 4, laps: 3 });
  const day0 = fs[0].dayProgressionMs;
  assert.ok(day0 >= 7 * 3600_000 && day0 < 17 * 3600_000);
  for (let i = 0; i < fs.length; i++) {
    const f = fs[i];
    assert.equal(f.format, "C");
    assert.equal(f.packetId, plan.startPacketId + i);
    assert.equal(f.dayProgressionMs, day0 + Math.round(i * 1000 / 60));
    assert.equal(f.carId, GR3_CAR.carId);
    assert.equal(f.gearRatios.length, 8);
    assert.deepEqual(f.gearRatios.slice(6), [0, 0]);
    assert.ok(f.flags & FLAG.onTrack);
    assert.ok(f.flags & FLAG.inGear);
    assert.equal(f.flags & FLAG.paused, 0);
    assert.equal(f.flags & FLAG.loading, 0);
    assert.equal(f.totalLaps, 0);
    assert.equal(f.suggestedGear, 15);
    assert.ok(f.motion && f.filtered && f.surface);
    assert.equal(f.surface.wheelbase, 2.6);
    assert.equal(f.surface.carCategory, "Gr.3");
    assert.equal(f.surface.surface.length, 4);
    assert.ok(Number.isInteger(f.throttle) && f.throttle >= 0 && f.throttle <= 255);
    assert.ok(Number.isInteger(f.brake) && f.brake >= 0 && f.brake <= 255);
    assert.ok(f.throttle === 0 || f.brake === 0, `frame ${i} presses both pedals`);
    for (const [name, value] of Object.entries(f)) {
      if (typeof value === "number") assert.ok(Number.isFinite(value), `${name} at ${i}`);
    }
    for (const arr of [f.tyreTemp, f.wheelRps, f.tyreRadius, f.suspension, f.roadPlane]) {
      assert.ok(arr.every(Number.isFinite));
    }
    if (i > 0) assert.ok(f.fuelLevel <= fs[i - 1].fuelLevel);
  }
});

Deno.test("options: carId and startPacketId are honoured; bad options are refused", () => {
  const fs = [...syntheticFrames({ seed: 3, laps: 1, carId: 3315, startPacketId: 1000 })];
  assert.equal(fs[0].packetId, 1000);
  assert.equal(fs[fs.length - 1].packetId, 1000 + fs.length - 1);
  assert.ok(fs.every((f) => f.carId === 3315));
  assert.equal(planDrive({ seed: 3 }).laps, 3);
  assert.equal(planDrive({ seed: 3, mode: "survey" }).laps, 2);
  assert.throws(() => planDrive({ seed: 1.5 }), RangeError);
  assert.throws(() => planDrive({ seed: 1, laps: 0 }), RangeError);
  assert.throws(() => planDrive({ seed: 1, laps: 2.5 }), RangeError);
  assert.throws(() => planDrive({ seed: 1, carId: -1 }), RangeError);
  assert.throws(() => planDrive({ seed: 1, startPacketId: 0x7fffffff }), RangeError);
  assert.throws(() => planDrive({ seed: 1, mode: "drift" as "race" }), RangeError);
});
