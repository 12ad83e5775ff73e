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
import { BENCH_SAMPLES as SAMPLES, benchLap as lapOf } from "./_bench_laps.ts";
import { medianMs } from "./_median.ts";

const COMPARE_TARGET_MS = 5;
const CORNERS_TARGET_MS = 10;
const RUNS = 100;
const WARMUP = 30;

const ref = lapOf(1, 1, 0);
const lap = lapOf(2, 1.02, 2.5);

const median = (fn: () => void) => medianMs(fn, RUNS, WARMUP);

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
