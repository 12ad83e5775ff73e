import { strict as assert } from "node:assert";
import type { Frame } from "../../../src/core/gt7/frame.ts";
import { FLAG } from "../../../src/core/gt7/frame.ts";
import { GR3_CAR } from "../../../src/core/synthetic/car.ts";
import { type DrivePlan, planDrive, syntheticFrames } from "../../../src/core/synthetic/drive.ts";
import { RACE_EDGE_MARGIN, racingLine } from "../../../src/core/synthetic/driver.ts";

interface Run {
  plan: DrivePlan;
  frames: Frame[];
}
const runs = new Map<string, Run>();
function run(seed: number, mode: "race" | "survey", laps = 2): Run {
  const key = `${seed}/${mode}/${laps}`;
  let r = runs.get(key);
  if (!r) {
    r = {
      plan: planDrive({ seed, mode, laps }),
      frames: [...syntheticFrames({ seed, mode, laps })],
    };
    runs.set(key, r);
  }
  return r;
}

const RACE_SEEDS = [0, 1, 2, 3, 4];

/** Surface letters recomputed from the frame alone: contact points as a survey would place them. */
function contacts(plan: DrivePlan, f: Frame): string {
  const v = Math.hypot(f.velX, f.velZ);
  const fx = f.velX / v;
  const fz = f.velZ / v;
  // The car's left is (fz, -fx) in GT7's world.
  const lx = fz;
  const lz = -fx;
  const wb = f.surface!.wheelbase / 2;
  const tw = GR3_CAR.trackWidth / 2;
  const at = (along: number, side: number) =>
    plan.circuit.surfaceAt(f.posX + fx * along + lx * side, f.posZ + fz * along + lz * side);
  return at(wb, tw) + at(wb, -tw) + at(-wb, tw) + at(-wb, -tw);
}

Deno.test("race: the car stays on the road, at least 1.2 m inside each edge", () => {
  for (const seed of RACE_SEEDS) {
    const { plan, frames } = run(seed, "race");
    for (const f of frames) {
      const loc = plan.circuit.locate(f.posX, f.posZ);
      assert.ok(loc !== null, `seed ${seed}: car off the map at ${f.packetId}`);
      assert.ok(loc.width / 2 - Math.abs(loc.lateral) >= RACE_EDGE_MARGIN, `seed ${seed}`);
      assert.ok(!f.surface!.surface.includes("G"), `seed ${seed}: ${f.surface!.surface}`);
      assert.match(f.surface!.surface, /^[TC]{4}$/);
    }
  }
});

Deno.test("racingLine: inside at apexes, never closer than the margin to an edge", () => {
  const { plan } = run(1, "race");
  const c = plan.circuit;
  const line = racingLine(c);
  let apexes = 0;
  for (let i = 0; i < c.count; i++) {
    assert.ok(Math.abs(line[i]) <= c.arrays.width[i] / 2 - RACE_EDGE_MARGIN);
    const k = c.arrays.curvature[i];
    if (Math.abs(k) > 1 / 50) {
      apexes++;
      assert.ok(Math.sign(line[i]) === Math.sign(k), `station ${i} is not on the inside`);
    }
  }
  assert.ok(apexes > 0);
});

Deno.test("frames: per-wheel surface letters match the contact points of the car", () => {
  for (const mode of ["race", "survey"] as const) {
    const { plan, frames } = run(2, mode);
    for (const f of frames) assert.equal(f.surface!.surface, contacts(plan, f));
  }
});

