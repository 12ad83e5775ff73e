/**
 * The direction test shared by every kind of knowledge: progress along a
 * line (reference lines) and pairs of travel directions (a bundle's edges).
 */
import { strict as assert } from "node:assert";
import {
  addHeadings,
  addProgress,
  DIRECTION_SHARE,
  forwardShare,
  MIN_DIRECTION_M,
  newDirectionTally,
  travelDirection,
} from "../../../src/core/identify/direction.ts";

Deno.test("progress along a line decides forward, reverse, mixed or unknown", () => {
  const t = newDirectionTally();
  assert.equal(travelDirection(t), "unknown");
  addProgress(t, 49);
  assert.equal(travelDirection(t), "unknown", "under 50 m of evidence");
  addProgress(t, 1);
  assert.equal(travelDirection(t), "forward");
  assert.deepEqual(t, { with_m: 50, against_m: 0 });
  addProgress(t, -50 / 9);
  // Exactly 90 % with the line still counts as forward.
  assert.equal(forwardShare(t), 0.9);
  assert.equal(travelDirection(t), "forward");
  addProgress(t, -1);
  assert.equal(travelDirection(t), "mixed");
  const back = newDirectionTally();
  addProgress(back, -60);
  addProgress(back, Number.NaN);
  assert.equal(travelDirection(back), "reverse");
  assert.equal(forwardShare(back), 0);
  assert.equal(forwardShare(newDirectionTally()), 0);
  assert.equal([MIN_DIRECTION_M, DIRECTION_SHARE].join(), "50,0.9");
});

Deno.test("travel directions against an edge's recorded direction vote by the sign of their dot", () => {
  const t = newDirectionTally();
  addHeadings(t, 1, 0, 0.8, 0.6, 30); // 37 degrees apart: with
  addHeadings(t, 0, 1, -0.6, -0.8, 5); // 143 degrees apart: against
  addHeadings(t, 1, 0, 0, 1, 100); // perpendicular: says nothing
  addHeadings(t, 0, 0, 1, 0, 100); // no heading: says nothing
  addHeadings(t, 1, 0, 1, 0, -4); // no metres: says nothing
  addHeadings(t, Number.NaN, 0, 1, 0, 4);
  assert.deepEqual(t, { with_m: 30, against_m: 5 });
  assert.equal(travelDirection(t), "unknown");
  addHeadings(t, -1, 0, 1, 0, 300);
  assert.equal(travelDirection(t), "reverse");
  assert.equal(travelDirection(t, 50, 0.95), "mixed");
  assert.equal(travelDirection({ with_m: 10, against_m: 0 }, 5), "forward");
});
