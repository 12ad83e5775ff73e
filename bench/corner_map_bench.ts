/**
 * Locating a circuit's corner map on a lap.
 *
 * Target (issue 24): locating a circuit's corner map on a 6,000-sample lap
 * <= 2 ms. The map is Suzuka's (20 corners, made from its reference line);
 * the lap is that line replayed as a car would drive it at 60 Hz, 3 m to
 * the side of the recorded line, cut to its first 6,000 samples. Making the
 * map (once per process) is measured too, and so is locating the map on
 * the same lap cut half way round (issue 39: the corners are found around
 * the loop, at the cost of up to two more anchor searches). Figures are
 * printed (median of 100 runs after 30 warm-up runs) before the Deno.bench
 * table.
 *
 * @module
 */
import { cornerMapOfPath } from "../src/core/analysis/corner_map.ts";
import { authoredCorners } from "../src/core/analysis/corners_authored.ts";
import { startedAt } from "../src/core/analysis/lap_rotation.ts";
import { traceOf } from "../src/core/analysis/lap_trace.ts";
import { referenceLineOf } from "../src/core/catalog/reference_lines.ts";
import { replayLine } from "../src/core/identify/reference_replay.ts";
import type { LapSamples } from "../src/core/laps/columns.ts";
import { medianMs } from "./_median.ts";

const TARGET_MS = 2;
const SAMPLES = 6000;
const RUNS = 100;
const WARMUP = 30;

const line = referenceLineOf("6e378b")!;
// The replay's rate is chosen so the whole lap takes a little over 6,000 samples.
const probe = replayLine(line);
const hz = Math.ceil(60 * (SAMPLES * 1.01) / probe.t.length);
const drive = replayLine(line, { hz });
if (drive.t.length < SAMPLES) throw new Error(`only ${drive.t.length} samples`);
const n = SAMPLES;
const dist: number[] = [];
const px: number[] = [];
const pz: number[] = [];
let d = 0;
for (let i = 0; i < n; i++) {
  d += drive.speed[i] / 3.6 / hz;
  dist.push(d);
  // 3 m to the left of travel (the GT7 world's left of heading (dx, dz) is (dz, -dx)).
  const j = Math.min(i + 1, drive.t.length - 1);
  const k = j === i ? i - 1 : i;
  const dx = drive.pos_x[j] - drive.pos_x[k];
  const dz = drive.pos_z[j] - drive.pos_z[k];
  const len = Math.hypot(dx, dz) || 1;
  px.push(drive.pos_x[i] + (3 * dz) / len);
  pz.push(drive.pos_z[i] - (3 * dx) / len);
}
const samples = {
  t: Array.from(drive.t.subarray(0, n), (t) => t + 1 / hz),
  dist,
  speed: Array.from(drive.speed.subarray(0, n)),
  pos_x: px,
  pos_z: pz,
} as unknown as LapSamples;
const trace = traceOf(samples);

const map = cornerMapOfPath(line.x, line.z, line.loop, line.configuration.turns);
const locate = () => authoredCorners(trace, map.corners);
const found = locate();
if (found.length < map.corners.length - 1) {
  throw new Error(`only ${found.length} of ${map.corners.length} corners located`);
}

const median = (fn: () => void, runs = RUNS) => medianMs(fn, runs, WARMUP);

const cutTrace = traceOf(startedAt(samples, dist[n - 1] / 2));
const locateCut = () => authoredCorners(cutTrace, map.corners);
const foundCut = locateCut();
if (foundCut.length < map.corners.length - 1) {
  throw new Error(
    `only ${foundCut.length} of ${map.corners.length} corners located on the cut lap`,
  );
}

const locateMs = median(locate);
const makeMs = median(() => cornerMapOfPath(line.x, line.z, line.loop, 20), 20);
console.log(
  `locate Suzuka's corner map (${map.corners.length} corners) on a ${SAMPLES}-sample lap: ` +
    `${locateMs.toFixed(2)} ms (target <= ${TARGET_MS} ms, ${
      locateMs <= TARGET_MS ? "ok" : "OVER TARGET"
    }); ${found.length} corners found`,
);
console.log(`make Suzuka's corner map from its reference line: ${makeMs.toFixed(2)} ms`);
const cutMs = median(locateCut);
console.log(
  `locate it on the same lap cut half way round: ${cutMs.toFixed(2)} ms ` +
    `(${
      (cutMs / locateMs).toFixed(1)
    } times the lap cut at the line); ${foundCut.length} corners found`,
);

Deno.bench(`locate a 20-corner map on a ${SAMPLES}-sample lap`, () => {
  locate();
});

Deno.bench(`locate a 20-corner map on a ${SAMPLES}-sample lap cut half way round`, () => {
  locateCut();
});
