import { strict as assert } from "node:assert";
import { lapLength, signatureOf } from "../../../src/core/identify/signature.ts";
import { syntheticLaps } from "./_laps.ts";

function constant(n: number, kmh: number) {
  return {
    t: Array.from({ length: n }, (_, i) => (i + 1) / 60),
    speed: Array.from({ length: n }, () => kmh),
    pos_x: Array.from({ length: n }, (_, i) => i),
    pos_z: Array.from({ length: n }, (_, i) => -2 * i),
  };
}

Deno.test("lapLength integrates speed over time: 60 ticks at 72 km/h cover 20 m", () => {
  assert.ok(Math.abs(lapLength(constant(60, 72)) - 20) < 1e-9);
  assert.equal(lapLength(constant(0, 72)), 0);
  assert.ok(Math.abs(lapLength(constant(1, 72)) - 20 / 60) < 1e-12);
});

Deno.test("lapLength counts the time a gap in the samples spans (lost or thinned packets)", () => {
  // Ticks 1 and 2, then a jump to tick 62: the last sample stands for 60 ticks (1 s).
  const trace = {
    t: [1 / 60, 2 / 60, 62 / 60],
    speed: [36, 36, 36],
    pos_x: [0, 0, 0],
    pos_z: [0, 0, 0],
  };
  assert.ok(Math.abs(lapLength(trace) - (10 / 60 + 10 / 60 + 10)) < 1e-9);
});

Deno.test("lapLength skips backward steps in time and non-finite values", () => {
  const trace = {
    t: [1 / 60, 2 / 60, 1 / 60, 3 / 60, Number.NaN, 4 / 60],
    speed: [36, 36, 36, 36, 36, Number.POSITIVE_INFINITY],
    pos_x: [],
    pos_z: [],
  };
  // Ticks 1, 2 and 3 count; the backward step, the NaN time and the infinite speed add nothing.
  assert.ok(Math.abs(lapLength(trace) - 3 * 10 / 60) < 1e-9);
});

Deno.test("signatureOf gives the length and the bounding box, to the centimetre", () => {
  const trace = {
    t: [1 / 60, 2 / 60, 3 / 60],
    speed: [100, 100, 100],
    pos_x: [10.123, -5.5, 3],
    pos_z: [7, 8.456, -2.004],
  };
  assert.deepEqual(signatureOf(trace), {
    length_m: 1.39,
    min_x: -5.5,
    max_x: 10.12,
    min_z: -2,
    max_z: 8.46,
  });
});

Deno.test("signatureOf is null without a finite position, and ignores non-finite ones", () => {
  assert.equal(signatureOf({ t: [], speed: [], pos_x: [], pos_z: [] }), null);
  assert.equal(signatureOf({ t: [1], speed: [1], pos_x: [Number.NaN], pos_z: [1] }), null);
  const s = signatureOf({ t: [1, 2], speed: [0, 0], pos_x: [Number.NaN, 4], pos_z: [9, 5] });
  assert.deepEqual(s, { length_m: 0, min_x: 4, max_x: 4, min_z: 5, max_z: 5 });
});

Deno.test("a recorded lap's signature length is the recorder's own distance", () => {
  const [lap] = syntheticLaps(3);
  const s = signatureOf(lap.samples)!;
  const dist = lap.samples.dist[lap.samples.dist.length - 1];
  // Speeds are stored to 0.01 km/h, so the two agree to well under a metre on a 4 km lap.
  assert.ok(Math.abs(s.length_m - dist) < 0.5, `${s.length_m} vs ${dist}`);
  assert.ok(s.length_m > 3300 && s.length_m < 4800);
  assert.equal(s.min_x, Math.round(Math.min(...lap.samples.pos_x) * 100) / 100);
  assert.equal(s.max_z, Math.round(Math.max(...lap.samples.pos_z) * 100) / 100);
});
