import { strict as assert } from "node:assert";
import fc from "fast-check";
import type { LapSamples } from "../../../src/core/laps/columns.ts";
import { computeMetrics, timeWeights } from "../../../src/core/laps/metrics.ts";
import { packSurface } from "../../../src/core/laps/surface_code.ts";

/** n ticks at 60 Hz, parked and off the pedals, with per-column overrides. */
function samples(n: number, over: Partial<LapSamples> = {}): LapSamples {
  const fill = (v: number) => Array<number>(n).fill(v);
  return {
    t: Array.from({ length: n }, (_, i) => i / 60),
    dist: fill(0),
    speed: fill(0),
    throttle: fill(0),
    brake: fill(0),
    coast: fill(0),
    tire_slip: fill(1),
    body_height: fill(80),
    pos_x: fill(0),
    pos_z: fill(0),
    ...over,
  };
}

Deno.test("120 ticks at 50 m/s full throttle, fuel 100 -> 98", () => {
  const n = 120;
  const m = computeMetrics(
    samples(n, {
      speed: Array(n).fill(50 * 3.6),
      throttle: Array(n).fill(100),
      dist: Array.from({ length: n }, (_, i) => (50 * i) / 60),
    }),
    100,
    98,
  );
  assert.equal(m.total_ticks, 120);
  assert.equal(m.fuel_consumed, 2);
  assert.equal(m.full_throttle_pct, 100);
  assert.equal(m.full_brake_pct, 0);
  assert.equal(m.coasting_pct, 0);
  assert.equal(m.max_speed, 180);
});

Deno.test("50/30/20 ticks of throttle, brake and coasting give 50/30/20 %", () => {
  const pattern = (a: number, b: number, c: number) => [
    ...Array(50).fill(a),
    ...Array(30).fill(b),
    ...Array(20).fill(c),
  ];
  const m = computeMetrics(
    samples(100, {
      throttle: pattern(100, 0, 0),
      brake: pattern(0, 100, 0),
      coast: pattern(0, 0, 1),
    }),
    0,
    0,
  );
  assert.equal(m.full_throttle_pct, 50);
  assert.equal(m.full_brake_pct, 30);
  assert.equal(m.coasting_pct, 20);
});

Deno.test("thresholds: throttle and brake >= 98, coast > 0, tyre slip >= 1.1", () => {
  const m = computeMetrics(
    samples(4, {
      throttle: [97.9, 98, 100, 0],
      brake: [98, 97.99, 0, 0],
      coast: [0, 0, 0, 0.5],
      tire_slip: [1.0999, 1.1, 1.5, 1],
    }),
    0,
    0,
  );
  assert.equal(m.full_throttle_pct, 50);
  assert.equal(m.full_brake_pct, 25);
  assert.equal(m.coasting_pct, 25);
  assert.equal(m.tire_spin_pct, 50);
});

Deno.test("percentages are time-weighted when packets were dropped", () => {
  // Ticks 0..4 full throttle at 60 Hz; tick 5 arrives 6 frames after tick 4
  // (5 dropped), so the gap belongs to tick 5, which is off the throttle.
  const t = [0, 1, 2, 3, 4, 10, 11, 12, 13, 14].map((f) => f / 60);
  const throttle = [100, 100, 100, 100, 100, 0, 0, 0, 0, 0];
  const m = computeMetrics(samples(10, { t, throttle }), 0, 0);
  // 5 of 15 frames at full throttle, not 5 of 10 ticks.
  assert.equal(m.full_throttle_pct, 33.3);
});

Deno.test("timeWeights: first tick takes the first interval, backwards steps weigh 0", () => {
  assert.deepEqual([...timeWeights([0, 2, 3, 1, 5])], [2, 2, 1, 0, 4]);
  assert.deepEqual([...timeWeights([7])], [1]);
  assert.deepEqual([...timeWeights([])], []);
  // A clock that never moves falls back to one weight per tick.
  assert.deepEqual([...timeWeights([3, 3, 3])], [1, 1, 1]);
});

Deno.test("with equal intervals the percentages are tick counts", () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(0, 50, 98, 100), { minLength: 2, maxLength: 300 }),
      (th) => {
        const n = th.length;
        const t = Array.from({ length: n }, (_, i) => i); // integers: exactly equal weights
        const m = computeMetrics(samples(n, { t, throttle: th }), 0, 0);
        const count = th.filter((v) => v >= 98).length;
        assert.equal(m.full_throttle_pct, Math.round((1000 * count) / n) / 10);
      },
    ),
  );
});