Deno.test("race: plausible speeds, revs and gears", () => {
  for (const seed of RACE_SEEDS) {
    const { frames } = run(seed, "race");
    const speeds = frames.map((f) => f.speed);
    const max = Math.max(...speeds);
    const min = Math.min(...speeds);
    assert.ok(max >= 40 && max <= 90, `seed ${seed}: max ${max}`);
    assert.ok(min > 10, `seed ${seed}: min ${min}`);
    const gears = new Set<number>();
    for (const f of frames) {
      assert.ok(f.engineRpm >= GR3_CAR.idleRpm && f.engineRpm <= GR3_CAR.limiterRpm);
      assert.equal(f.rpmAfterClutch, f.engineRpm);
      assert.ok(f.gear >= 1 && f.gear <= 6);
      gears.add(f.gear);
      // rpm follows from gear and the driven wheels' speed.
      const rear = (Math.abs(f.wheelRps[2]) + Math.abs(f.wheelRps[3])) / 2;
      const rpm = rear * GR3_CAR.gearRatios[f.gear - 1] * GR3_CAR.finalDrive * 60 / (2 * Math.PI);
      assert.ok(Math.abs(rpm - f.engineRpm) < 5 || f.engineRpm === GR3_CAR.limiterRpm);
    }
    assert.ok(gears.size >= 4, `seed ${seed}: gears ${[...gears]}`);
  }
});

Deno.test("frames: velocity, position, yaw rate and wheel speeds agree", () => {
  const { frames } = run(3, "race");
  let yawChecked = 0;
  let yawClose = 0;
  for (let i = 0; i < frames.length - 1; i++) {
    const f = frames[i];
    const g = frames[i + 1];
    assert.ok(Math.abs(Math.hypot(f.velX, f.velY, f.velZ) - f.speed) < 1e-9);
    // Position moves by the velocity over one tick.
    const dx = (g.posX - f.posX) * 60;
    const dz = (g.posZ - f.posZ) * 60;
    assert.ok(Math.hypot(dx - f.velX, dz - f.velZ) < 0.05 * f.speed + 0.5, `tick ${i}`);
    // Yaw rate is the rate of change of heading atan2(vx, vz).
    const h0 = Math.atan2(f.velX, f.velZ);
    const h1 = Math.atan2(g.velX, g.velZ);
    let dh = h1 - h0;
    dh -= 2 * Math.PI * Math.round(dh / (2 * Math.PI));
    yawChecked++;
    assert.ok(Math.abs(dh * 60 - f.angVelY) < 0.06, `tick ${i}: yaw ${f.angVelY} vs ${dh * 60}`);
    if (Math.abs(dh * 60 - f.angVelY) < 0.03) yawClose++;
    // Wheels turn backwards (as GT7 reports them) at about road speed.
    for (let w = 0; w < 4; w++) {
      assert.ok(f.wheelRps[w] < 0);
      const ratio = Math.abs(f.wheelRps[w]) * f.tyreRadius[w] / f.speed;
      assert.ok(ratio > 0.95 && ratio < 1.1, `tick ${i} wheel ${w}: ${ratio}`);
    }
    // In a left turn (positive yaw rate) the left wheels are inside, so slower.
    if (f.angVelY > 0.2) assert.ok(Math.abs(f.wheelRps[0]) < Math.abs(f.wheelRps[1]));
    if (f.angVelY < -0.2) assert.ok(Math.abs(f.wheelRps[0]) > Math.abs(f.wheelRps[1]));
    // Sway is lateral acceleration, positive to the right: v * yaw rate with the sign flipped.
    assert.ok(Math.abs(f.motion!.sway + f.speed * f.angVelY) < 1e-6);
  }
  assert.ok(yawClose / yawChecked > 0.99, `${yawClose} of ${yawChecked}`);
});

Deno.test("race: lateral acceleration stays near 1.3 g, braking near 1.1 g", () => {
  for (const seed of RACE_SEEDS) {
    const { frames } = run(seed, "race");
    let maxLat = 0;
    let minSurge = 0;
    for (const f of frames) {
      maxLat = Math.max(maxLat, Math.abs(f.motion!.sway));
      minSurge = Math.min(minSurge, f.motion!.surge);
    }
    assert.ok(maxLat > 9 && maxLat < 14.5, `seed ${seed}: lateral ${maxLat}`);
    assert.ok(
      minSurge < -9 && minSurge >= -1.1 * 9.80665 - 1e-9,
      `seed ${seed}: braking ${minSurge}`,
    );
  }
});

