import { strict as assert } from "node:assert";
import type { Wheels } from "../../../src/core/gt7/frame.ts";
import { corneringWidth } from "../../../src/core/survey/cornering_width.ts";
import { solveEdgeRide } from "../../../src/core/survey/edge_ride_width.ts";
import { SurveyEngine } from "../../../src/core/survey/survey_step.ts";
import { betterMemory, widthInUse } from "../../../src/core/survey/track_width.ts";
import { leftOf } from "../../../src/core/gt7/handedness.ts";
import { frame, letters, rps } from "./_frames.ts";

const R: Wheels = [0.33, 0.33, 0.34, 0.34];

/** Wheel speeds of a car of track `tw` turning left at `yaw` rad/s at `v` m/s. */
function turning(v: number, yaw: number, tw: number, front = 1, rear = 1): Wheels {
  const inner = v - yaw * tw / 2;
  const outer = v + yaw * tw / 2;
  return rps([inner * front, outer * front, inner * rear, outer * rear], R);
}

Deno.test("cornering measures the track even with one axle locked or spinning evenly", () => {
  const near = (w: number | string) => typeof w === "number" && Math.abs(w - 1.82) <= 0.01;
  assert.ok(near(corneringWidth(20, 0.5, 0, turning(20, 0.5, 1.82), R)));
  assert.ok(near(corneringWidth(20, -0.5, 0, turning(20, 0.5, 1.82), R)));
  // Rear axle locked (0 rad/s): the front still measures.
  const locked = turning(20, 0.5, 1.82);
  assert.ok(near(corneringWidth(20, 0.5, 0, [locked[0], locked[1], 0, 0], R)));
  // On throttle: rears 3 % fast, within the 5 % gate, and the front (no slip) is preferred.
  assert.ok(near(corneringWidth(20, 0.5, 0, turning(20, 0.5, 1.82, 1, 1.03), R)));
  // Both axles 3 % fast: scaled back to the car's speed, still 1.82.
  assert.ok(near(corneringWidth(20, 0.5, 0, turning(20, 0.5, 1.82, 1.03, 1.03), R)));
});

Deno.test("cornering refuses slow, straight, braking, spinning and locked ticks", () => {
  assert.equal(corneringWidth(7.9, 0.5, 0, turning(7.9, 0.5, 1.82), R), "slow");
  assert.equal(corneringWidth(20, 0.1, 0, turning(20, 0.1, 1.82), R), "straight");
  assert.equal(corneringWidth(20, 0.5, 9, turning(20, 0.5, 1.82), R), "braking");
  // Symmetric spin: both axles 20 % fast.
  assert.equal(corneringWidth(20, 0.5, 0, turning(20, 0.5, 1.82, 1.2, 1.2), R), "slip");
  assert.equal(corneringWidth(20, 0.5, 0, [0, 0, 0, 0], R), "locked_axle");
});

Deno.test("the width in use: cornering, then memory, then edge ride, then the assumed width", () => {
  const mem = { tw_m: 1.7, samples: 100, source: "cornering" as const };
  assert.deepEqual(widthInUse(1.82, mem, 1.5, 1.6), { tw_m: 1.82, source: "cornering" });
  assert.deepEqual(widthInUse(null, mem, 1.5, 1.6), { tw_m: 1.7, source: "memory" });
  assert.deepEqual(widthInUse(null, null, 1.5, 1.6), { tw_m: 1.5, source: "edge_ride" });
  assert.deepEqual(widthInUse(null, null, null, 1.6), { tw_m: 1.6, source: "assumed" });
  const more = { tw_m: 1.8, samples: 200, source: "cornering" as const };
  assert.equal(betterMemory(mem, more), more);
  assert.equal(betterMemory(more, mem), more);
  assert.equal(betterMemory(mem, { ...more, samples: 100 }), mem);
  assert.equal(betterMemory(null, null), null);
});

