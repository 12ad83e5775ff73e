import { strict as assert } from "node:assert";
import fc from "fast-check";
import { compareLaps } from "../../../src/core/analysis/compare.ts";
import { timeDelta } from "../../../src/core/analysis/delta.ts";
import { distanceGrid } from "../../../src/core/analysis/distance_grid.ts";
import { timeAt, traceOf } from "../../../src/core/analysis/lap_trace.ts";
import { noFixtures } from "../../_fixtures.ts";
import { asLap, broadBeanLaps, driveLap, slowed, stadium, suzukaLap } from "./_laps.ts";

const TICK = 1 / 60;

/** Arbitrary laps round a stadium: a random speed profile, pauses and lost packets. */
const lapArb = fc
  .record({
    straight: fc.integer({ min: 100, max: 800 }),
    radius: fc.integer({ min: 20, max: 200 }),
    speeds: fc.array(fc.integer({ min: 40, max: 300 }), { minLength: 2, maxLength: 12 }),
    gaps: fc.array(fc.tuple(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 30 })), {
      maxLength: 4,
    }),
  })
  .map(({ straight, radius, speeds, gaps }) => {
    const path = stadium(straight, radius);
    const speed = (s: number) => speeds[Math.floor((s / path.length) * speeds.length)];
    return driveLap(path, { speed, gaps: new Map(gaps) });
  });

Deno.test("property: a lap compared with itself has a zero delta everywhere", () => {
  fc.assert(
    fc.property(lapArb, fc.constantFrom(0.5, 1, 3.7), (samples, step) => {
      const copy = structuredClone(samples);
      const cmp = compareLaps({
        ref: asLap(1, samples),
        laps: [asLap(1, samples), asLap(2, copy)],
        step,
      });
      for (const lap of cmp.laps) assert.ok(lap.delta_s.every((d) => d === 0));
    }),
    { numRuns: 60 },
  );
});

Deno.test("property: a lap slowed by k is behind by (k - 1) times the time so far", () => {
  fc.assert(
    fc.property(lapArb, fc.double({ min: 1.001, max: 2, noNaN: true }), (samples, k) => {
      const ref = traceOf(samples);
      const slow = traceOf(slowed(samples, k));
      const grid = distanceGrid(ref.length, 1);
      const delta = timeDelta(slow, ref, grid);
      for (let i = 0; i < grid.length; i++) {
        const expected = (k - 1) * timeAt(ref, grid[i]);
        assert.ok(Math.abs(delta[i] - expected) <= 1e-9 * (1 + expected), `at ${grid[i]} m`);
        if (i > 0) assert.ok(delta[i] >= delta[i - 1] - 1e-12, "the delta only grows");
      }
      assert.ok(Math.abs(delta[grid.length - 1] - (k - 1) * ref.duration) <= 1e-9);
    }),
    { numRuns: 60 },
  );
});

Deno.test("the final delta is exactly the difference of the sample durations", () => {
  const path = stadium(500, 60);
  const a = driveLap(path, { speed: () => 160 });
  const b = driveLap(path, { speed: (s) => (s < 700 ? 150 : 170), gaps: new Map([[200, 12]]) });
  const ra = traceOf(a);
  const rb = traceOf(b);
  const delta = timeDelta(rb, ra, distanceGrid(ra.length, 1));
  assert.equal(delta[0], 0);
  assert.equal(delta[delta.length - 1], rb.duration - ra.duration);
});

Deno.test({
  name: "Broad Bean: the delta at the line equals the laps' time difference within one sample",
  ignore: noFixtures,
  fn() {
    const laps = broadBeanLaps();
    assert.deepEqual(laps.map((l) => l.samples.t.length), [1963, 1954, 1961, 1959]);
    for (const ref of laps) {
      const cmp = compareLaps({ ref, laps });
      for (const [i, lap] of cmp.laps.entries()) {
        const atLine = lap.delta_s[lap.delta_s.length - 1];
        const byGame = (laps[i].time_ms - ref.time_ms) / 1000;
        assert.ok(Math.abs(atLine - byGame) <= TICK, `lap ${lap.id} vs ${ref.id}: ${atLine}`);
        // Exactly the difference of the sample counts, as every tick is 1/60 s.
        const ticks = laps[i].samples.t.length - ref.samples.t.length;
        assert.equal(atLine, Math.round((ticks / 60) * 1000) / 1000);
        assert.equal(lap.delta_s[0], 0);
      }
    }
  },
});

Deno.test({
  name: "Suzuka: the delta at the line against a copy 1 % slower is 1 % of the lap",
  ignore: noFixtures,
  fn() {
    const lap = suzukaLap();
    assert.equal(lap.samples.t.length, 5942);
    const slow = asLap(11, slowed(lap.samples, 1.01), Math.round(lap.time_ms * 1.01));
    const cmp = compareLaps({ ref: lap, laps: [lap, slow], step: 5 });
    assert.equal(cmp.distance.length, Math.floor(5751.78 / 5) + 2);
    assert.equal(cmp.distance[cmp.distance.length - 1], 5751.78);
    assert.ok(cmp.laps[0].delta_s.every((d) => d === 0));
    const atLine = cmp.laps[1].delta_s[cmp.laps[1].delta_s.length - 1];
    // 5942 ticks of 1/60 s, 1 % of them: 0.990 s; the game's times differ by 990 ms.
    assert.equal(atLine, 0.99);
    assert.ok(Math.abs(atLine - (slow.time_ms - lap.time_ms) / 1000) <= TICK);
  },
});
