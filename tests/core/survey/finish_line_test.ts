import { strict as assert } from "node:assert";
import { crossingAt, finishLineState, isRollover } from "../../../src/core/survey/finish_line.ts";
import { SurveyEngine } from "../../../src/core/survey/survey_step.ts";
import { straight } from "./_frames.ts";

Deno.test("one crossing is provisional; a second within 15 m makes the line confident", () => {
  const a = crossingAt(200, 0, 0, 1, 2);
  const one = finishLineState([a]);
  assert.deepEqual(one, {
    crossings: 1,
    x: 200,
    z: 0,
    spread_m: 0,
    hx: 0,
    hz: 1,
    confident: false,
  });
  const two = finishLineState([a, crossingAt(204, 0, 0, 1, 3)]);
  assert.deepEqual(two, { crossings: 2, x: 202, z: 0, spread_m: 2, hx: 0, hz: 1, confident: true });
  const apart = finishLineState([a, crossingAt(240, 0, 0, 1, 3)]);
  assert.equal(apart?.confident, false);
  assert.equal(apart?.spread_m, 20);
  assert.equal(finishLineState([]), null);
});

Deno.test("only a rise by one from lap 1 or later is a crossing", () => {
  assert.equal(isRollover(1, 2), true);
  assert.equal(isRollover(0, 1), false);
  assert.equal(isRollover(3, 2), false);
  assert.equal(isRollover(2, 4), false);
  assert.equal(isRollover(-1, 0), false);
});

Deno.test("the engine records crossings on rollovers at speed, not on a 0 -> 1 start", () => {
  const engine = new SurveyEngine(1.6);
  const frames = straight(40, 20, () => "TTTT", { lap: 0 });
  const laps = [
    ...Array(10).fill(0),
    ...Array(10).fill(1),
    ...Array(10).fill(2),
    ...Array(10).fill(1),
  ];
  frames.forEach((f, i) => engine.step({ ...f, currentLap: laps[i] }));
  assert.equal(engine.crossings.length, 1);
  assert.deepEqual(engine.crossings[0], { x: 6.667, z: 0, hx: 1, hz: 0, lap: 2 });
  // Too slow: no crossing.
  const slow = new SurveyEngine(1.6);
  straight(2, 4, () => "TTTT").forEach((f, i) => slow.step({ ...f, currentLap: 1 + i }));
  assert.equal(slow.crossings.length, 0);
});
