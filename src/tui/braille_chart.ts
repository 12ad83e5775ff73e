/**
 * Line charts in braille for the terminal: series over a shared x (metres
 * along a lap) drawn into cols x rows cells, each cell a 2 x 4 grid of dots.
 * Every dot column shows the whole range its slice of x covers (the lowest
 * to the highest value in it, the values at its edges included), so a peak
 * narrower than a column still shows and adjacent columns always join.
 *
 * Pure and allocation-light: a chart is computed once per data, window and
 * size; a cursor is drawn over it by the caller (see {@linkcode chartColumn}).
 *
 * @module
 */

import { BrailleCanvas } from "./braille_canvas.ts";

/** Most series one chart draws (each owns one bit of {@linkcode BrailleChart.owners}). */
export const MAX_SERIES = 8;

/** What to draw. */
export interface ChartOptions {
  /** The x of every sample, ascending (equal neighbours allowed). */
  x: ArrayLike<number>;
  /**
   * The series, each indexed like `x`; a null series or a non-finite value
   * is not drawn. At most {@linkcode MAX_SERIES}.
   */
  series: readonly (ArrayLike<number> | null)[];
  /** Width in cells (at least 1). */
  cols: number;
  /** Height in cells (at least 1). */
  rows: number;
  /** Left edge of the window shown, in x (default the first x). */
  from?: number;
  /** Right edge of the window shown, in x (default the last x). */
  to?: number;
  /** Value at the bottom row (default the lowest value in the window). */
  min?: number;
  /** Value at the top row (default the highest value in the window). */
  max?: number;
  /** A value drawn as a dotted level line (every other dot), e.g. 0 of a delta. */
  baseline?: number;
}

/** A drawn chart. */
export interface BrailleChart {
  /** Exactly `rows` strings of exactly `cols` braille characters, top row first. */
  lines: string[];
  /**
   * For cell (row r, col c) at `r * cols + c`: bit k is set when series k
   * has a dot in it (the baseline sets none), so a caller can colour cells.
   */
  owners: Uint8Array;
  cols: number;
  rows: number;
  /** The window shown, in x. */
  from: number;
  to: number;
  /** The values at the bottom and top dot rows. */
  min: number;
  max: number;
}

/**
 * Draws `opts.series` over `opts.x` in braille. Guarantees: `lines` has
 * `rows` strings of `cols` characters; dot column i (of 2 x cols) covers x
 * from `from + i * w` to `from + (i + 1) * w` (w = (to - from) / (2 cols))
 * and lights, for each series, every dot row from its lowest to its
 * highest value there (values linearly interpolated at the column's edges);
 * value v sits on dot row round((max - v) / (max - min) * (4 rows - 1)),
 * held to the chart, row 0 at the top (the middle row when max = min).
 */
export function renderChart(opts: ChartOptions): BrailleChart {
  const canvas = new BrailleCanvas(opts.cols, opts.rows);
  const { cols, rows, dotsX, dotsY } = canvas;
  const x = opts.x;
  const n = x.length;
  const from = opts.from ?? (n > 0 ? x[0] : 0);
  const to = Math.max(from, opts.to ?? (n > 0 ? x[n - 1] : 0));
  const series = opts.series.slice(0, MAX_SERIES);
  let min = opts.min;
  let max = opts.max;
  if (min === undefined || max === undefined) {
    const range = valueRange(x, series, from, to);
    min ??= range ? range[0] : 0;
    max ??= range ? range[1] : 1;
  }
  const owners = new Uint8Array(cols * rows);
  const span = max - min;
  const dotRow = (v: number) => {
    if (!(span > 0)) return (dotsY - 1) >> 1;
    const r = Math.round((max - v) / span * (dotsY - 1));
    return r < 0 ? 0 : r >= dotsY ? dotsY - 1 : r;
  };
  const plot = (dx: number, dy: number, owner: number) => {
    owners[canvas.dot(dx, dy)] |= owner;
  };
  if (opts.baseline !== undefined && opts.baseline >= min && opts.baseline <= max) {
    const r = dotRow(opts.baseline);
    for (let dx = 0; dx < dotsX; dx += 2) plot(dx, r, 0);
  }
  const w = (to - from) / dotsX;
  for (const [k, values] of series.entries()) {
    if (!values || n === 0) continue;
    let j = 0; // first sample with x >= the column's left edge
    for (let dx = 0; dx < dotsX; dx++) {
      const a = from + dx * w;
      const b = dx === dotsX - 1 ? to : from + (dx + 1) * w;
      while (j < n && x[j] < a) j++;
      const range = new Range();
      range.over(x, values, j, a, b);
      if (range.lo > range.hi) continue;
      const top = dotRow(range.hi);
      const bottom = dotRow(range.lo);
      for (let dy = top; dy <= bottom; dy++) plot(dx, dy, 1 << k);
    }
  }
  return { lines: canvas.lines(), owners, cols, rows, from, to, min, max };
}

