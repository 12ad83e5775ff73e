import { strict as assert } from "node:assert";
import { LineFollower, MAX_COORD_M } from "../../../src/core/identify/reference_follow.ts";
import { defaultReferenceIndex } from "../../../src/core/identify/reference_index.ts";

Deno.test("positions beyond 10,000 km of the origin are ignored, never followed for ever", () => {
  const follower = new LineFollower(defaultReferenceIndex());
  assert.equal(follower.push(0, 0), 1);
  // Past the bound: not looked at, not a hole.
  assert.equal(follower.push(MAX_COORD_M * 10, 0), 0);
  assert.equal(follower.push(0, -MAX_COORD_M * 10), 0);
  // Where a lap file's garbage or a corrupt packet may put it: past 2^53 cells, whose
  // neighbours a walk cell by cell never leaves (the import of such a lap hung).
  assert.equal(follower.push(1e20, 1e20), 0);
  assert.equal(follower.push(-3.4e38, 0), 0);
  assert.deepEqual([follower.steps, follower.hole_m], [1, 0]);
  // Within the bound a far position is a hole, as before.
  assert.equal(follower.push(MAX_COORD_M, 0), 1);
  assert.deepEqual([follower.steps, follower.hole_m], [2, MAX_COORD_M]);
});
