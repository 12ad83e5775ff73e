/**
 * Coaching notes speed.
 *
 * Target (issue 29): the notes of a 6,000-sample lap against a 6,000-sample
 * reference <= 5 ms. The laps are those of the corner report's bench
 * (bench/analysis_bench.ts): 6,000 samples of a 5 km synthetic circuit of
 * 16 corners, the lap driven 2 % slower and 2.5 m wider, with a lockup in
 * every braking zone among its events, so every corner is noted with its
 * causes. Figures are printed (median of 100 runs after 30 warm-up runs)
 * before the Deno.bench table.
 *
 * @module
 */
import { coachingNotes, type NotedLap } from "../src/core/analysis/coaching_notes.ts";
import type { AnalysedLap } from "../src/core/analysis/types.ts";
import type { LapSamples } from "../src/core/laps/columns.ts";
import type { LapEvent } from "../src/core/laps/lap.ts";
import { driveLap, steered } from "../tests/core/analysis/_laps.ts";

const TARGET_MS = 5;
const SAMPLES = 6000;
const RUNS = 100;
const WARMUP = 30;

// Straights and bends of 30 to 200 m radius, turning both ways (as bench/analysis_bench.ts).
const pieces: [number, number][] = [];
for (let i = 0; i < 16; i++) {
  const radius = 30 + ((i * 37) % 170);
  const sign = i % 3 === 2 ? -1 : 1;
  pieces.push([120 + ((i * 53) % 200), 0], [radius * (0.6 + (i % 4) * 0.4), sign / radius]);
}
const path = steered(pieces);
const bendSpeed = (s: number): number => {
  let at = 0;
  for (const [length, k] of pieces) {
    if (s < at + length) return k === 0 ? 230 : Math.min(230, 3.6 * Math.sqrt(12 / Math.abs(k)));
    at += length;
  }
  return 230;
};

function firstSamples(samples: LapSamples, n: number): LapSamples {
  const out = {} as Record<string, number[]>;
  for (const [name, values] of Object.entries(samples)) {
    out[name] = (values as number[]).slice(0, n);
  }
  return out as unknown as LapSamples;
}

const scale = driveLap(path, { speed: bendSpeed }).t.length / (SAMPLES * 1.01);

function lapOf(id: number, slower: number, wide: number): AnalysedLap {
  const samples = driveLap(path, {
    speed: (s) => bendSpeed(s) * scale / slower,
    offset: () => wide,
    brake: (s) => (bendSpeed(s + 60) < bendSpeed(s) ? 80 : 0),
  });
  if (samples.t.length < SAMPLES) throw new Error(`only ${samples.t.length} samples`);
  const cut = firstSamples(samples, SAMPLES);
  return { id, time_ms: Math.round(cut.t[SAMPLES - 1] * 1000), samples: cut };
}

const ref = lapOf(1, 1, 0);
const plain = lapOf(2, 1.02, 2.5);
// A lockup where each braking zone begins.
const events: LapEvent[] = [];
const { brake, dist } = plain.samples;
for (let i = 1; i < brake.length; i++) {
  if (brake[i] > 0 && brake[i - 1] === 0) {
    events.push({
      type: "lockup",
      start_dist: dist[i],
      end_dist: dist[i] + 10,
      wheels: ["fl"],
      severity: 0.8,
    });
  }
}
const lap: NotedLap = { ...plain, events };

function median(fn: () => void, runs = RUNS): number {
  for (let i = 0; i < WARMUP; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const notes = () => coachingNotes(lap, ref);
const first = notes();
if (first.notes.length < 8) throw new Error(`only ${first.notes.length} notes`);
const ms = median(notes);
console.log(
  `coaching notes of a ${SAMPLES}-sample lap against a ${SAMPLES}-sample reference ` +
    `(${first.notes.length} notes, ${events.length} events): ${ms.toFixed(2)} ms ` +
    `(target <= ${TARGET_MS} ms, ${ms <= TARGET_MS ? "ok" : "OVER TARGET"})`,
);

Deno.bench(`coaching notes of a ${SAMPLES}-sample lap`, () => {
  notes();
});
