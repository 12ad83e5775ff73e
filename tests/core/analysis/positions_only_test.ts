/**
 * Laps with positions and speed only (no pedals), as another recorder or a
 * position dump brings them: the pedal channels are absent. Their corners
 * are the circuit's map, they are named by the matcher imports use,
 * sectors and compare work, and the coaching notes still say where time
 * went but name no braking or throttle cause and say what they cannot know.
 */
import { strict as assert } from "node:assert";
import { createApp } from "../../../src/app/create_app.ts";
import { referenceCornerMap } from "../../../src/core/analysis/circuit_corners.ts";
import { coachingNotes } from "../../../src/core/analysis/coaching_notes.ts";
import { compareLaps } from "../../../src/core/analysis/compare.ts";
import { cornerReport } from "../../../src/core/analysis/corner_report.ts";
import { lapCorners } from "../../../src/core/analysis/corners.ts";
import { traceOf } from "../../../src/core/analysis/lap_trace.ts";
import { missingPedals, pedalOf } from "../../../src/core/analysis/pedals.ts";
import { bestSectors } from "../../../src/core/analysis/sectors.ts";
import type { AnalysedLap } from "../../../src/core/analysis/types.ts";
import { referenceLines } from "../../../src/core/catalog/reference_lines.ts";
import type { LapSamples } from "../../../src/core/laps/columns.ts";
import { type Perturbation, perturbedLap } from "../identify/_perturbed.ts";
import { rotateLap } from "./_rotate_lap.ts";

const SUZUKA = referenceLines().find((l) => l.configuration.official_name === "Suzuka Circuit")!;
const MAP = referenceCornerMap(SUZUKA.configuration)!;

const DRIVE: Perturbation = {
  offset_m: 12,
  wavelength_m: 1e9,
  phase: Math.PI / 2,
  noise_m: 0.5,
  hole_m: 60,
  hole_at: 0.3,
  seed: 7,
  reverse: false,
  hz: 20,
};

/** `samples` without their pedal channels: absent, as an import leaves a channel it did not find. */
function withoutPedals(samples: LapSamples): LapSamples {
  const { brake: _brake, throttle: _throttle, ...rest } = samples;
  return rest as unknown as LapSamples;
}

/**
 * `samples` driven `factor` times slower from `from` to `to` metres: the
 * same distances, speeds divided by the factor, time stretched there.
 */
function slowedBetween(samples: LapSamples, from: number, to: number, factor: number): LapSamples {
  const t: number[] = [];
  const speed: number[] = [];
  let extra = 0;
  for (let i = 0; i < samples.t.length; i++) {
    const inside = samples.dist[i] >= from && samples.dist[i] <= to;
    if (inside && i > 0) extra += (samples.t[i] - samples.t[i - 1]) * (factor - 1);
    t.push(samples.t[i] + extra);
    speed.push(inside ? samples.speed[i] / factor : samples.speed[i]);
  }
  return { ...samples, t, speed };
}

function lapOf(id: number, samples: LapSamples): AnalysedLap {
  return { id, time_ms: Math.round(samples.t.at(-1)! * 1000), samples };
}

/** The clean lap, and one 0.4 s or so slower through the hairpin (Turn 11's stretch). */
function pair(): { ref: AnalysedLap; slow: AnalysedLap; hairpin: number } {
  const base = withoutPedals(perturbedLap(SUZUKA, DRIVE));
  const corners = lapCorners(traceOf(base), null, {}, MAP).corners;
  const hairpin = corners.find((c) => c.n === 11)!;
  const slow = slowedBetween(base, hairpin.entry_m - 40, hairpin.exit_m, 1.15);
  return { ref: lapOf(1, base), slow: lapOf(2, slow), hairpin: 11 };
}

Deno.test("a lap without pedals: its pedal channels are absent, not zeros", () => {
  const { ref } = pair();
  assert.equal(pedalOf(ref.samples, "brake"), null);
  assert.equal(pedalOf(ref.samples, "throttle"), null);
  const whole = perturbedLap(SUZUKA, DRIVE);
  assert.deepEqual(missingPedals(whole), []);
  assert.deepEqual(missingPedals(whole, ref.samples), ["brake", "throttle"]);
  // A channel cut short is no data about the rest of the lap.
  assert.deepEqual(missingPedals({ ...whole, brake: whole.brake.slice(1) }), ["brake"]);
});

