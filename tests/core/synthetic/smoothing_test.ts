import { strict as assert } from "node:assert";
import { movingAverage } from "../../../src/core/synthetic/smoothing.ts";

Deno.test("movingAverage: closed series wrap around", () => {
  const out = movingAverage([0, 0, 0, 0, 9], 1, true);
  assert.deepEqual(Array.from(out), [3, 0, 0, 3, 3]);
});

Deno.test("movingAverage: open series clip the window at the ends", () => {
  const out = movingAverage([1, 2, 3, 4], 1, false);
  assert.deepEqual(Array.from(out), [1.5, 2, 3, 3.5]);
});

Deno.test("movingAverage: a window as wide as a closed series gives its mean", () => {
  assert.deepEqual(Array.from(movingAverage([1, 2, 6], 5, true)), [3, 3, 3]);
});

Deno.test("movingAverage: half 0 copies and leaves the input untouched", () => {
  const input = [4, 5, 6];
  const out = movingAverage(input, 0, true);
  assert.deepEqual(Array.from(out), [4, 5, 6]);
  out[0] = 99;
  assert.deepEqual(input, [4, 5, 6]);
});
