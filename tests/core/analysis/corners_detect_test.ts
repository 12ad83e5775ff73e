import { strict as assert } from "node:assert";
import { detectCorners } from "../../../src/core/analysis/corners_detect.ts";
import { traceOf } from "../../../src/core/analysis/lap_trace.ts";
import type { LapCorner } from "../../../src/core/analysis/types.ts";
import { configurationById } from "../../../src/core/catalog/tracks.ts";
import type { LapSamples } from "../../../src/core/laps/columns.ts";
import { noFixtures } from "../../_fixtures.ts";
import { broadBeanLaps, driveLap, polyline, stadium, steered, suzukaLap } from "./_laps.ts";

const DEG = 180 / Math.PI;

/** Index of the first sample at or past distance `d`. */
function sampleAt(s: LapSamples, d: number): number {
  const i = s.dist.findIndex((x) => x >= d);
  return i < 0 ? s.dist.length - 1 : i;
}

/** Heading of the raw line at sample i, from the chord over 10 samples, radians. */
function rawHeading(s: LapSamples, i: number): number {
  const a = Math.max(0, i - 5);
  const b = Math.min(s.t.length - 1, i + 5);
  return Math.atan2(s.pos_x[b] - s.pos_x[a], s.pos_z[b] - s.pos_z[a]);
}

/** Radius of the circle through the raw positions 15 m before, at and after `d`. */
function rawRadius(s: LapSamples, d: number): number {
  const [a, b, c] = [d - 15, d, d + 15].map((x) => sampleAt(s, x));
  const p = [a, b, c].map((i) => [s.pos_x[i], s.pos_z[i]]);
  const ab = Math.hypot(p[1][0] - p[0][0], p[1][1] - p[0][1]);
  const bc = Math.hypot(p[2][0] - p[1][0], p[2][1] - p[1][1]);
  const ca = Math.hypot(p[0][0] - p[2][0], p[0][1] - p[2][1]);
  const cross = (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) -
    (p[1][1] - p[0][1]) * (p[2][0] - p[0][0]);
  return Math.abs(cross) < 1e-12 ? Infinity : (ab * bc * ca) / (2 * Math.abs(cross));
}

/**
 * Checks that every corner sits on a real bend of the raw driven line: the
 * raw heading turns at least 10 degrees the corner's way between entry and
 * exit, and the line is curved at the apex (radius under 500 m).
 */
function assertRealBends(s: LapSamples, corners: LapCorner[]): void {
  for (const c of corners) {
    let turn = 0;
    for (let i = sampleAt(s, c.entry_m); i < sampleAt(s, c.exit_m); i++) {
      const step = (rawHeading(s, i + 1) - rawHeading(s, i)) * DEG;
      turn += ((step + 540) % 360) - 180;
    }
    const sign = c.direction === "L" ? 1 : -1;
    assert.ok(turn * sign >= 10, `${c.name} at ${c.apex_m.toFixed(0)} m turns ${turn.toFixed(1)}`);
    const r = rawRadius(s, c.apex_m);
    assert.ok(r < 500, `${c.name} at ${c.apex_m.toFixed(0)} m has a ${r.toFixed(0)} m radius`);
  }
}

function assertOrdered(corners: LapCorner[], length: number): void {
  corners.forEach((c, i) => {
    assert.equal(c.n, i + 1);
    assert.equal(c.name, `Turn ${i + 1}`);
    assert.ok(
      c.entry_m >= 0 && c.entry_m <= c.apex_m && c.apex_m <= c.exit_m && c.exit_m <= length,
    );
    if (i > 0) assert.ok(c.entry_m >= corners[i - 1].exit_m, "corners do not overlap");
  });
}

