/**
 * Naming circuits from the reference lines: speed.
 *
 * Targets (issue 16): identifying one whole lap against every reference line
 * (84 lines) <= 20 ms; the live step <= 5 µs per frame on average. The laps
 * are reference lines replayed at 60 Hz at a racing speed: Suzuka (5.7 km, a
 * typical lap) and the Nürburgring 24h (25 km, the longest lap on the most
 * overlapping lines: four other Nürburgring layouts share its road). The
 * live step is timed over every frame of a lap, from the reset at its start;
 * frames closer than 4 m to the last one looked at cost one distance check,
 * the others a spatial look-up. Decoding the lines and building the index
 * happens once per process and is reported apart. Figures (median of 20
 * runs after a warm-up) are printed before the Deno.bench table.
 *
 * @module
 */
import { REFERENCE_LINE_ROWS } from "../src/core/catalog/reference_lines_data.ts";
import { decodeReferenceLine, referenceLineOf } from "../src/core/catalog/reference_lines.ts";
import { LiveReferenceMatcher } from "../src/core/identify/live_match.ts";
import { defaultReferenceIndex, ReferenceIndex } from "../src/core/identify/reference_index.ts";
import { matchReferenceLines } from "../src/core/identify/reference_match.ts";
import { type ReplayedLap, replayLine } from "../src/core/identify/reference_replay.ts";
import { medianMs } from "./_median.ts";

const WHOLE_TARGET_MS = 20;
const STEP_TARGET_US = 5;
const RUNS = 20;

// The first use decodes the data and builds the index: timed once, cold.
let t = performance.now();
const index = defaultReferenceIndex();
const firstUseMs = performance.now() - t;

const suzuka = replayLine(referenceLineOf("6e378b")!);
const ring = replayLine(referenceLineOf("fd4818")!);
for (const [lap, name] of [[suzuka, "Suzuka Circuit"], [ring, "Nürburgring 24h"]] as const) {
  const got = matchReferenceLines(lap, index).match?.name;
  if (got !== name) throw new Error(`the ${name} lap was named ${got}`);
}

/** Median ms of `runs` calls after one untimed call. */
const median = (fn: () => void, runs = RUNS) => medianMs(fn, runs, 1);

const live = new LiveReferenceMatcher(index);

function driveLive(lap: ReplayedLap): void {
  live.reset();
  for (let i = 0; i < lap.pos_x.length; i++) live.push(lap.pos_x[i], lap.pos_z[i]);
}

const suzukaMs = median(() => matchReferenceLines(suzuka, index));
const ringMs = median(() => matchReferenceLines(ring, index));
const suzukaStepUs = median(() => driveLive(suzuka)) * 1000 / suzuka.pos_x.length;
const ringStepUs = median(() => driveLive(ring)) * 1000 / ring.pos_x.length;
driveLive(suzuka);
if (live.match?.name !== "Suzuka Circuit") throw new Error(`live named ${live.match?.name}`);

t = performance.now();
const lines = REFERENCE_LINE_ROWS.map(decodeReferenceLine);
const decodeMs = performance.now() - t;
t = performance.now();
new ReferenceIndex(lines);
const indexMs = performance.now() - t;

const verdict = (v: number, target: number) => (v <= target ? "ok" : "OVER TARGET");
console.log(
  `identify one whole lap against all ${index.lines.length} reference lines: Suzuka ` +
    `(${suzuka.pos_x.length} samples) ${suzukaMs.toFixed(2)} ms, Nürburgring 24h ` +
    `(${ring.pos_x.length} samples) ${ringMs.toFixed(2)} ms (target <= ${WHOLE_TARGET_MS} ms, ${
      verdict(Math.max(suzukaMs, ringMs), WHOLE_TARGET_MS)
    })`,
);
console.log(
  `live step, average per 60 Hz frame over a lap: Suzuka ${suzukaStepUs.toFixed(2)} µs, ` +
    `Nürburgring 24h ${ringStepUs.toFixed(2)} µs (target <= ${STEP_TARGET_US} µs, ${
      verdict(Math.max(suzukaStepUs, ringStepUs), STEP_TARGET_US)
    })`,
);
console.log(
  `first use (decode ${index.points} points of ${index.lines.length} lines and index them): ` +
    `${firstUseMs.toFixed(0)} ms cold; warm: decode ${decodeMs.toFixed(1)} ms, index ` +
    `${indexMs.toFixed(1)} ms`,
);

Deno.bench("whole lap, Suzuka, against every reference line", () => {
  matchReferenceLines(suzuka, index);
});
Deno.bench("whole lap, Nürburgring 24h, against every reference line", () => {
  matchReferenceLines(ring, index);
});
Deno.bench("live, every frame of a Suzuka lap", () => {
  driveLive(suzuka);
});
