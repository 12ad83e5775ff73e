import { strict as assert } from "node:assert";
import { ordinal } from "../../src/core/ordinal.ts";

Deno.test("ordinal: st, nd, rd by the last digit, th for the teens and the rest", () => {
  const words = [1, 2, 3, 4, 10, 11, 12, 13, 21, 22, 23, 101, 111, 112, 113].map(ordinal);
  assert.deepEqual(words, [
    "1st",
    "2nd",
    "3rd",
    "4th",
    "10th",
    "11th",
    "12th",
    "13th",
    "21st",
    "22nd",
    "23rd",
    "101st",
    "111th",
    "112th",
    "113th",
  ]);
});
