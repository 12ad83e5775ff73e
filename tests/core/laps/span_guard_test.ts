import { strict as assert } from "node:assert";
import { judgeSpans } from "../../../src/core/laps/span_guard.ts";

Deno.test("a lone lap always counts", () => {
  assert.deepEqual(judgeSpans([120]), [true]);
});

Deno.test("with two laps the longest span is the reference at 93 %", () => {
  assert.deepEqual(judgeSpans([4000, 3730]), [true, true]);
  assert.deepEqual(judgeSpans([4000, 3700]), [true, false]);
});

Deno.test("from three laps the median of the last five is the reference at 97 %", () => {
  assert.deepEqual(judgeSpans([4000, 4010, 3000, 3990, 3885]), [true, true, false, true, true]);
  assert.deepEqual(judgeSpans([4000, 4010, 3870]), [true, true, false]);
});
