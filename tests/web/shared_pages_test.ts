/// <reference lib="dom" />
import { strict as assert } from "node:assert";
import { fixed, lapTime, problemText, signed } from "../../src/web/shared_api.js";
import { labelCorners, placeCornerLabels } from "../../src/web/shared_charts.js";
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

/** A fake uPlot over a plot `width` px wide from x = 56, for a lap of `len` m; 6 px a character. */
function fakeChart(width: number, len: number) {
  const drawn: [string, number, number][] = [];
  const ctx = {
    save() {},
    restore() {},
    measureText: (t: string) => ({ width: 6 * t.length }),
    fillText: (t: string, x: number, y: number) => drawn.push([t, x, y]),
  };
  const u = {
    ctx,
    // The plot starts under the corner numbers' 40 px band.
    bbox: { left: 56, top: 40, width, height: 100 },
    valToPos: (m: number) => 56 + (m * width) / len,
    cornerLabels: [] as {
      n: number;
      row: number;
      left: number;
      right: number;
      top: number;
      bottom: number;
    }[],
  };
  return { u, drawn };
}

/** With devicePixelRatio 1, as a plain screen has it. */
function atRatio1(fn: () => void) {
  const g = globalThis as { devicePixelRatio?: number };
  const had = g.devicePixelRatio;
  g.devicePixelRatio = 1;
  try {
    fn();
  } finally {
    g.devicePixelRatio = had;
  }
}

/**
 * Suzuka's corner windows, metres into the lap, as GET /api/analysis/corners
 * gives them for the fixture capture's lap (gt7/suzuka-full-lap.A.gt7.gz,
 * corners of the circuit's map).
 */
const SUZUKA: [number, number, number][] = [
  [1, 601, 992],
  [2, 1001, 1162],
  [3, 1166, 1299],
  [4, 1302, 1456],
  [5, 1460, 1653],
  [6, 1656, 1941],
  [7, 1941, 2055],
  [8, 2055, 2147],
  [9, 2218, 2346],
  [10, 2379, 2517],
  [11, 2680, 2819],
  [12, 2836, 2985],
  [13, 3028, 3360],
  [14, 3360, 3619],
  [15, 3698, 3835],
  [16, 3835, 4130],
  [17, 4857, 5155],
  [18, 5273, 5375],
  [19, 5377, 5452],
  [20, 5455, 5722],
];

Deno.test("corner numbers on a chart: in the band over the plot, 6 px apart in a row", () => {
  atRatio1(() => {
    // 1 px a metre from x = 56; the plot is 300 px wide.
    const { u, drawn } = fakeChart(300, 300);
    labelCorners(u, [
      { n: 3, entry_m: 40, exit_m: 60 }, // "T3" centred at 106, given out of order: 100..112
      { n: 1, entry_m: 0, exit_m: 20 }, // "T1" at 66: 12 px wide, 60..72
      { n: 2, entry_m: 10, exit_m: 30 }, // "T2" at 76: would start at 70, over T1: next row
      { n: 4, entry_m: 55, exit_m: 75 }, // "T4" at 121: 115..127, 3 px from T3: next row too
      { n: 6, entry_m: 58, exit_m: 76 }, // "T6" at 123: 117..129, 5 px from T3, over T4: row 3
      { n: 5, entry_m: 400, exit_m: 420 }, // outside the plot
    ]);
    // Rows 12 px apart from 2 px into the band; the last row ends 4 px over the plot (y = 40).
    assert.deepEqual(drawn, [
      ["T1", 66, 2],
      ["T2", 76, 14],
      ["T3", 106, 2],
      ["T4", 121, 14],
      ["T6", 123, 26],
    ]);
    assert.deepEqual(u.cornerLabels, [
      { n: 1, row: 0, left: 60, right: 72, top: 2, bottom: 12 },
      { n: 2, row: 1, left: 70, right: 82, top: 14, bottom: 24 },
      { n: 3, row: 0, left: 100, right: 112, top: 2, bottom: 12 },
      { n: 4, row: 1, left: 115, right: 127, top: 14, bottom: 24 },
      { n: 6, row: 2, left: 117, right: 129, top: 26, bottom: 36 },
    ]);
  });
});

