/**
 * Lap coverage: the rule, the time-axis reading imports use, and the
 * tolerance checked against the clean laps it was derived from (the
 * captures' laps are in recorder_test.ts).
 */
import { strict as assert } from "node:assert";
import { noFixtures, readFixture } from "../../_fixtures.ts";
import {
  COVERAGE_FIELDS,
  coverageNote,
  expectedSamples,
  judgeCoverage,
  legacyCoverage,
  MAX_PACKET_GAP,
  SAMPLE_COUNT_TOLERANCE,
  timeAxisGaps,
} from "../../../src/core/laps/coverage.ts";
import { REQUIRED_COLUMNS } from "../../../src/core/laps/columns.ts";
import { buildImportedLap, parseLapFile } from "../../../src/core/laps/lap_file.ts";
import { finishRecordedLap } from "../../../src/core/laps/recorded_lap.ts";
import { planDrive } from "../../../src/core/synthetic/drive.ts";
import { syntheticLaps } from "../identify/_laps.ts";

Deno.test("expectedSamples is the lap time at 60 Hz, rounded", () => {
  assert.equal(expectedSamples(99_036), 5942);
  assert.equal(expectedSamples(115_244), 6915);
  assert.equal(expectedSamples(32_559), 1954);
  assert.equal(expectedSamples(1), 0);
});

Deno.test("judgeCoverage: the tolerance is 2 samples either way, and no gap over 3", () => {
  assert.equal(SAMPLE_COUNT_TOLERANCE, 2);
  const at = (samples: number, longestGap = 0, filled = 0) =>
    judgeCoverage({ timeMs: 99_036, samples, filled, longestGap });
  assert.deepEqual(COVERAGE_FIELDS.map((f) => at(5942, 1, 4)[f]), [5942, 5938, 4, 0, 1, true]);
  assert.equal(at(5940).complete, true);
  assert.equal(at(5939).complete, false);
  assert.equal(at(5944).complete, true);
  assert.equal(at(5945).complete, false);
  assert.equal(at(5945).samples_missing, 0);
  assert.equal(at(5942, 3).complete, true);
  // A gap of 4 cannot be filled, whatever the count says.
  assert.equal(at(5942, 4).complete, false);
  assert.deepEqual(COVERAGE_FIELDS.map((f) => at(5822, 120)[f]), [5942, 5822, 0, 120, 120, false]);
});

Deno.test("timeAxisGaps reads unfilled gaps from the steps of t", () => {
  const t = [1, 2, 3, 8, 9, 130, 131, 131, 130].map((k) => Math.round(k / 60 * 1e4) / 1e4);
  assert.deepEqual(timeAxisGaps(t), { longest: 120, missing: 124 });
  assert.deepEqual(timeAxisGaps([]), { longest: 0, missing: 0 });
  assert.deepEqual(timeAxisGaps([0.5]), { longest: 0, missing: 0 });
  // Another logger's clock, offset and not starting at 1/60 s: only the steps count.
  assert.deepEqual(timeAxisGaps([0.13033, 0.147, 0.16367]), { longest: 0, missing: 0 });
  // As live: up to 10 minutes of packets is loss, a longer step a restart (even an overflowing one).
  assert.equal(MAX_PACKET_GAP, 36_000);
  assert.deepEqual(timeAxisGaps([0, 600, 1200.05]), { longest: 35_999, missing: 35_999 });
  assert.deepEqual(timeAxisGaps([-1e308, 1e308, 1e308]), { longest: 0, missing: 0 });
});

Deno.test("legacyCoverage judges a lap stored without coverage by count and time", () => {
  assert.deepEqual(legacyCoverage({ time_ms: 99_036, total_ticks: 5942 }), {
    samples_expected: 5942,
    samples_received: 5942,
    samples_filled: 0,
    samples_missing: 0,
    longest_gap_packets: -1,
    complete: true,
  });
  assert.equal(legacyCoverage({ time_ms: 99_036, total_ticks: 4274 }).complete, false);
});

Deno.test("coverageNote says what an incomplete lap lacks, and nothing for a complete one", () => {
  const lap = { complete: false, samples_expected: 5942, samples_missing: 120 };
  assert.equal(
    coverageNote({ ...lap, longest_gap_packets: 120 }, 5822),
    "incomplete: 120 of 5942 samples missing, longest gap 120 packets",
  );
  assert.equal(
    coverageNote({ ...lap, samples_missing: 3, longest_gap_packets: 1 }, 5939),
    "incomplete: 3 of 5942 samples missing",
  );
  assert.equal(
    coverageNote({ ...lap, samples_missing: 0, longest_gap_packets: 0 }, 5950),
    "incomplete: 5950 samples for 5942 expected",
  );
  assert.equal(coverageNote({ ...lap, complete: true, longest_gap_packets: 0 }, 5822), "");
});

Deno.test("every synthetic lap is complete with exactly its planned ticks", () => {
  for (const seed of [1, 11]) {
    const plan = planDrive({ seed, laps: 3 });
    const laps = syntheticLaps(seed, 3).map((l) => finishRecordedLap(l, ""));
    assert.deepEqual(laps.map((l) => l.samples_expected), plan.lapTicks, `seed ${seed}`);
    assert.deepEqual(laps.map((l) => l.samples_received), plan.lapTicks);
    assert.ok(laps.every((l) => l.complete && l.samples_missing === 0));
  }
});

interface BroadBeanLap {
  lap_finish_time: number;
  data_time: number[];
  data_speed: number[];
  data_throttle: number[];
  data_braking: number[];
  data_position_x: number[];
  data_position_z: number[];
}

Deno.test({
  name: "the four Broad Bean laps, imported, hold exactly their lap time's samples: complete",
  ignore: noFixtures,
  fn() {
    const text = new TextDecoder().decode(readFixture("gt7/broad-bean-raceway-4-laps.json"));
    const laps = JSON.parse(text) as BroadBeanLap[];
    const imported = laps.map((l) => {
      const n = l.data_time.length;
      const columns: Record<string, number[]> = Object.fromEntries(
        REQUIRED_COLUMNS.map((c) => [c, new Array(n).fill(0)]),
      );
      Object.assign(columns, {
        t: l.data_time,
        speed: l.data_speed,
        throttle: l.data_throttle,
        brake: l.data_braking,
        pos_x: l.data_position_x,
        pos_z: l.data_position_z,
      });
      const file = {
        format: "sim-datalogger-lap",
        version: 2,
        lap: { number: 1, time_ms: l.lap_finish_time, samples: columns },
      };
      return buildImportedLap(parseLapFile(file));
    });
    assert.deepEqual(imported.map((l) => [l.samples_expected, l.samples_received]), [
      [1963, 1963],
      [1954, 1954],
      [1961, 1961],
      [1959, 1959],
    ]);
    assert.ok(imported.every((l) => l.complete && l.longest_gap_packets === 0));
  },
});
