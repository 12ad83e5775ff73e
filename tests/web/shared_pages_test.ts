/// <reference lib="dom" />
import { strict as assert } from "node:assert";
import { fixed, lapTime, signed } from "../../src/web/shared_api.js";
import { deltaColour, speedColour } from "../../src/web/shared_map.js";
// Type-only: `deno check` of this file checks the pages' scripts (// @ts-check)
// against the DOM, without running them (they draw on load).
import type {} from "../../src/web/pages.js";

Deno.test("lap times read m:ss.mmm, differences are signed with three decimals", () => {
  assert.equal(lapTime(99036), "1:39.036");
  assert.equal(lapTime(32559), "0:32.559");
  assert.equal(lapTime(60000), "1:00.000");
  assert.equal(lapTime(null), "—");
  assert.equal(signed(0.4125), "+0.412");
  assert.equal(signed(-1.0031), "-1.003");
  assert.equal(signed(0), "0.000");
  assert.equal(signed(null), "—");
  assert.equal(fixed(193.25, 1), "193.3");
  assert.equal(fixed(undefined, 1), "—");
});

Deno.test("map colours: grey at no delta, red for time lost, green for time gained, clamped", () => {
  assert.equal(deltaColour(0), "rgb(140,140,140)");
  assert.equal(deltaColour(1), "rgb(255,40,40)");
  assert.equal(deltaColour(-1), "rgb(40,230,80)");
  assert.equal(deltaColour(5), deltaColour(1));
  assert.equal(speedColour(0), "hsl(240,85%,55%)");
  assert.equal(speedColour(1), "hsl(0,85%,55%)");
  assert.equal(speedColour(-3), speedColour(0));
});
