import { strict as assert } from "node:assert";
import {
  chartColumn,
  columnX,
  MAX_SERIES,
  renderChart,
  valueRange,
} from "../../src/tui/braille_chart.ts";

/** Braille dot bits by [dot column][dot row], written out independently of the module. */
const BITS = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]];

/** The lines a `cols` x `rows` chart with exactly the dots `lit` ([dot x, dot y]) shows. */
function dots(lit: readonly [number, number][], cols: number, rows: number): string[] {
  const cells = new Array(cols * rows).fill(0);
  for (const [dx, dy] of lit) {
    cells[Math.floor(dy / 4) * cols + Math.floor(dx / 2)] |= BITS[dx % 2][dy % 4];
  }
  return Array.from(
    { length: rows },
    (_, r) =>
      cells.slice(r * cols, (r + 1) * cols).map((b) => String.fromCharCode(0x2800 + b)).join(""),
  );
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

Deno.test("a ramp lights, in each dot column, the rows from its lowest to its highest value", () => {
  // 4 dot columns of 0.75 over x 0..3; value v on dot row round(3 - v).
  const chart = renderChart({ x: [0, 1, 2, 3], series: [[0, 1, 2, 3]], cols: 2, rows: 1 });
  assert.deepEqual(
    chart.lines,
    dots([[0, 2], [0, 3], [1, 2], [2, 1], [2, 2], [3, 0], [3, 1]], 2, 1),
  );
  assert.deepEqual(chart.lines, ["\u2864\u281E"]);
  assert.deepEqual([...chart.owners], [1, 1]);
  assert.deepEqual([chart.from, chart.to, chart.min, chart.max], [0, 3, 0, 3]);
});

Deno.test("each series owns a bit of the cells it draws in; rows split at 4 dots", () => {
  const chart = renderChart({
    x: [0, 10],
    series: [[2, 2], [0, 0]],
    cols: 1,
    rows: 2,
    min: 0,
    max: 2,
  });
  // 8 dot rows: 2 on row 0, 0 on row 7.
  assert.deepEqual(chart.lines, dots([[0, 0], [1, 0], [0, 7], [1, 7]], 1, 2));
  assert.deepEqual([...chart.owners], [1, 2]);
  const both = renderChart({
    x: [0, 10],
    series: [[2, 2], [0, 0]],
    cols: 1,
    rows: 1,
    min: 0,
    max: 2,
  });
  assert.deepEqual(both.lines, ["\u28C9"]);
  assert.deepEqual([...both.owners], [3]);
});

Deno.test("a window shows only its stretch of x, scaled to the values in it", () => {
  const x = range(101);
  const chart = renderChart({ x, series: [x], cols: 1, rows: 1, from: 40, to: 60 });
  assert.deepEqual([chart.min, chart.max], [40, 60]);
  // Dot column 0 covers 40..50 (rows 3 down to 2), column 1 covers 50..60 (rows 2 up to 0).
  assert.deepEqual(chart.lines, dots([[0, 2], [0, 3], [1, 0], [1, 1], [1, 2]], 1, 1));
  assert.deepEqual(valueRange(x, [x], 40, 60), [40, 60]);
  // Values are interpolated at a window's edges that fall between samples.
  assert.deepEqual(valueRange([0, 10], [[0, 100]], 2.5, 7.5), [25, 75]);
  assert.equal(valueRange([0, 10], [null], 0, 10), null);
});

Deno.test("missing values leave their columns blank; a one-sample peak still shows", () => {
  const gap = renderChart({
    x: range(8),
    series: [[1, 1, NaN, NaN, NaN, NaN, 1, 1]],
    cols: 4,
    rows: 1,
    min: 0,
    max: 1,
  });
  assert.deepEqual(gap.lines, dots([[0, 0], [1, 0], [6, 0], [7, 0]], 4, 1));
  assert.deepEqual([...gap.owners], [1, 0, 0, 1]);
  const x = range(1001);
  const peak = renderChart({
    x,
    series: [x.map((i) => (i === 500 ? 10 : 0))],
    cols: 5,
    rows: 1,
    min: 0,
    max: 10,
  });
  // Columns 4 (400..500) and 5 (500..600) reach the peak; the others lie on 0 (row 3).
  const lit: [number, number][] = [];
  for (let dx = 0; dx < 10; dx++) {
    for (const dy of dx === 4 || dx === 5 ? [0, 1, 2, 3] : [3]) lit.push([dx, dy]);
  }
  assert.deepEqual(peak.lines, dots(lit, 5, 1));
});

Deno.test("a baseline is dotted every other dot column and owned by no series", () => {
  const chart = renderChart({
    x: [0, 1],
    series: [null],
    cols: 2,
    rows: 1,
    min: -1,
    max: 1,
    baseline: 0,
  });
  // 0 sits on dot row round(1.5) = 2.
  assert.deepEqual(chart.lines, dots([[0, 2], [2, 2]], 2, 1));
  assert.deepEqual([...chart.owners], [0, 0]);
  // Out of range, it is not drawn.
  const off = renderChart({
    x: [0, 1],
    series: [null],
    cols: 1,
    rows: 1,
    min: 1,
    max: 2,
    baseline: 0,
  });
  assert.deepEqual(off.lines, ["\u2800"]);
});

Deno.test("flat values sit on the middle row; sizes are held to at least one cell", () => {
  const flat = renderChart({ x: [0, 1], series: [[5, 5]], cols: 1, rows: 1 });
  assert.deepEqual([flat.min, flat.max], [5, 5]);
  assert.deepEqual(flat.lines, dots([[0, 1], [1, 1]], 1, 1));
  const tiny = renderChart({ x: [], series: [[]], cols: 0, rows: 0 });
  assert.deepEqual(tiny.lines, ["\u2800"]);
  const wide = renderChart({ x: [0, 1], series: [[0, 1]], cols: 7, rows: 3 });
  assert.equal(wide.lines.length, 3);
  for (const l of wide.lines) assert.equal([...l].length, 7);
  assert.equal(MAX_SERIES, 8);
});

Deno.test("chartColumn finds the cell column of an x, columnX the middle of a column", () => {
  const chart = { cols: 10, from: 0, to: 100 };
  assert.equal(chartColumn(chart, 0), 0);
  assert.equal(chartColumn(chart, 9.99), 0);
  assert.equal(chartColumn(chart, 10), 1);
  assert.equal(chartColumn(chart, 100), 9);
  assert.equal(chartColumn(chart, -1), null);
  assert.equal(chartColumn(chart, 100.5), null);
  assert.equal(chartColumn({ cols: 4, from: 5, to: 5 }, 5), 0);
  assert.equal(columnX(0, 100, 10, 0), 5);
  assert.equal(columnX(200, 300, 4, 3), 287.5);
  for (let c = 0; c < 10; c++) assert.equal(chartColumn(chart, columnX(0, 100, 10, c)), c);
});
