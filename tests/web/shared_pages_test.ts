/// <reference lib="dom" />
import { strict as assert } from "node:assert";
import { fixed, lapTime, signed } from "../../src/web/shared_api.js";
import { labelCorners } from "../../src/web/shared_charts.js";
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

Deno.test("corner numbers on a chart: left to right, one overlapping the one before left out", () => {
  const g = globalThis as { devicePixelRatio?: number };
  const had = g.devicePixelRatio;
  g.devicePixelRatio = 1;
  try {
    const drawn: [string, number][] = [];
    const ctx = {
      save() {},
      restore() {},
      measureText: (t: string) => ({ width: 6 * t.length }),
      fillText: (t: string, x: number) => drawn.push([t, x]),
    };
    // 1 px a metre from x = 100; the plot is 300 px wide.
    const u = {
      ctx,
      bbox: { left: 100, top: 0, width: 300, height: 100 },
      valToPos: (m: number) => 100 + m,
    };
    labelCorners(u, [
      { n: 3, entry_m: 40, exit_m: 60 }, // "T3" centred at 150, given out of order
      { n: 1, entry_m: 0, exit_m: 20 }, // "T1" at 110: 12 px wide, 104..116
      { n: 2, entry_m: 10, exit_m: 30 }, // "T2" at 120: would start at 114, over T1
      { n: 4, entry_m: 55, exit_m: 75 }, // "T4" at 165: starts at 159, past T3's 156 + 3
      { n: 5, entry_m: 400, exit_m: 420 }, // outside the plot
    ]);
    assert.deepEqual(drawn, [["T1", 110], ["T3", 150], ["T4", 165]]);
  } finally {
    g.devicePixelRatio = had;
  }
});