Deno.test("aids: 25 TCS + 25 TCS|ASM + 50 clear -> TCS 50 %, ASM 25 %", () => {
  const aids = [...Array(25).fill(1), ...Array(25).fill(3), ...Array(50).fill(0)];
  const m = computeMetrics(samples(100, { aids }), 0, 0);
  assert.equal(m.tcs_active_pct, 50);
  assert.equal(m.asm_active_pct, 25);
});

Deno.test("aids: other bits are ignored; a missing or short column gives 0", () => {
  const m = computeMetrics(samples(4, { aids: [4, 8, 12, 5] }), 0, 0);
  assert.equal(m.tcs_active_pct, 25);
  assert.equal(m.asm_active_pct, 0);
  const missing = computeMetrics(samples(4), 0, 0);
  assert.equal(missing.tcs_active_pct, 0);
  assert.equal(missing.asm_active_pct, 0);
  const short = computeMetrics(samples(4, { aids: [3, 3, 3] }), 0, 0);
  assert.equal(short.tcs_active_pct, 0);
  assert.equal(short.asm_active_pct, 0);
});

Deno.test("off track: counted from the surface column, unknown without it", () => {
  const surf = (...parts: [string, number][]) =>
    parts.flatMap(([l, k]) => Array(k).fill(packSurface(l)));

  const one = computeMetrics(
    samples(30, { surface: surf(["TTTT", 10], ["GGGT", 6], ["TTTT", 14]) }),
    0,
    0,
  );
  assert.equal(one.off_track_count, 1);
  assert.equal(one.clean_lap, false);

  const five = computeMetrics(
    samples(30, { surface: surf(["TTTT", 10], ["GGGT", 5], ["TTTT", 15]) }),
    0,
    0,
  );
  assert.equal(five.off_track_count, 0);
  assert.equal(five.clean_lap, true);

  const twoWheels = computeMetrics(samples(30, { surface: surf(["GGTT", 30]) }), 0, 0);
  assert.equal(twoWheels.off_track_count, 0);
  assert.equal(twoWheels.clean_lap, true);

  for (const surface of [undefined, Array(30).fill(0), surf(["GGGG", 29])]) {
    const m = computeMetrics(samples(30, { surface }), 0, 0);
    assert.equal(m.off_track_count, -1, `surface ${surface?.length}`);
    assert.equal(m.clean_lap, null);
  }
});

Deno.test("fuel consumed is never negative and rounds to 3 dp", () => {
  assert.equal(computeMetrics(samples(2), 40, 45).fuel_consumed, 0);
  assert.equal(computeMetrics(samples(2), 50.3, 48.1).fuel_consumed, 2.2);
});

Deno.test("max speed and min body height over the lap", () => {
  const m = computeMetrics(
    samples(5, { speed: [10, 250.55, 30, 0, 249], body_height: [80, 75.5, 61.2, 90, 70] }),
    0,
    0,
  );
  assert.equal(m.max_speed, 250.55);
  assert.equal(m.min_body_height, 61.2);
});

Deno.test("an empty lap gives zeros and an unknown off-track count", () => {
  assert.deepEqual(computeMetrics(samples(0), 0, 0), {
    total_ticks: 0,
    fuel_consumed: 0,
    full_throttle_pct: 0,
    full_brake_pct: 0,
    coasting_pct: 0,
    tire_spin_pct: 0,
    max_speed: 0,
    min_body_height: 0,
    tcs_active_pct: 0,
    asm_active_pct: 0,
    off_track_count: -1,
    clean_lap: null,
  });
});

Deno.test("a single tick weighs fully", () => {
  const m = computeMetrics(samples(1, { throttle: [100], speed: [12] }), 0, 0);
  assert.equal(m.full_throttle_pct, 100);
  assert.equal(m.max_speed, 12);
});

Deno.test("a 120,000-tick lap does not overflow the stack", () => {
  const n = 120_000;
  const m = computeMetrics(
    samples(n, { speed: Array.from({ length: n }, (_, i) => i % 300) }),
    0,
    0,
  );
  assert.equal(m.max_speed, 299);
  assert.equal(m.total_ticks, n);
});