Deno.test("two numbers of a row keep 6 px apart at any chart width", () => {
  const windows = SUZUKA.map(([n, entry_m, exit_m]) => ({ n, entry_m, exit_m }));
  atRatio1(() => {
    for (const width of [1400, 700, 390, 320, 200]) {
      const { u } = fakeChart(width, 5750);
      labelCorners(u, windows);
      const rows = Map.groupBy(u.cornerLabels, (l) => l.row);
      for (const row of rows.values()) {
        for (let i = 1; i < row.length; i++) {
          const gap = row[i].left - row[i - 1].right;
          assert.ok(gap >= 6, `${width} px: T${row[i - 1].n} and T${row[i].n} ${gap} px apart`);
        }
      }
    }
  });
});

Deno.test("Suzuka's 20 corners are all labelled on a 700 px chart, and on a phone's 320 px", () => {
  const windows = SUZUKA.map(([n, entry_m, exit_m]) => ({ n, entry_m, exit_m }));
  atRatio1(() => {
    for (const width of [700, 320]) {
      const { u, drawn } = fakeChart(width, 5750);
      labelCorners(u, windows);
      // Every number, T8, T12 and T19 (the esses' exit, the hairpin's approach, the chicane) too.
      assert.deepEqual(
        drawn.map(([t]) => t),
        SUZUKA.map(([n]) => `T${n}`),
        `${width} px`,
      );
    }
  });
});

Deno.test("with no room for all, the corners where the most time went keep their numbers", () => {
  // Suzuka squeezed into 120 px, one row: T12 lost the most, then T8, then T19.
  const lost: Record<number, number> = { 12: 0.41, 8: 0.2, 19: 0.12, 3: -0.05 };
  const labels = SUZUKA.map(([n, a, b]) => ({
    n,
    mid: ((a + b) / 2) * (120 / 5750),
    half: 6 * `T${n}`.length / 2,
    lost_s: lost[n] ?? null,
  }));
  const placed = placeCornerLabels(labels, 0, 120, 3, 1);
  const kept = placed.map((l) => l.n);
  // T12 and T19 are labelled; T8 is too close to T12, which lost more, to be.
  for (const n of [12, 19]) assert.ok(kept.includes(n), `T${n} left out: ${kept}`);
  assert.ok(placed.length < SUZUKA.length);
  // Left to right, none overlapping another (3 px apart at least).
  for (let i = 1; i < placed.length; i++) {
    const a = placed[i - 1], b = placed[i];
    assert.ok(b.mid - b.half >= a.mid + a.half + 3, `T${a.n} and T${b.n} overlap`);
  }
  // Each number left out would overlap one kept whose corner lost at least as much.
  const rank = (l: { lost_s: number | null }) => l.lost_s ?? -Infinity;
  for (const l of labels.filter((l) => !kept.includes(l.n))) {
    const blocker = placed.find((p) =>
      Math.abs(p.mid - l.mid) < p.half + l.half + 3 && rank(p) >= rank(l)
    );
    assert.ok(blocker, `T${l.n} left out with room for it`);
  }
  // A label outside the plot is never placed.
  assert.deepEqual(placeCornerLabels([{ n: 1, mid: 130, half: 6 }], 0, 120, 3, 3), []);
});

Deno.test("a refusal reads once: the status and the detail, an issue only when it adds to it", () => {
  const problem = {
    status: 400,
    detail: "laps[0] must be a positive integer",
    errors: [{ path: "laps[0]", message: "must be a positive integer" }],
  };
  assert.equal(problemText(400, problem, "/api/x"), "400 laps[0] must be a positive integer");
  // An issue worded whole, as an id list's are, is the detail itself: said once.
  const sentence = "the 1st lap id (0) must be a positive integer";
  assert.equal(
    problemText(400, { detail: sentence, errors: [{ path: "laps[0]", message: sentence }] }, "/x"),
    `400 ${sentence}`,
  );
  assert.equal(
    problemText(400, { detail: "2 problems", errors: [{ path: "ref", message: "is bad" }] }, "/x"),
    "400 2 problems; ref: is bad",
  );
  assert.equal(problemText(502, null, "/api/laps"), "502 /api/laps");
});
