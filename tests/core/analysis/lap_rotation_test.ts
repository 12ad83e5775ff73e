/**
 * A lap cut elsewhere than the line against a reference cut at the line:
 * the reference is turned to start where the lap starts, so each corner's
 * time is the same road on both laps, and the notes find the corner where
 * time went.
 */
import { strict as assert } from "node:assert";
import { referenceCornerMap } from "../../../src/core/analysis/circuit_corners.ts";
import { coachingNotes } from "../../../src/core/analysis/coaching_notes.ts";
import { compareLaps } from "../../../src/core/analysis/compare.ts";
import { cornerReport } from "../../../src/core/analysis/corner_report.ts";
import { loopStartOf, startedAt } from "../../../src/core/analysis/lap_rotation.ts";
import { traceOf } from "../../../src/core/analysis/lap_trace.ts";
import { sectorPlan } from "../../../src/core/analysis/sector_plan.ts";
import { bestSectors, lapSectorTimes } from "../../../src/core/analysis/sectors.ts";
import type { AnalysedLap } from "../../../src/core/analysis/types.ts";
import { referenceLines } from "../../../src/core/catalog/reference_lines.ts";
import type { LapSamples } from "../../../src/core/laps/columns.ts";
import { type Perturbation, perturbedLap } from "../identify/_perturbed.ts";

const SUZUKA = referenceLines().find((l) => l.configuration.official_name === "Suzuka Circuit")!;
const MAP = referenceCornerMap(SUZUKA.configuration)!;
const DRIVE: Perturbation = {
  offset_m: 0,
  wavelength_m: 1000,
  phase: 0,
  noise_m: 0.3,
  hole_m: 0,
  hole_at: 0.5,
  seed: 5,
  reverse: false,
};

function lapOf(id: number, samples: LapSamples): AnalysedLap {
  return { id, time_ms: Math.round(samples.t.at(-1)! * 1000), samples };
}

Deno.test("startedAt turns a lap round: same samples, time and distance counted from the cut", () => {
  const samples = {
    t: [0.1, 0.2, 0.3, 0.5],
    dist: [1, 2, 3, 5],
    speed: [10, 20, 30, 40],
  } as unknown as LapSamples;
  const turned = startedAt(samples, 2.5);
  assert.deepEqual(turned.speed, [30, 40, 10, 20]);
  assert.deepEqual(turned.dist, [1, 3, 4, 5]);
  assert.deepEqual(turned.t.map((t) => Math.round(t * 10) / 10), [0.1, 0.3, 0.4, 0.5]);
  // At or before the first sample, or past the last: the lap as it is.
  assert.equal(startedAt(samples, 0.5), samples);
  assert.equal(startedAt(samples, 9), samples);
});

Deno.test("a lap cut 40 % round against the same lap cut at the line: every corner, no time lost", () => {
  const whole = perturbedLap(SUZUKA, DRIVE);
  const cut = lapOf(2, startedAt(whole, 0.4 * whole.dist.at(-1)!));
  const report = cornerReport(cut, lapOf(1, whole), null, { circuit: MAP });
  assert.equal(report.source, "circuit");
  assert.equal(report.corners.length, MAP.corners.length);
  assert.ok(report.lap_start_m! > 0.35 * MAP.length_m && report.lap_start_m! < 0.45 * MAP.length_m);
  for (const row of report.corners) {
    // The reference turned at a sample of its own: within a sample's time of the cut lap's.
    assert.ok(Math.abs(row.delta_s!) <= 0.02, `Turn ${row.n}: ${row.delta_s}`);
  }
});

Deno.test("notes of a lap cut elsewhere, slower through one corner, against a lap cut at the line", () => {
  const whole = perturbedLap(SUZUKA, DRIVE);
  const ref = lapOf(1, whole);
  const cut = startedAt(whole, 0.6 * whole.dist.at(-1)!);
  const turn = cornerReport(lapOf(2, cut), null, null, { circuit: MAP }).corners
    .find((r) => r.n === 2)!;
  // Slower by a fifth from Turn 2's entry to its exit.
  let extra = 0;
  const t: number[] = [];
  const speed: number[] = [];
  for (let i = 0; i < cut.t.length; i++) {
    const inside = cut.dist[i] >= turn.entry_m && cut.dist[i] <= turn.exit_m;
    if (inside && i > 0) extra += (cut.t[i] - cut.t[i - 1]) * 0.2;
    t.push(cut.t[i] + extra);
    speed.push(inside ? cut.speed[i] / 1.2 : cut.speed[i]);
  }
  const notes = coachingNotes(lapOf(2, { ...cut, t, speed }), ref, null, { circuit: MAP });
  assert.equal(notes.notes[0].n, 2);
  assert.ok(Math.abs(notes.notes[0].loss_s - extra) < 0.03, `${notes.notes[0].loss_s} vs ${extra}`);
  assert.equal(notes.notes.length, 1, notes.summary);
  assert.ok(notes.lap_start_m !== null);
});

Deno.test("compare reads a lap cut elsewhere from where the reference starts, and says both starts", () => {
  const whole = perturbedLap(SUZUKA, DRIVE);
  const ref = lapOf(1, whole);
  const cut = lapOf(2, startedAt(whole, 0.7 * whole.dist.at(-1)!));
  const compared = compareLaps({ ref, laps: [ref, cut], step: 10, circuit: MAP });
  const [a, b] = compared.laps;
  assert.equal(a.lap_start_m, compared.start_m);
  assert.ok(compared.start_m! < 30 || compared.start_m! > MAP.length_m - 30, `${compared.start_m}`);
  const off = b.lap_start_m! - 0.7 * MAP.length_m;
  assert.ok(Math.abs(off) < 40, `${b.lap_start_m}`);
  // The same drive read from the same place: within a sample's time everywhere.
  assert.ok(b.delta_s.every((d) => Math.abs(d) <= 0.02), `${Math.max(...b.delta_s.map(Math.abs))}`);
  // Without the map, each lap is read from its own start: the cut lap is nowhere near.
  const blind = compareLaps({ ref, laps: [cut], step: 10 });
  assert.equal(blind.start_m, null);
  assert.equal(blind.laps[0].lap_start_m, null);
  assert.ok(Math.max(...blind.laps[0].delta_s.map(Math.abs)) > 5);
});

Deno.test("sectors time a lap cut elsewhere from where the fastest lap starts", () => {
  const whole = perturbedLap(SUZUKA, DRIVE);
  const ref = lapOf(1, whole);
  const cut = lapOf(2, startedAt(whole, 0.55 * whole.dist.at(-1)!));
  const trace = traceOf(whole);
  const plan = sectorPlan(trace, null);
  const start = loopStartOf(trace, MAP);
  const mine = lapSectorTimes(ref, plan, trace, start).times_s;
  const theirs = lapSectorTimes(cut, plan, undefined, start).times_s;
  for (let k = 0; k < mine.length; k++) assert.ok(Math.abs(mine[k]! - theirs[k]!) <= 0.02);
  const bests = bestSectors([ref, cut], null, MAP);
  assert.equal(bests.lap_start_m, start.start_m);
  assert.ok(Math.abs(bests.theoretical_best_ms! - ref.time_ms) <= 20);
  // Without the map, the cut lap's sectors are other stretches of road.
  const blind = lapSectorTimes(cut, plan).times_s;
  assert.ok(blind.some((t, k) => Math.abs(t! - mine[k]!) > 5), JSON.stringify([blind, mine]));
});