Deno.test("frames: pedals agree with what the car does", () => {
  const { frames } = run(0, "race");
  let full = 0;
  let braking = 0;
  for (const f of frames) {
    const surge = f.motion!.surge;
    if (surge > 1) assert.ok(f.throttle > 0 && f.brake === 0, `surge ${surge}`);
    // Drag alone slows the car by up to about 5 m/s^2 at top speed; beyond that it is braking.
    if (surge < -6) assert.ok(f.brake > 0 && f.throttle === 0, `surge ${surge}`);
    if (f.throttle === 0 && f.brake === 0) assert.ok(surge <= 0 && surge > -6, `coasting ${surge}`);
    if (f.throttle === 255) full++;
    if (f.brake > 0) braking++;
  }
  assert.ok(full / frames.length > 0.3 && full / frames.length < 0.9);
  assert.ok(braking / frames.length > 0.05 && braking / frames.length < 0.4);
});

Deno.test("frames: fuel burns with the throttle", () => {
  const { frames } = run(0, "race");
  const burnAt = (pred: (f: Frame) => boolean) => {
    let total = 0;
    let n = 0;
    for (let i = 0; i < frames.length - 1; i++) {
      if (!pred(frames[i + 1])) continue;
      total += frames[i].fuelLevel - frames[i + 1].fuelLevel;
      n++;
    }
    return total / n;
  };
  const full = burnAt((f) => f.throttle === 255);
  const closed = burnAt((f) => f.throttle === 0);
  assert.ok(full > 5 * closed && closed > 0, `full ${full} closed ${closed}`);
  const used = frames[0].fuelLevel - frames[frames.length - 1].fuelLevel;
  assert.ok(used > 2 && used < 12, `${used} litres`);
});

Deno.test("frames: tyres heat in corners and cool on straights", () => {
  const { frames } = run(1, "race", 3);
  let cornerRise = 0;
  let corners = 0;
  let straightRise = 0;
  let straights = 0;
  for (let i = 1200; i < frames.length - 1; i++) {
    const f = frames[i];
    const rise = frames[i + 1].tyreTemp.reduce((s, t, w) => s + t - f.tyreTemp[w], 0);
    if (Math.abs(f.motion!.sway) > 8) {
      cornerRise += rise;
      corners++;
    } else if (Math.abs(f.motion!.sway) < 0.5 && f.speed > 50) {
      straightRise += rise;
      straights++;
    }
    for (const t of f.tyreTemp) assert.ok(t > 20 && t < 130);
  }
  assert.ok(corners > 100 && straights > 100);
  assert.ok(cornerRise / corners > 0, "tyres cool in corners");
  assert.ok(straightRise / straights < 0, "tyres heat on straights");
});

Deno.test("frames: suspension dives under braking and rolls in corners", () => {
  const { frames } = run(1, "race");
  let dive = 0;
  let brakes = 0;
  let roll = 0;
  let lefts = 0;
  for (const f of frames) {
    const [fl, fr, rl, rr] = f.suspension;
    if (f.motion!.surge < -8) {
      dive += (fl + fr) - (rl + rr);
      brakes++;
    }
    if (f.angVelY * f.speed > 8) {
      roll += (fr + rr) - (fl + rl);
      lefts++;
    }
    assert.ok(f.bodyHeight > 0.02 && f.bodyHeight < 0.1);
    for (const s of f.suspension) assert.ok(s > 0.25 && s < 0.35);
  }
  assert.ok(brakes > 0 && dive / brakes > 0.005);
  assert.ok(lefts > 0 && roll / lefts > 0.005, "outer (right) wheels compress in left turns");
});

Deno.test("race: traction control intervenes now and then", () => {
  let tcs = 0;
  let total = 0;
  for (const seed of RACE_SEEDS) {
    for (const f of run(seed, "race").frames) {
      total++;
      if (f.flags & FLAG.tcs) tcs++;
    }
  }
  assert.ok(tcs > 0 && tcs / total < 0.1, `${tcs} of ${total}`);
});