/**
 * The value of `values` at `at`, linearly between the samples around it;
 * `j` is the first sample with x >= `at` (n when none). NaN outside the
 * samples or next to a missing value.
 */
function interpolate(x: ArrayLike<number>, values: ArrayLike<number>, j: number, at: number) {
  if (j >= x.length) return NaN;
  if (x[j] === at) return values[j];
  if (j === 0) return NaN;
  const x0 = x[j - 1];
  const x1 = x[j];
  const f = x1 > x0 ? (at - x0) / (x1 - x0) : 0;
  return values[j - 1] + (values[j] - values[j - 1]) * f;
}

/**
 * The lowest and highest finite value of `series` at x in [from, to], the
 * values interpolated at both edges included; null when there is none.
 */
export function valueRange(
  x: ArrayLike<number>,
  series: readonly (ArrayLike<number> | null)[],
  from: number,
  to: number,
): [number, number] | null {
  const range = new Range();
  const n = x.length;
  for (const values of series) {
    if (!values) continue;
    let j = 0;
    while (j < n && x[j] < from) j++;
    range.over(x, values, j, from, to);
  }
  return range.lo > range.hi ? null : [range.lo, range.hi];
}

/** The lowest and highest finite value taken so far (lo > hi while none). */
class Range {
  lo = Infinity;
  hi = -Infinity;

  /** Takes `v` when finite. */
  take(v: number): void {
    if (!Number.isFinite(v)) return;
    if (v < this.lo) this.lo = v;
    if (v > this.hi) this.hi = v;
  }

  /**
   * Takes the values of `values` at x in [`a`, `b`], interpolated at both
   * edges; `j` is the first sample with x >= `a`.
   */
  over(x: ArrayLike<number>, values: ArrayLike<number>, j: number, a: number, b: number): void {
    this.take(interpolate(x, values, j, a));
    let m = j;
    for (; m < x.length && x[m] <= b; m++) this.take(values[m]);
    this.take(interpolate(x, values, m, b));
  }
}

/**
 * The cell column of `chart` holding `at` (x): floor((at - from) / (to -
 * from) * cols), the right edge itself in the last column; null outside the
 * window.
 */
export function chartColumn(
  chart: Pick<BrailleChart, "cols" | "from" | "to">,
  at: number,
): number | null {
  if (!(at >= chart.from && at <= chart.to)) return null;
  if (!(chart.to > chart.from)) return 0;
  return Math.min(
    chart.cols - 1,
    Math.floor((at - chart.from) / (chart.to - chart.from) * chart.cols),
  );
}

/** The x at the middle of cell column `col` of a window `from`..`to` of `cols` columns. */
export function columnX(from: number, to: number, cols: number, col: number): number {
  return from + (col + 0.5) * (to - from) / Math.max(1, cols);
}