Deno.test("a lap without pedals gets every corner of its map, cut at the line or anywhere", () => {
  const { ref } = pair();
  for (const samples of [ref.samples, rotateLap(ref.samples, 700)]) {
    const located = lapCorners(traceOf(samples), null, {}, MAP);
    assert.equal(located.source, "circuit");
    assert.deepEqual(
      [...located.corners.map((c) => c.n)].sort((a, b) => a - b),
      MAP.corners.map((c) => c.n),
    );
  }
  // Braking points are unknown, never "did not brake": every row's is null.
  const report = cornerReport(ref, ref, null, { circuit: MAP });
  assert.equal(report.corners.length, MAP.corners.length);
  assert.ok(report.corners.every((r) => r.brake_m === null && r.ref_brake_m === null));
});

Deno.test("a lap without pedals is named by the matcher imports use", async () => {
  // Naming reads positions within the road's width: a lap near the line, noisy and sparse.
  const near = { ...DRIVE, offset_m: 2, hole_m: 0, hz: 30 };
  const samples = withoutPedals(perturbedLap(SUZUKA, near));
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv, now: () => new Date("2026-11-28T12:00:00.000Z") });
  try {
    const naming = await app.tracks.namingOf({ samples, complete: true });
    assert.deepEqual(naming, { name: "Suzuka Circuit", source: "reference" });
  } finally {
    await app.live.flush();
    await app.tracks.fingerprints.idle();
    kv.close();
  }
});

Deno.test("sectors and compare work on laps without pedals", () => {
  const { ref, slow } = pair();
  const sectors = bestSectors([ref, slow]);
  assert.equal(sectors.sectors.length, 3);
  // The slow lap is as fast elsewhere (to the rounding of its lap time), so the best is the clean lap's.
  assert.ok(sectors.sectors.every((s) => s.best_s !== null), JSON.stringify(sectors));
  assert.equal(sectors.best_lap_id, 1);
  assert.ok(Math.abs(sectors.theoretical_best_ms! - ref.time_ms) <= 1, JSON.stringify(sectors));
  const compared = compareLaps({ ref, laps: [ref, slow] });
  const [a, b] = compared.laps;
  assert.ok(a.delta_s.every((d) => d === 0));
  assert.equal(a.channels.brake, null);
  assert.equal(a.channels.throttle, null);
  assert.ok(a.channels.speed !== null);
  const behind = b.delta_s.at(-1)!;
  const lost = slow.samples.t.at(-1)! - ref.samples.t.at(-1)!;
  assert.ok(Math.abs(behind - lost) < 0.002, `${behind} vs ${lost}`);
});

Deno.test("notes without pedals: time lost per corner, no braking cause, and what they cannot know", () => {
  const { ref, slow, hairpin } = pair();
  const notes = coachingNotes(slow, ref, null, { circuit: MAP });
  assert.equal(notes.source, "circuit");
  assert.deepEqual(notes.unknown, [
    "no pedal data: braking points unknown",
    "no throttle data: throttle points unknown",
  ]);
  assert.ok(
    notes.summary.endsWith(
      "; no pedal data: braking points unknown; no throttle data: throttle points unknown",
    ),
    notes.summary,
  );
  // The slowed stretch is the hairpin's: its note carries the loss, with speed causes alone.
  const note = notes.notes[0];
  assert.equal(note.n, hairpin);
  assert.ok(note.loss_s > 0.2, `${note.loss_s}`);
  assert.ok(Math.abs(notes.notes_sum_s - notes.lap_delta_s) < 0.06);
  for (const n of notes.notes) {
    for (const c of n.causes) assert.ok(!/^(brake|throttle)_/.test(c.kind), n.text);
    assert.ok(!/brake|throttle/.test(n.cue ?? ""), n.cue ?? "");
  }
  assert.equal(note.causes[0].kind, "min_slower");
  assert.equal(note.cue, `Turn ${hairpin}: carry more speed`);
  // The reference with pedals, the lap without: still unknown, as either lap's pedals are needed.
  const withPedals = lapOf(1, perturbedLap(SUZUKA, DRIVE));
  const mixed = coachingNotes(slow, withPedals, null, { circuit: MAP });
  assert.equal(mixed.unknown.length, 2);
  // Both laps with pedals: nothing unknown, and the summary as it always was.
  const both = coachingNotes(withPedals, withPedals, null, { circuit: MAP });
  assert.deepEqual(both.unknown, []);
  assert.equal(both.summary, "Lap +0.00 s against the reference; no corner past the threshold");
});