Deno.test("survey: lap 1 straddles the left border, lap 2 the right, slowly", () => {
  for (const seed of [0, 6, 12]) {
    const { plan, frames } = run(seed, "survey");
    const tally = new Map<number, { n: number; left: number; right: number; kerb: number }>();
    for (const f of frames) {
      const s = f.surface!.surface;
      const leftOff = s[0] !== "T" && s[2] !== "T" && s[1] === "T" && s[3] === "T";
      const rightOff = s[1] !== "T" && s[3] !== "T" && s[0] === "T" && s[2] === "T";
      const t = tally.get(f.currentLap) ?? { n: 0, left: 0, right: 0, kerb: 0 };
      t.n++;
      if (leftOff) t.left++;
      if (rightOff) t.right++;
      if (s.includes("C")) t.kerb++;
      tally.set(f.currentLap, t);
      assert.ok(f.speed <= 30 + 1e-9);
    }
    const lap1 = tally.get(1)!;
    const lap2 = tally.get(2)!;
    assert.ok(lap1.left / lap1.n >= 0.95, `seed ${seed}: lap 1 ${lap1.left}/${lap1.n}`);
    assert.equal(lap1.right, 0);
    assert.ok(lap2.right / lap2.n >= 0.95, `seed ${seed}: lap 2 ${lap2.right}/${lap2.n}`);
    assert.equal(lap2.left, 0);
    assert.ok(lap1.kerb > 0 && lap2.kerb > 0, `seed ${seed}: no kerb strikes`);
    // Surveying is slower than racing.
    const race = planDrive({ seed, laps: 1 }).lapTimesMs[0];
    assert.ok(plan.lapTimesMs[0] > 1.3 * race);
  }
});

Deno.test("survey: the straddling wheels run just beyond the edge", () => {
  const { plan, frames } = run(6, "survey");
  const c = plan.circuit;
  for (const f of frames) {
    if (f.currentLap !== 1 && f.currentLap !== 2) continue;
    const loc = c.locate(f.posX, f.posZ)!;
    // Around the line the car crosses the road from one border to the other.
    if (loc.s < 70 || loc.s > c.length - 70) continue;
    const s = f.surface!.surface;
    if (f.currentLap === 1 && !(s[0] !== "T" && s[1] === "T")) continue;
    if (f.currentLap === 2 && !(s[1] !== "T" && s[0] === "T")) continue;
    const wheel = Math.abs(loc.lateral) + GR3_CAR.trackWidth / 2;
    const beyond = wheel - loc.width / 2;
    assert.ok(beyond > 0.2 && beyond < 0.5, `${beyond} m beyond the edge`);
    assert.equal(Math.sign(loc.lateral), f.currentLap === 1 ? 1 : -1);
  }
});

Deno.test("frames: orientation and road plane follow the heading and the hills", () => {
  const { frames } = run(4, "race");
  for (const f of frames) {
    assert.ok(Math.abs(Math.hypot(f.rotX, f.rotY, f.rotZ, f.rotW) - 1) < 1e-9);
    // As in GT7 captures, the quaternion's yaw is the heading turned half a revolution.
    const heading = Math.atan2(f.velX, f.velZ);
    let diff = 2 * Math.atan2(f.rotY, f.rotW) + Math.PI - heading;
    diff -= 2 * Math.PI * Math.round(diff / (2 * Math.PI));
    assert.ok(Math.abs(diff) < 0.01, `yaw off by ${diff}`);
    const [nx, ny, nz, d] = f.roadPlane;
    assert.ok(Math.abs(Math.hypot(nx, ny, nz) - 1) < 1e-9);
    assert.ok(Math.abs(nx * f.posX + ny * f.posY + nz * f.posZ + d) < 1e-6);
    // The road normal leans against the direction of a climb.
    assert.ok((nx * f.velX + nz * f.velZ) * f.velY <= 1e-12);
  }
  const ys = frames.map((f) => f.posY);
  assert.ok(Math.max(...ys) - Math.min(...ys) > 0.5, "no hills");
});
