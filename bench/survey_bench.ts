/**
 * The survey step over the synthetic survey drive (seed 7, two laps,
 * 21,709 frames). The bound is 2 µs per frame on average; the
 * figure is printed once per process as well as reported by deno bench.
 */
import { SyntheticDrive } from "../src/core/synthetic/drive.ts";
import { SurveyEngine } from "../src/core/survey/survey_step.ts";

const frames = [...new SyntheticDrive({ seed: 7, mode: "survey" }).frames()];

function surveyAll(): SurveyEngine {
  const engine = new SurveyEngine(1.6);
  for (const f of frames) engine.step(f);
  return engine;
}

// Warm up, then measure the average over several whole drives.
for (let i = 0; i < 3; i++) surveyAll();
const rounds = 10;
const t0 = performance.now();
let cells = 0;
for (let i = 0; i < rounds; i++) cells = surveyAll().evidence.size;
const perFrame = (performance.now() - t0) * 1000 / (rounds * frames.length);
console.log(
  `survey step: ${perFrame.toFixed(3)} µs/frame on average over ${frames.length} frames ` +
    `(${cells} cells per drive; bound 2 µs)`,
);

Deno.bench({
  name: `survey step, whole synthetic survey drive (${frames.length} frames)`,
  n: 20,
  fn() {
    surveyAll();
  },
});
