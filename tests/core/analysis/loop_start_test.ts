/**
 * Laps cut anywhere: every reference line replayed as a lap and cut at any
 * point of its loop gets every corner of its configuration's map, in the
 * order it passed them and numbered as the map, and says where on the loop
 * it starts; so does a perturbed copy (an offset of 10 to 20 m, noise, a
 * hole, 30 or 20 Hz).
 */
import { strict as assert } from "node:assert";
import fc from "fast-check";
import { referenceCornerMap } from "../../../src/core/analysis/circuit_corners.ts";
import type { CornerMap } from "../../../src/core/analysis/corner_map.ts";
import { cornerReport } from "../../../src/core/analysis/corner_report.ts";
import { lapCorners } from "../../../src/core/analysis/corners.ts";
import { traceOf } from "../../../src/core/analysis/lap_trace.ts";
import { turned } from "../../../src/core/analysis/loop_start.ts";
import { type ReferenceLine, referenceLines } from "../../../src/core/catalog/reference_lines.ts";
import type { LapSamples } from "../../../src/core/laps/columns.ts";
import { type Perturbation, perturbedLap } from "../identify/_perturbed.ts";
import { rotateLap } from "./_rotate_lap.ts";

/** How far the said start may be from where the lap was cut, metres along the loop. */
const START_TOLERANCE_M = 25;

function mapOf(line: ReferenceLine): CornerMap {
  return referenceCornerMap(line.configuration)!;
}

/** The shortest way round a loop of `length` between `a` and `b`, metres. */
function around(a: number, b: number, length: number): number {
  const d = Math.abs(a - b) % length;
  return Math.min(d, length - d);
}

/**
 * The lap cut at `share` of it: every corner of the map, numbered as the
 * map and in the map's order turned to the first corner the lap passed, at
 * rising distances; its start where the whole lap's start plus the
 * distance to the cut is.
 */
function assertAroundLoop(line: ReferenceLine, lap: LapSamples, share: number, where: string) {
  const map = mapOf(line);
  const whole = lapCorners(traceOf(lap), null, {}, map);
  const k = Math.min(lap.t.length - 1, Math.max(1, Math.floor(share * lap.t.length)));
  const cut = lapCorners(traceOf(rotateLap(lap, k)), null, {}, map);
  assert.equal(cut.source, "circuit", where);
  const ns = cut.corners.map((c) => c.n);
  const first = map.corners.findIndex((c) => c.n === ns[0]);
  assert.deepEqual(ns, turned(map.corners, first).map((c) => c.n), `${where}: corners found`);
  assert.deepEqual(
    cut.corners.map((c) => c.direction),
    turned(map.corners, first).map((c) => c.direction),
    where,
  );
  for (let j = 1; j < cut.corners.length; j++) {
    assert.ok(cut.corners[j].apex_m > cut.corners[j - 1].apex_m, `${where}: Turn ${ns[j]}`);
  }
  if (!map.loop) {
    assert.equal(cut.start_m, null, where);
    return;
  }
  assert.ok(whole.start_m !== null && cut.start_m !== null, where);
  assert.ok(cut.start_m >= 0 && cut.start_m < map.length_m, `${where}: ${cut.start_m}`);
  // The lap's metres are its speed-integrated distance: a map's metres on the same road differ by a few in a thousand.
  const expected = whole.start_m + lap.dist[k - 1] * map.length_m / lap.dist.at(-1)!;
  const off = around(cut.start_m, expected, map.length_m);
  assert.ok(
    off <= START_TOLERANCE_M,
    `${where}: starts at ${cut.start_m}, not ${expected}: ${off}`,
  );
}

/**
 * Where the lap is cut, as a share of its samples: any thousandth (a
 * double would be drawn at its extremes, 0 and the smallest numbers, too
 * often to cut anywhere but the line).
 */
const SHARE = fc.integer({ min: 1, max: 999 }).map((k) => k / 1000);

const CLEAN: Perturbation = {
  offset_m: 0,
  wavelength_m: 1000,
  phase: 0,
  noise_m: 0,
  hole_m: 0,
  hole_at: 0.5,
  seed: 1,
  reverse: false,
};

Deno.test("every reference line cut anywhere gets its map's every corner, numbered as the map (a property)", () => {
  const lines = referenceLines();
  assert.equal(lines.length, 84);
  for (const [i, line] of lines.entries()) {
    const lap = perturbedLap(line, CLEAN);
    fc.assert(
      fc.property(SHARE, (share) => {
        assertAroundLoop(line, lap, share, `${line.configuration.official_name} cut at ${share}`);
      }),
      { seed: 39 + i, numRuns: 2 },
    );
  }
});

Deno.test("a perturbed lap cut anywhere: offset 10-20 m, noise, a hole, 60/30/20 Hz (a property)", () => {
  const lines = referenceLines();
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: lines.length - 1 }),
      SHARE,
      fc.double({ min: 10, max: 20, noNaN: true }),
      fc.boolean(),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0.02, max: 0.9, noNaN: true }),
      fc.constantFrom(60, 30, 20),
      fc.integer({ min: 1, max: 1_000_000 }),
      (k, share, offset, left, noise_m, hole_at, hz, seed) => {
        const line = lines[k];
        const p: Perturbation = {
          offset_m: left ? offset : -offset,
          // A steady offset: the lap drives a line 10 to 20 m to one side all the way round.
          wavelength_m: 1e9,
          phase: Math.PI / 2,
          noise_m,
          hole_m: 100,
          hole_at,
          seed,
          reverse: false,
          hz,
        };
        const where = `${line.configuration.official_name} cut at ${share} ${JSON.stringify(p)}`;
        assertAroundLoop(line, perturbedLap(line, p), share, where);
      },
    ),
    { seed: 3939, numRuns: 40 },
  );
});

Deno.test("the corner report of a lap cut half way round says where it starts, and every corner", () => {
  const line = referenceLines().find((l) => l.configuration.official_name === "Suzuka Circuit")!;
  const map = mapOf(line);
  const lap = perturbedLap(line, CLEAN);
  const half = rotateLap(lap, Math.floor(lap.t.length / 2));
  const whole = cornerReport({ id: 1, time_ms: 0, samples: lap }, null, null, { circuit: map });
  const cut = cornerReport({ id: 2, time_ms: 0, samples: half }, null, null, { circuit: map });
  assert.ok(whole.lap_start_m !== null && cut.lap_start_m !== null);
  const expected = whole.lap_start_m +
    lap.dist[Math.floor(lap.t.length / 2) - 1] * map.length_m / lap.dist.at(-1)!;
  assert.ok(around(cut.lap_start_m, expected, map.length_m) <= START_TOLERANCE_M);
  assert.deepEqual(cut.corners.map((r) => r.n), map.corners.map((c) => c.n));
  // Without a reference, rows are in corner order; the lap's metres start where it was cut.
  assert.ok(cut.corners[0].apex_m > cut.corners.at(-1)!.apex_m);
  // Against itself, no corner lost or gained anything.
  const self = cornerReport(
    { id: 2, time_ms: 0, samples: half },
    { id: 3, time_ms: 0, samples: half },
    null,
    {
      circuit: map,
    },
  );
  assert.ok(self.corners.every((r) => r.delta_s === 0));
});
