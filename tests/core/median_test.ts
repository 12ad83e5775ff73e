/**
 * The shared median (src/core/median.ts) of odd and even counts, one value
 * and none, worked out by hand.
 */
import { strict as assert } from "node:assert";
import { median } from "../../src/core/median.ts";

Deno.test("median: the middle value, the mean of the two middle ones, null for none", () => {
  assert.equal(median([3, 1, 2]), 2);
  // Even count: sorted 1, 2, 3, 4 -> (2 + 3) / 2.
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([7]), 7);
  assert.equal(median([]), null);
});
