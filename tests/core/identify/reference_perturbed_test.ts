/**
 * Reference lines replayed as other drivers' laps: a lateral offset of up
 * to 7 m either side that changes slowly along the lap, 0.5 m of position
 * noise, and a 100 m hole where packets were lost; then the same at 30 and
 * 20 samples a second with positions repeated. Each names its own
 * configuration (its reverse when driven backwards; twins by their
 * circuit), and gets its configuration's corner map with every corner.
 */
import { strict as assert } from "node:assert";
import fc from "fast-check";
import { referenceCornerMap } from "../../../src/core/analysis/circuit_corners.ts";
import { lapCorners } from "../../../src/core/analysis/corners.ts";
import { traceOf } from "../../../src/core/analysis/lap_trace.ts";
import { type ReferenceLine, referenceLines } from "../../../src/core/catalog/reference_lines.ts";
import { matchReferenceLines } from "../../../src/core/identify/reference_match.ts";
import type { LapSamples } from "../../../src/core/laps/columns.ts";
import { type Perturbation, perturbedLap } from "./_perturbed.ts";

/** The official ids a lap of `line` driven that way must be named by. */
function expectedIds(line: ReferenceLine, reverse: boolean): string {
  const ids = reverse
    ? [line.reverse!.official_id]
    : [line.configuration.official_id, ...line.twins.map((t) => t.official_id)];
  return ids.sort().join("+");
}

/** Names the lap and locates its corner map on it; fails with the verdict's reason. */
function assertNamedWithCorners(line: ReferenceLine, lap: LapSamples, p: Perturbation): void {
  const where = `${line.configuration.official_name}${p.reverse ? " backwards" : ""} ` +
    JSON.stringify(p);
  const v = matchReferenceLines(lap);
  const got = v.match?.configurations.map((c) => c.official_id).sort().join("+") ?? "none";
  assert.equal(got, expectedIds(line, p.reverse), `${where}: ${v.reason}`);
  assert.equal(v.match!.direction, p.reverse ? "reverse" : "forward", where);
  const config = p.reverse ? line.reverse! : line.configuration;
  const map = referenceCornerMap(config)!;
  const located = lapCorners(traceOf(lap), null, {}, map);
  assert.equal(located.source, "circuit", where);
  assert.deepEqual(
    located.corners.map((c) => c.n),
    map.corners.map((c) => c.n),
    `${where}: corners found`,
  );
}

const BASE: Omit<Perturbation, "reverse"> = {
  offset_m: 7,
  wavelength_m: 1500,
  phase: 1,
  noise_m: 0.5,
  hole_m: 100,
  hole_at: 0.5,
  seed: 24,
};

Deno.test("every reference line, both ways round, offset 7 m, noise 0.5 m, a 100 m hole", () => {
  let laps = 0;
  for (const line of referenceLines()) {
    for (const reverse of line.reverse ? [false, true] : [false]) {
      const p = { ...BASE, reverse };
      assertNamedWithCorners(line, perturbedLap(line, p), p);
      laps++;
    }
  }
  // 84 lines forward, the 36 GT7 has a reverse of backwards.
  assert.equal(laps, 120);
});

Deno.test("every reference line at 30 and 20 Hz, every 7th position repeated, offset, noise, hole", () => {
  let laps = 0;
  for (const line of referenceLines()) {
    for (const hz of [30, 20]) {
      const p = { ...BASE, reverse: false, hz, repeat_every: 7 };
      const lap = perturbedLap(line, p);
      // The recorder's own rate and repeats are in the lap as given.
      assert.ok(Math.abs(lap.t[1] - lap.t[0] - 1 / hz) < 1e-9, `${hz} Hz`);
      assert.equal(lap.pos_x[7], lap.pos_x[6]);
      assertNamedWithCorners(line, lap, p);
      laps++;
    }
  }
  assert.equal(laps, 168);
});

Deno.test("any slow offset up to 7 m, any noise seed, a 100 m hole anywhere in the lap (a property)", () => {
  const lines = referenceLines();
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: lines.length - 1 }),
      fc.boolean(),
      fc.double({ min: -7, max: 7, noNaN: true }),
      fc.double({ min: 800, max: 4000, noNaN: true }),
      fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
      fc.double({ min: 0.02, max: 0.9, noNaN: true }),
      fc.integer({ min: 1, max: 1_000_000 }),
      (k, backwards, offset_m, wavelength_m, phase, hole_at, seed) => {
        const line = lines[k];
        const p: Perturbation = {
          offset_m,
          wavelength_m,
          phase,
          noise_m: 0.5,
          hole_m: 100,
          hole_at,
          seed,
          reverse: backwards && line.reverse !== null,
        };
        assertNamedWithCorners(line, perturbedLap(line, p), p);
      },
    ),
    { seed: 2024, numRuns: 60 },
  );
});
