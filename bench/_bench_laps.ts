/**
 * The laps the analysis benches time: a 16-bend path of straights and bends
 * of 30 to 200 m radius turning both ways, driven at 60 Hz and cut to its
 * first {@linkcode BENCH_SAMPLES} samples.
 *
 * @module
 */
import type { AnalysedLap } from "../src/core/analysis/types.ts";
import type { LapSamples } from "../src/core/laps/columns.ts";
import { driveLap, steered } from "../tests/core/analysis/_laps.ts";

/** Samples in each bench lap. */
export const BENCH_SAMPLES = 6000;

// Straights and bends of 30 to 200 m radius, turning both ways.
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

// Speed is scaled so the path takes a little over 6,000 ticks; each lap is its first 6,000.
const scale = driveLap(path, { speed: bendSpeed }).t.length / (BENCH_SAMPLES * 1.01);

/**
 * Lap `id` of exactly {@linkcode BENCH_SAMPLES} samples, `slower` times the
 * reference's pace, `wide` metres off its line, braking 60 m before each
 * slower stretch. Throws when the path gives too few samples.
 */
export function benchLap(id: number, slower: number, wide: number): AnalysedLap {
  const samples = driveLap(path, {
    speed: (s) => bendSpeed(s) * scale / slower,
    offset: () => wide,
    brake: (s) => (bendSpeed(s + 60) < bendSpeed(s) ? 80 : 0),
  });
  if (samples.t.length < BENCH_SAMPLES) throw new Error(`only ${samples.t.length} samples`);
  const cut = firstSamples(samples, BENCH_SAMPLES);
  return { id, time_ms: Math.round(cut.t[BENCH_SAMPLES - 1] * 1000), samples: cut };
}