Deno.test("the engine switches to cornering after 60 accepted ticks", () => {
  const engine = new SurveyEngine(1.6);
  for (let i = 0; i < 59; i++) {
    engine.step(frame({ speed: 20, velX: 20, angVelY: 0.5, wheelRps: turning(20, 0.5, 1.82) }));
  }
  assert.equal(engine.width.source, "assumed");
  engine.step(frame({ speed: 20, velX: 20, angVelY: 0.5, wheelRps: turning(20, 0.5, 1.82) }));
  assert.equal(engine.width.source, "cornering");
  assert.ok(Math.abs(engine.width.tw_m - 1.82) < 1e-9);
  assert.deepEqual(engine.measuredWidth(), {
    tw_m: engine.width.tw_m,
    samples: 60,
    source: "cornering",
  });
  // Remembered widths give way to cornering, but beat the assumption.
  const fresh = new SurveyEngine(1.6);
  fresh.setMemory(1234, { tw_m: 1.75, samples: 500, source: "cornering" });
  assert.deepEqual(fresh.width, { tw_m: 1.75, source: "memory" });
  // Another car forgets both.
  fresh.step(frame({ carId: 99 }));
  assert.deepEqual(fresh.width, { tw_m: 1.6, source: "assumed" });
});

/**
 * Drives a car of track `tw` out over the straight edge x = 0 (tarmac at
 * x < 0) and back: heading +z, drifting +x at `angle` radians until all four
 * wheels are off, then drifting back at -`angle` until all are on again.
 */
function rideOutAndBack(engine: SurveyEngine, tw: number, angle: number, z0: number) {
  const wb = 2.6;
  const v = 10;
  let x = -2;
  let z = z0;
  let sign = 1;
  for (let i = 0; i < 400 && !(sign < 0 && x < -2); i++) {
    if (x > 1.5) sign = -1;
    const fx = sign * Math.sin(angle);
    const fz = Math.cos(angle);
    const [lx] = leftOf(fx, fz);
    const wheel = (a: number, s: number) => (x + a * wb / 2 * fx + s * tw / 2 * lx) < 0 ? "T" : "G";
    engine.step(frame({
      posX: x,
      posZ: z,
      velX: v * fx,
      velZ: v * fz,
      speed: v,
      wheelRps: rps([v, v, v, v]),
      surface: letters(wheel(1, 1) + wheel(1, -1) + wheel(-1, 1) + wheel(-1, -1), wb),
    }));
    x += v * fx / 60;
    z += v * fz / 60;
  }
}

Deno.test("rides out over a straight edge and back measure the track when nothing better is known", () => {
  const engine = new SurveyEngine(1.6);
  rideOutAndBack(engine, 1.7, 0.15, 0);
  rideOutAndBack(engine, 1.7, 0.13, 100);
  assert.equal(engine.widthSamples.edge_ride, 2);
  assert.equal(engine.width.source, "assumed");
  rideOutAndBack(engine, 1.7, 0.155, 200);
  assert.equal(engine.widthSamples.edge_ride, 3);
  assert.equal(engine.width.source, "edge_ride");
  assert.ok(Math.abs(engine.width.tw_m - 1.7) < 0.05, `edge ride measured ${engine.width.tw_m}`);
  // Cornering beats the edge ride once it has its 60 ticks.
  for (let i = 0; i < 60; i++) {
    engine.step(frame({ speed: 20, velX: 20, angVelY: 0.5, wheelRps: turning(20, 0.5, 1.82) }));
  }
  assert.equal(engine.width.source, "cornering");
});

Deno.test("a ride of one side's wheels at one heading does not pin the width down", () => {
  // Left wheels out and back along a line, heading constant: every width fits equally well.
  const ride = [
    { wheel: 0, out: true, tick: 0, x: 0, z: 0, fx: 0, fz: 1 },
    { wheel: 2, out: true, tick: 16, x: 0, z: 2.6, fx: 0, fz: 1 },
    { wheel: 0, out: false, tick: 60, x: 0, z: 10, fx: 0, fz: 1 },
  ];
  assert.equal(solveEdgeRide(ride, 2.6), null);
  assert.equal(solveEdgeRide(ride.slice(0, 2), 2.6), null);
});
