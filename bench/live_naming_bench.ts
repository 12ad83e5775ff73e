/**
 * Live naming as the app runs it: speed.
 *
 * Targets (issue 16): the per-frame cost of the live naming tap stays
 * within the live step's <= 5 µs per frame, both while an unnamed session
 * is followed and once it is named (then a frame costs a comparison); and
 * the reference index warms up in short steps rather than in one block of
 * 88-320 ms. Each step's time is what the event loop is held for; the tap
 * does steps for at most 2 ms per frame. The lap is Suzuka's reference line
 * replayed at 60 Hz, as frames. Figures are printed before the table.
 *
 * @module
 */
import { LiveNaming, WARM_BUDGET_MS } from "../src/app/live/live_naming.ts";
import { referenceLineOf } from "../src/core/catalog/reference_lines.ts";
import type { Frame } from "../src/core/gt7/frame.ts";
import { stepDefaultReferenceIndex } from "../src/core/identify/reference_index.ts";
import { replayLine } from "../src/core/identify/reference_replay.ts";
import type { Session } from "../src/core/laps/session.ts";
import { medianMs } from "./_median.ts";

const STEP_TARGET_US = 5;

// Cold, in this fresh process: the index built step by step, each step timed.
const steps: number[] = [];
const warmStart = performance.now();
for (;;) {
  const t = performance.now();
  const index = stepDefaultReferenceIndex();
  steps.push(performance.now() - t);
  if (index !== null) break;
}
const warmMs = performance.now() - warmStart;
const sortedSteps = [...steps].sort((a, b) => a - b);

const lap = replayLine(referenceLineOf("6e378b")!);
const frames: Frame[] = Array.from(lap.pos_x, (x, i) =>
  ({
    posX: x,
    posZ: lap.pos_z[i],
    currentLap: 1,
  }) as Frame);

function naming(named: boolean): LiveNaming {
  const session = named ? { track_name: "Suzuka Circuit" } as Session : null;
  return new LiveNaming({
    live: { tap: () => () => {}, session, epoch: 0 },
    survey: { slug: null },
    name: () => Promise.resolve(),
  });
}

/** Median ms of `runs` calls after one untimed call. */
const median = (fn: () => void, runs = 20) => medianMs(fn, runs, 1);

// A new lap each drive, so the matcher restarts as it does at a lap's start.
let lapNo = 0;
function drive(n: LiveNaming): void {
  lapNo++;
  for (const f of frames) n.frame({ ...f, currentLap: lapNo } as Frame);
}
const following = naming(false);
const named = naming(true);
const followUs = median(() => drive(following)) * 1000 / frames.length;
const namedUs = median(() => drive(named)) * 1000 / frames.length;

const verdict = (v: number, target: number) => (v <= target ? "ok" : "OVER TARGET");
console.log(
  `reference index warm-up in ${steps.length} steps: ${warmMs.toFixed(0)} ms in all, ` +
    `median step ${sortedSteps[steps.length >> 1].toFixed(2)} ms, 90th percentile ` +
    `${sortedSteps[Math.floor(steps.length * 0.9)].toFixed(2)} ms, longest ` +
    `${
      sortedSteps.at(-1)!.toFixed(1)
    } ms (the tap does at most ${WARM_BUDGET_MS} ms of steps a frame)`,
);
console.log(
  `live naming tap, average per 60 Hz frame over a Suzuka lap: following an unnamed session ` +
    `${followUs.toFixed(2)} µs, once named ${
      namedUs.toFixed(3)
    } µs (target <= ${STEP_TARGET_US} µs, ${verdict(Math.max(followUs, namedUs), STEP_TARGET_US)})`,
);

Deno.bench("live naming tap, every frame of a Suzuka lap, unnamed session", () => {
  drive(following);
});
Deno.bench("live naming tap, every frame of a Suzuka lap, named session", () => {
  drive(named);
});
