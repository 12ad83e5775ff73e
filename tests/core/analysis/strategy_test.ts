/**
 * Fuel and race strategy against numbers worked out by hand: which laps
 * count, laps and minutes to empty, the pit lap of races in laps and in
 * minutes, fuel that finishes exactly, and no laps at all (the median itself:
 * tests/core/median_test.ts).
 */
import { strict as assert } from "node:assert";
import {
  fuelStrategy,
  greenLaps,
  type LapStats,
  lapStats,
  raceLaps,
  raceStrategy,
  type StrategyLap,
} from "../../../src/core/analysis/strategy.ts";

const CAR = 3315;

function lap(number: number, fuelStart: number, fuelEnd: number, timeMs: number, extra = {}) {
  return {
    number,
    time_ms: timeMs,
    complete: true,
    fuel_start: fuelStart,
    fuel_end: fuelEnd,
    car_id: CAR,
    ...extra,
  } satisfies StrategyLap;
}

/**
 * A stint with a pit stop in lap 4 (fuel rises from 42.4 to 60 inside it),
 * its out-lap 5, an incomplete lap 7, an untimed lap 8 and a lap 9 in
 * another car: only laps 1, 2, 3 and 6 are green.
 */
const STINT = [
  lap(1, 50, 47.5, 90_000), // 2.5 l
  lap(2, 47.5, 45.2, 91_000), // 2.3 l
  lap(3, 45.2, 42.4, 92_000), // 2.8 l
  lap(4, 42.4, 60, 120_000), // pit lap: refuelled inside it
  lap(5, 60, 57.4, 100_000), // out-lap of the pit lap
  lap(6, 57.4, 55.0, 89_000), // 2.4 l
  lap(7, 55.0, 52.6, 90_000, { complete: false }),
  lap(8, 52.6, 50.2, 0),
  lap(9, 50.2, 47.7, 90_000, { car_id: 1234 }),
];

Deno.test("green laps leave out pit laps, out-laps, incomplete and untimed laps, other cars", () => {
  assert.deepEqual(greenLaps(STINT, CAR).map((l) => l.number), [1, 2, 3, 6]);
});

Deno.test("a refuel at the line makes the lap before it the pit lap and the lap after the out-lap", () => {
  const laps = [
    lap(1, 30, 27, 90_000),
    lap(2, 27, 24, 90_000), // ends with 24 ...
    lap(3, 80, 77, 95_000), // ... and lap 3 starts with 80: fuel was added at the line
    lap(4, 77, 74, 90_000),
    lap(5, 74, 71, 90_000),
  ];
  // Lap 2 is the pit lap, lap 3 its out-lap.
  assert.deepEqual(greenLaps(laps, CAR).map((l) => l.number), [1, 4, 5]);
});

Deno.test("lap stats over an even count of green laps: medians of the two middle laps", () => {
  const stats = lapStats(STINT, CAR);
  // Fuel of laps 1, 2, 3, 6: 2.5, 2.3, 2.8, 2.4 -> sorted 2.3, 2.4, 2.5, 2.8 -> (2.4 + 2.5) / 2.
  // Times: 90,000, 91,000, 92,000, 89,000 -> sorted 89,000, 90,000, 91,000, 92,000
  // -> (90,000 + 91,000) / 2 = 90,500.
  assert.equal(stats.laps_used, 4);
  assert.ok(Math.abs(stats.fuel_per_lap! - 2.45) < 1e-12, String(stats.fuel_per_lap));
  assert.equal(stats.lap_time_ms, 90_500);
});

Deno.test("fuel strategy: laps and minutes the fuel on board lasts", () => {
  const stats: LapStats = { laps_used: 4, fuel_per_lap: 2.45, lap_time_ms: 90_500 };
  // 55 / 2.45 = 22.4489... laps -> 22.45; 22.4489... x 90,500 ms = 2,031,632.65 ms
  // = 33.8605... min -> 33.86.
  assert.deepEqual(fuelStrategy(stats, 55), {
    laps_used: 4,
    fuel_per_lap: 2.45,
    lap_time_ms: 90_500,
    laps_to_empty: 22.45,
    minutes_to_empty: 33.86,
  });
  // Without fuel the medians stand but nothing lasts.
  assert.deepEqual(fuelStrategy(stats, null), {
    laps_used: 4,
    fuel_per_lap: 2.45,
    lap_time_ms: 90_500,
    laps_to_empty: null,
    minutes_to_empty: null,
  });
});

const STATS: LapStats = { laps_used: 5, fuel_per_lap: 2.5, lap_time_ms: 90_000 };

Deno.test("a race in laps that the fuel does not finish: pit on the last lap the fuel completes", () => {
  // Lap 11, 45 s in: 10 laps driven plus 45,000 / 90,000 = 0.5 of this one -> 10.5 driven.
  // 30 laps - 10.5 = 19.5 to go; 40 l / 2.5 = 16 laps of fuel; 16 < 19.5 -> a stop.
  // The fuel runs out at 10.5 + 16 = 26.5 laps: the last lap it completes is lap 26.
  assert.deepEqual(raceStrategy(STATS, { laps: 30 }, { lap: 11, lap_clock_ms: 45_000, fuel: 40 }), {
    laps_used: 5,
    fuel_per_lap: 2.5,
    lap_time_ms: 90_000,
    laps_to_empty: 16,
    minutes_to_empty: 24, // 16 x 90 s = 1,440 s
    race: { laps: 30, minutes: null },
    laps_remaining: 19.5,
    fuel: 40,
    finishes: false,
    pit_on_lap: 26,
  });
});

