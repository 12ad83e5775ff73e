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
import type { LapEvent } from "../src/core/laps/lap.ts";
import { BENCH_SAMPLES as SAMPLES, benchLap as lapOf } from "./_bench_laps.ts";
import { medianMs } from "./_median.ts";

const TARGET_MS = 5;
const RUNS = 100;
const WARMUP = 30;

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

const median = (fn: () => void) => medianMs(fn, RUNS, WARMUP);

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
