import { strict as assert } from "node:assert";
import fc from "fast-check";
import { detectCorners } from "../../../src/core/analysis/corners_detect.ts";
import { traceOf } from "../../../src/core/analysis/lap_trace.ts";
import { pointAt, sectorPlan } from "../../../src/core/analysis/sector_plan.ts";
import { bestSectors, lapSectorTimes } from "../../../src/core/analysis/sectors.ts";
import type { Section } from "../../../src/core/bundle/types.ts";
import { BadRequest } from "../../../src/core/errors.ts";
import { noFixtures } from "../../_fixtures.ts";
import { asLap, broadBeanLaps, driveLap, stadium } from "./_laps.ts";

const TICK = 1 / 60;
const path = stadium(600, 80);

/** Laps round the same stadium: random speeds, some running wide, reported times off by up to a tick. */
const lapArb = fc
  .record({
    speeds: fc.array(fc.integer({ min: 60, max: 280 }), { minLength: 1, maxLength: 10 }),
    wide: fc.double({ min: -4, max: 4, noNaN: true }),
    skew: fc.integer({ min: -16, max: 16 }),
  })
  .map(({ speeds, wide, skew }) => {
    const speed = (s: number) => speeds[Math.floor((s / path.length) * speeds.length)];
    const samples = driveLap(path, { speed, offset: (s) => wide * Math.sin(s / 90) });
    const duration = samples.t[samples.t.length - 1];
    return { samples, time_ms: Math.round(duration * 1000) + skew };
  });

Deno.test("property: the sectors of a lap sum to its time within one sample", () => {
  fc.assert(
    fc.property(lapArb, lapArb, (planned, lap) => {
      const plan = sectorPlan(traceOf(planned.samples));
      assert.equal(plan.covers_lap, true);
      const times = lapSectorTimes(asLap(1, lap.samples, lap.time_ms), plan);
      assert.ok(times.times_s.every((t) => t !== null && t > 0));
      const sum = times.times_s.reduce((a, b) => a! + b!, 0)!;
      const duration = lap.samples.t[lap.samples.t.length - 1];
      assert.ok(Math.abs(sum - lap.time_ms / 1000) < 1e-9, "exactly the game's time");
      assert.ok(Math.abs(sum - duration) <= TICK, "within a sample of the sample time");
    }),
    { numRuns: 60 },
  );
});

Deno.test("property: the theoretical best is never slower than the best lap", () => {
  fc.assert(
    fc.property(fc.array(lapArb, { minLength: 1, maxLength: 5 }), (drawn) => {
      const laps = drawn.map((l, i) => asLap(i + 1, l.samples, l.time_ms));
      const bests = bestSectors(laps);
      const fastest = Math.min(...laps.map((l) => l.time_ms));
      assert.equal(bests.best_lap_ms, fastest);
      assert.equal(laps.find((l) => l.id === bests.best_lap_id)!.time_ms, fastest);
      assert.ok(bests.theoretical_best_ms !== null);
      assert.ok(bests.theoretical_best_ms! <= bests.best_lap_ms!);
      if (laps.length === 1) assert.equal(bests.theoretical_best_ms, fastest);
    }),
    { numRuns: 40 },
  );
});

Deno.test("default sectors split at the corner boundaries nearest a third and two thirds", () => {
  const samples = driveLap(path, { speed: () => 150 });
  const trace = traceOf(samples);
  const corners = detectCorners(trace);
  assert.equal(corners.length, 2);
  const bests = bestSectors([asLap(1, samples)]);
  assert.equal(bests.source, "default");
  assert.deepEqual(bests.sectors.map((s) => [s.n, s.name, s.lap_id]), [
    [1, "Sector 1", 1],
    [2, "Sector 2", 1],
    [3, "Sector 3", 1],
  ]);
  // A third of 1703 m is 568 m: the first bend's entry is nearest; two thirds (1135 m): its exit.
  const r1 = (x: number) => Math.round(x * 10) / 10;
  assert.ok(Math.abs(bests.sectors[0].end_m! - r1(corners[0].entry_m)) <= 0.2);
  assert.ok(Math.abs(bests.sectors[1].end_m! - r1(corners[0].exit_m)) <= 0.2);
  assert.equal(bests.sectors[0].start_m, 0);
  assert.equal(bests.sectors[2].end_m, r1(trace.length));
});

/** Sections laid on a lap at the given distances. */
function sections(samples: ReturnType<typeof driveLap>, cuts: [number, number][]): Section[] {
  const trace = traceOf(samples);
  return cuts.map(([a, b], i) => ({
    n: i + 1,
    name: `S${i + 1}`,
    start: pointAt(trace, a),
    end: pointAt(trace, b),
  }));
}

Deno.test("authored sections laid end to end tile the lap and time it exactly", () => {
  const samples = driveLap(path, { speed: (s) => (s < 800 ? 140 : 190) });
  const length = samples.dist[samples.dist.length - 1];
  const secs = sections(samples, [[0.5, 500], [500, 1100], [1100, length - 3]]);
  const lap = asLap(1, samples);
  const plan = sectorPlan(traceOf(samples), { sections: secs });
  assert.equal(plan.source, "authored");
  assert.equal(plan.covers_lap, true);
  assert.deepEqual(plan.sectors.map((s) => s.name), ["S1", "S2", "S3"]);
  assert.equal(plan.sectors[0].start, null);
  assert.equal(plan.sectors[2].end, null);
  const times = lapSectorTimes(lap, plan);
  const sum = times.times_s.reduce((a, b) => a! + b!, 0)!;
  assert.ok(Math.abs(sum - lap.time_ms / 1000) < 1e-9);
  const bests = bestSectors([lap], { sections: secs });
  assert.equal(bests.theoretical_best_ms, lap.time_ms);
});

Deno.test("sections that leave gaps are timed as authored, with no theoretical best", () => {
  const samples = driveLap(path, { speed: () => 150 });
  const secs = sections(samples, [[100, 400], [900, 1000]]);
  const bests = bestSectors([asLap(1, samples)], { sections: secs });
  assert.equal(bests.source, "authored");
  assert.equal(bests.theoretical_best_ms, null);
  assert.deepEqual(bests.sectors.map((s) => [s.name, s.start_m, s.end_m]), [
    ["S1", 100, 400],
    ["S2", 900, 1000],
  ]);
  // 300 m at 150 km/h is 7.2 s; 100 m is 2.4 s.
  assert.deepEqual(bests.sectors.map((s) => s.best_s), [7.2, 2.4]);
});

Deno.test("no laps is refused on path laps", () => {
  assert.throws(() => bestSectors([]), (e: unknown) => {
    assert.ok(e instanceof BadRequest);
    assert.equal(e.issues[0].path, "laps");
    return true;
  });
});

Deno.test({
  name: "Broad Bean: sector bests across the four laps, and a theoretical best under the best lap",
  ignore: noFixtures,
  fn() {
    const laps = broadBeanLaps();
    const bests = bestSectors(laps);
    assert.equal(bests.best_lap_id, 2);
    assert.equal(bests.best_lap_ms, 32559);
    assert.deepEqual(bests.sectors.map((s) => [s.start_m, s.end_m]), [
      [0, 702],
      [702, 1200],
      [1200, 1703.2],
    ]);
    assert.deepEqual(bests.sectors.map((s) => [s.best_s, s.lap_id]), [
      [12.226, 1],
      [9.138, 3],
      [10.93, 2],
    ]);
    assert.equal(bests.theoretical_best_ms, 32294);
    assert.ok(bests.theoretical_best_ms! <= bests.best_lap_ms!);
  },
});