Deno.test("fuel that lasts exactly the laps remaining finishes the race", () => {
  // 19.5 laps to go (as above) x 2.5 l = 48.75 l exactly.
  const exact = raceStrategy(STATS, { laps: 30 }, { lap: 11, lap_clock_ms: 45_000, fuel: 48.75 });
  assert.equal(exact.finishes, true);
  assert.equal(exact.pit_on_lap, null);
  // 0.1 + 0.2 l a lap is 0.30000000000000004 in floating point, so 0.9 l lasts
  // 2.9999999999999996 laps: still exactly the 3 laps of a 3-lap race from the grid.
  const tiny: LapStats = { laps_used: 3, fuel_per_lap: 0.1 + 0.2, lap_time_ms: 60_000 };
  assert.ok(0.9 / (0.1 + 0.2) < 3);
  const sum = raceStrategy(tiny, { laps: 3 }, { lap: null, lap_clock_ms: null, fuel: 0.9 });
  assert.equal(sum.laps_remaining, 3);
  assert.equal(sum.finishes, true);
  // A drop less and it does not: 0.89 / 0.3 = 2.9666 laps -> pit at the end of lap 2.
  const short = raceStrategy(tiny, { laps: 3 }, { lap: null, lap_clock_ms: null, fuel: 0.89 });
  assert.equal(short.finishes, false);
  assert.equal(short.pit_on_lap, 2);
});

Deno.test("a timed race: the laps the clock runs out on at the median lap time", () => {
  const stats: LapStats = { laps_used: 4, fuel_per_lap: 2.45, lap_time_ms: 90_500 };
  // 60 min = 3,600,000 ms / 90,500 = 39.78 laps -> the 40th lap is finished: 40 laps.
  assert.equal(raceLaps({ minutes: 60 }, 90_500), 40);
  // Exactly 2 laps of 90 s in 3 minutes: the clock runs out on the line, 2 laps.
  assert.equal(raceLaps({ minutes: 3 }, 90_000), 2);
  assert.equal(raceLaps({ minutes: 3 }, null), null);
  // On lap 1 at the line (0 driven): 40 laps to go. 90 l / 2.45 = 36.73 laps -> pit on lap 36.
  const plan = raceStrategy(stats, { minutes: 60 }, { lap: 1, lap_clock_ms: 0, fuel: 90 });
  assert.deepEqual(
    [plan.race, plan.laps_remaining, plan.laps_to_empty, plan.finishes, plan.pit_on_lap],
    [{ laps: null, minutes: 60 }, 40, 36.73, false, 36],
  );
  // 100 l lasts 40.82 laps: it finishes.
  const full = raceStrategy(stats, { minutes: 60 }, { lap: 1, lap_clock_ms: 0, fuel: 100 });
  assert.deepEqual([full.finishes, full.pit_on_lap], [true, null]);
});

Deno.test("the pit lap is never before the lap being driven; a finished race needs nothing", () => {
  // Lap 5 at the line with 1 l: 0.4 laps of fuel, runs out in lap 5 itself: pit now, lap 5.
  const late = raceStrategy(STATS, { laps: 10 }, { lap: 5, lap_clock_ms: 0, fuel: 1 });
  assert.deepEqual([late.laps_remaining, late.finishes, late.pit_on_lap], [6, false, 5]);
  // Lap 12 of a 10-lap race (cool-down): nothing remains.
  const over = raceStrategy(STATS, { laps: 10 }, { lap: 12, lap_clock_ms: 5_000, fuel: 1 });
  assert.deepEqual([over.laps_remaining, over.finishes, over.pit_on_lap], [0, true, null]);
  // A lap clock beyond the median lap counts as the whole lap, no more.
  const slow = raceStrategy(STATS, { laps: 10 }, { lap: 3, lap_clock_ms: 200_000, fuel: 100 });
  assert.equal(slow.laps_remaining, 7);
});

Deno.test("no laps: every derived figure is null; laps that used no fuel always finish", () => {
  const none = lapStats([], CAR);
  assert.deepEqual(none, { laps_used: 0, fuel_per_lap: null, lap_time_ms: null });
  assert.deepEqual(raceStrategy(none, { laps: 10 }, { lap: 3, lap_clock_ms: 1_000, fuel: 30 }), {
    laps_used: 0,
    fuel_per_lap: null,
    lap_time_ms: null,
    laps_to_empty: null,
    minutes_to_empty: null,
    race: { laps: 10, minutes: null },
    laps_remaining: null,
    fuel: 30,
    finishes: null,
    pit_on_lap: null,
  });
  const dry: LapStats = { laps_used: 2, fuel_per_lap: 0, lap_time_ms: 90_000 };
  const plan = raceStrategy(dry, { laps: 10 }, { lap: 1, lap_clock_ms: 0, fuel: 100 });
  assert.deepEqual([plan.laps_to_empty, plan.finishes, plan.pit_on_lap], [null, true, null]);
  // Unknown fuel: whether it finishes is unknown.
  const blind = raceStrategy(STATS, { laps: 10 }, { lap: 1, lap_clock_ms: 0, fuel: null });
  assert.deepEqual([blind.laps_remaining, blind.finishes, blind.pit_on_lap], [10, null, null]);
});
