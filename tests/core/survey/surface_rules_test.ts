import { strict as assert } from "node:assert";
import {
  changedWheels,
  straddleSide,
  transitionSide,
} from "../../../src/core/survey/surface_rules.ts";

Deno.test("a transition is pinned to the side whose wheels alone changed, the other side on tarmac", () => {
  // REFERENCE.md 2.4, the reference's own cases.
  assert.equal(transitionSide("TTTT", "CTTT"), "L");
  assert.equal(transitionSide("CTTT", "TTTT"), "L");
  assert.equal(transitionSide("TTTT", "CTGT"), "L");
  assert.equal(transitionSide("TTTT", "TCTT"), "R");
  assert.equal(transitionSide("TTTT", "TTTG"), "R");
  assert.equal(transitionSide("TTTT", "CCTT"), null);
  assert.equal(transitionSide("TGTT", "CGTT"), null);
  assert.equal(transitionSide("TTTT", "TTTT"), null);
  // The other side must read tarmac after the change too.
  assert.equal(transitionSide("TTTT", "GGTT"), null);
});

Deno.test("a border is straddled while one side's wheels are off the tarmac and the other's on", () => {
  assert.equal(straddleSide("GTGT"), "L");
  assert.equal(straddleSide("CTCT"), "L"); // a kerb counts as off
  assert.equal(straddleSide("TGTG"), "R");
  assert.equal(straddleSide("TCTG"), "R");
  assert.equal(straddleSide("GTTT"), null);
  assert.equal(straddleSide("TTTT"), null);
  assert.equal(straddleSide("GGGG"), null);
});

Deno.test("changedWheels lists every wheel whose letter differs", () => {
  assert.equal(changedWheels("TTTT", "TTTT"), 0);
  assert.equal(changedWheels("TTTT", "CTGT"), 0b0101);
  assert.equal(changedWheels("TGTC", "TTTT"), 0b1010);
});