Deno.test("a straight never holds a corner, even wobbling or drifting", () => {
  const straight = polyline([{ x: 0, z: 0 }, { x: 0, z: 3000 }]);
  const wobble = (s: number) => 0.4 * Math.sin(s / 7) + 0.3 * Math.sin(s / 2.3);
  assert.deepEqual(detectCorners(traceOf(driveLap(straight, { offset: wobble }))), []);
  // A 2 km radius sweep turns 40 degrees over 1.4 km: a drift, not a corner.
  const sweep = steered([[200, 0], [1400, 1 / 2000], [200, 0]]);
  assert.deepEqual(detectCorners(traceOf(driveLap(sweep))), []);
});

Deno.test("a stadium has two right-hand corners, apexes mid-bend, numbered from the line", () => {
  const path = stadium(600, 80);
  const samples = driveLap(path);
  const corners = detectCorners(traceOf(samples));
  assert.equal(corners.length, 2);
  assertOrdered(corners, samples.dist[samples.dist.length - 1]);
  const arc = Math.PI * 80;
  for (const [i, c] of corners.entries()) {
    assert.equal(c.direction, "R");
    const mid = 600 + arc / 2 + i * (600 + arc);
    assert.ok(Math.abs(c.apex_m - mid) < arc / 2, `apex ${c.apex_m} near ${mid}`);
    assert.ok(
      c.entry_m > 600 + i * (600 + arc) - 25 && c.exit_m < 600 + arc + i * (600 + arc) + 25,
    );
  }
  assertRealBends(samples, corners);
});

Deno.test("a chicane is a left and a right; a gentle kink is neither", () => {
  const bend = (40 * Math.PI) / 180;
  const path = steered([
    [500, 0],
    [60 * bend, 1 / 60], // left 40 degrees at 60 m radius
    [60 * bend, -1 / 60], // and back right
    [400, 0],
    [10, 0.005], // a 3 degree kink
    [400, 0],
  ]);
  const samples = driveLap(path, { speed: () => 100 });
  const corners = detectCorners(traceOf(samples));
  assert.deepEqual(corners.map((c) => c.direction), ["L", "R"]);
  assert.ok(corners[0].apex_m > 500 && corners[1].apex_m < 500 + 2 * 60 * bend);
  assertRealBends(samples, corners);
});

Deno.test({
  name: "Broad Bean: every lap's detected corners are within one of the official 5, at real bends",
  ignore: noFixtures,
  fn() {
    const official = configurationById("1fb373")!;
    assert.equal(official.official_name, "BB Raceway");
    for (const lap of broadBeanLaps()) {
      const corners = detectCorners(traceOf(lap.samples));
      assert.ok(
        Math.abs(corners.length - official.turns) <= 1,
        `lap ${lap.id}: ${corners.length} corners`,
      );
      // The measured count on every lap of this fixture (the official 5 counts a flat kink).
      assert.equal(corners.length, 4);
      assert.deepEqual(corners.map((c) => c.direction), ["R", "L", "R", "R"]);
      assertOrdered(corners, lap.samples.dist[lap.samples.dist.length - 1]);
      assertRealBends(lap.samples, corners);
    }
  },
});

Deno.test({
  name: "Suzuka: detected corners are within one of the official 20, at real bends",
  ignore: noFixtures,
  fn() {
    const official = configurationById("6e378b")!;
    assert.equal(official.official_name, "Suzuka Circuit");
    const lap = suzukaLap();
    const corners = detectCorners(traceOf(lap.samples));
    assert.ok(Math.abs(corners.length - official.turns) <= 1, `${corners.length} corners`);
    assert.equal(corners.length, 20);
    // First Curve right, the Esses left-right-left-right, the hairpin left, the chicane right-left.
    assert.deepEqual(corners.slice(0, 5).map((c) => c.direction), ["R", "L", "R", "L", "R"]);
    const hairpin = corners.find((c) => c.apex_m > 2840 && c.apex_m < 2980);
    assert.equal(hairpin?.direction, "L");
    assert.deepEqual(corners.slice(-3).map((c) => c.direction), ["R", "L", "R"]);
    assertOrdered(corners, lap.samples.dist[lap.samples.dist.length - 1]);
    assertRealBends(lap.samples, corners);
  },
});
