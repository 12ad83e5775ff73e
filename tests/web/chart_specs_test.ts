/// <reference lib="dom" />
import { strict as assert } from "node:assert";
import {
  CHART_HEIGHT,
  chartOptions,
  LABEL_BAND_PX,
  symmetricRange,
  valueText,
} from "../../src/web/chart_options.js";
import { mapFrame, paintScale, stretchSpans } from "../../src/web/shared_map.js";

const LAPS = [{ label: "ref #5", colour: "#e8e8e8" }, { label: "#3", colour: "#ff5c5c" }];
const X = [0, 1, 2];

Deno.test("a chart's data: the distances, each lap's series in order, then the band's edges", () => {
  const spec = {
    key: "speed",
    title: "Speed",
    unit: "km/h",
    series: [[100, 110, 120], [99, null, 121]],
    band: { hi: [105, 115, 125], lo: [95, 105, 115] },
  };
  const { opts, data } = chartOptions(spec, LAPS, X, 640, "stepped");
  assert.deepEqual(data, [X, [100, 110, 120], [99, null, 121], [105, 115, 125], [95, 105, 115]]);
  assert.deepEqual(opts.series.map((s) => s.label), [
    "m",
    "ref #5",
    "#3",
    "spread +1σ",
    "spread −1σ",
  ]);
  // The reference is drawn thicker; gaps stay gaps; the band fills between its two edges.
  assert.deepEqual(opts.series.slice(1, 3).map((s) => [s.stroke, s.width, s.spanGaps]), [
    ["#e8e8e8", 1.5, false],
    ["#ff5c5c", 1.25, false],
  ]);
  assert.deepEqual(opts.bands, [{ series: [3, 4], fill: "rgba(140,140,255,0.14)" }]);
  assert.equal(opts.series[1].paths, undefined);
  // The corner numbers' band sits on top of the plot, never under a trace.
  assert.equal(LABEL_BAND_PX, 40);
  assert.deepEqual([opts.width, opts.height], [640, CHART_HEIGHT + LABEL_BAND_PX]);
  assert.deepEqual(opts.padding, [LABEL_BAND_PX, null, null, null]);
  assert.deepEqual(opts.scales.y, { auto: true });
  assert.deepEqual(opts.cursor.sync, { key: "compare", setSeries: false });
  assert.deepEqual(opts.cursor.drag, { x: true, y: false, setScale: true });
});

Deno.test("a chart's y scale: fixed, symmetric about zero, or automatic; gears stepped", () => {
  const base = { key: "k", title: "T", unit: "", series: [[1, 2, 3]] };
  const fixed = chartOptions({ ...base, range: [0, 100] }, LAPS, X, 320, "s").opts;
  assert.deepEqual(fixed.scales.y, { range: [0, 100] });
  const sym = chartOptions({ ...base, symmetric: true }, LAPS, X, 320, "s").opts;
  assert.equal(sym.scales.y.range, symmetricRange);
  assert.deepEqual(symmetricRange(null, -0.5, 0.2), [-0.55, 0.55]);
  assert.deepEqual(symmetricRange(null, 0, 0).map((v) => Number(v.toFixed(3))), [-0.11, 0.11]);
  const gear = chartOptions({ ...base, stepped: true, digits: 0 }, LAPS, X, 320, "s").opts;
  assert.equal(gear.series[1].paths, "s");
  assert.equal(gear.series[1].value(null, 3.4), "3");
  assert.equal(valueText(2)(null, null), "—");
  assert.equal(gear.series[0].value(null, 12.6), "13");
  // uPlot fills in the options it is given: no two axes share an object.
  assert.notEqual(gear.axes[0].grid, gear.axes[1].grid);
});

Deno.test("the map's frame holds the line and the borders, padded 6 %, at least 50 m", () => {
  const ref = { x: [0, 100, null], z: [0, 200, 5], colour: "#fff" };
  assert.deepEqual(mapFrame(ref, []), {
    minX: -12,
    minZ: -12,
    width: 124,
    height: 224,
    unit: 0.5,
  });
  const border = { side: "L" as const, line: [[-100, 0, null], [0, 0, 1]] };
  assert.deepEqual(mapFrame(ref, [border]).minX, -112);
  const none = mapFrame({ x: [], z: [], colour: "#fff" }, []);
  assert.deepEqual(none, { minX: -3, minZ: -3, width: 6, height: 6, unit: 0.125 });
});

Deno.test("the line is cut into at most so many stretches, end to end", () => {
  assert.deepEqual(stretchSpans(5, 480), [[0, 1], [1, 2], [2, 3], [3, 4]]);
  assert.deepEqual(stretchSpans(10, 3), [[0, 4], [4, 8], [8, 9]]);
  assert.deepEqual(stretchSpans(1, 480), []);
  assert.equal(stretchSpans(6001, 480).length, 462);
});

Deno.test("painting scales by the largest magnitude, or from the smallest to the largest", () => {
  assert.deepEqual(paintScale([-0.5, 0.25, NaN], true), {
    scaled: [-1, 0.5, 0],
    lo: -0.5,
    hi: 0.25,
  });
  assert.deepEqual(paintScale([100, 150, 200], false), { scaled: [0, 0.5, 1], lo: 100, hi: 200 });
  assert.deepEqual(paintScale([7, 7], false).scaled, [0, 0]);
});
