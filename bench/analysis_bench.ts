/**
 * Lap analysis speed.
 *
 * Targets (issue 14): comparing two 6,000-sample laps (a 1 m grid, speed,
 * throttle and brake, delta) <= 5 ms; the corner report of one against the
 * other (detecting the corners on the lap and finding them on the
 * reference) <= 10 ms. The laps are 6,000 samples of a 5 km synthetic
 * circuit of 16 corners, the second driven 2 % slower and 2.5 m wider, so
 * the work is what a real comparison costs. Figures are printed (median of
 * 100 runs after 30 warm-up runs) before the Deno.bench table.
 *
 * @module
 */
import { compareLaps } from "../src/core/analysis/compare.ts";
import { cornerReport } from "../src/core/analysis/corner_report.ts";
import type { AnalysedLap } from "../src/core/analysis/types.ts";
import type { LapSamples } from "../src/core/laps/columns.ts";
import { driveLap, steered } from "../tests/core/analysis/_laps.ts";

const COMPARE_TARGET_MS = 5;
const CORNERS_TARGET_MS = 10;
const SAMPLES = 6000;
const RUNS = 100;
const WARMUP = 30;

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
const lap = lapOf(2, 1.02, 2.5);

function median(fn: () => void, runs = RUNS): number {
  // Warm up until the optimising compiler has seen the code, as in a running server.
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

const compare = () => compareLaps({ ref, laps: [ref, lap] });
const corners = () => cornerReport(lap, ref);
const cmp = compare();
const report = corners();
if (cmp.laps.length !== 2) throw new Error("compare lost a lap");
if (report.corners.length < 12) throw new Error(`only ${report.corners.length} corners found`);

const compareMs = median(compare);
const cornersMs = median(corners);
const verdict = (ms: number, target: number) => (ms <= target ? "ok" : "OVER TARGET");
console.log(
  `compare two ${SAMPLES}-sample laps (${cmp.distance.length} grid points, 3 channels): ` +
    `${compareMs.toFixed(2)} ms (target <= ${COMPARE_TARGET_MS} ms, ${
      verdict(compareMs, COMPARE_TARGET_MS)
    })`,
);
console.log(
  `corner report, ${SAMPLES}-sample lap against a ${SAMPLES}-sample reference ` +
    `(${report.corners.length} corners detected): ${cornersMs.toFixed(2)} ms ` +
    `(target <= ${CORNERS_TARGET_MS} ms, ${verdict(cornersMs, CORNERS_TARGET_MS)})`,
);

Deno.bench(`compare two ${SAMPLES}-sample laps`, () => {
  compare();
});

Deno.bench(`corner report of a ${SAMPLES}-sample lap`, () => {
  corners();
});
