// @ts-check
/**
 * One compare chart's uPlot options and data, worked out free of the DOM
 * and of uPlot itself (the stepped-path builder is passed in), so Deno tests
 * read what each chart will draw: a distance series, one series per lap
 * (the reference first and thicker), the consistency band's two edges with
 * the fill between them, and the y scale (fixed, symmetric about zero or
 * automatic). shared_charts.js adds the hooks that tie the charts together.
 *
 * @module
 */

/**
 * @typedef {import("./shared_charts.js").ChartSpec} ChartSpec
 * @typedef {import("./shared_charts.js").LapStyle} LapStyle
 * @typedef {(u: unknown, v: number | null | undefined) => string} ValueText
 * @typedef {{
 *   label: string, stroke?: string, width?: number, paths?: unknown,
 *   spanGaps?: boolean, value: ValueText, points?: { show: boolean },
 * }} SeriesOptions
 * @typedef {{
 *   width: number, height: number, padding: (number | null)[], series: SeriesOptions[],
 *   bands: { series: [number, number], fill: string }[],
 *   legend: { live: boolean },
 *   scales: Record<string, Record<string, unknown>>,
 *   axes: Record<string, unknown>[],
 *   cursor: Record<string, unknown>,
 * }} ChartOptions
 * uPlot's options without the plugins and hooks.
 */

/** Pixels of each chart's height below its corner numbers' band (plot and distance axis). */
export const CHART_HEIGHT = 132;

/** Rows of corner numbers a chart stacks above its plot before it leaves one out. */
export const LABEL_ROWS = 3;
/** CSS px of a corner number's text. */
export const LABEL_FONT_PX = 10;
/** CSS px from one row of corner numbers to the next: the text and 2 px, clear of the row below. */
export const LABEL_PITCH_PX = LABEL_FONT_PX + 2;
/**
 * CSS px kept clear between two corner numbers of one row, at any chart
 * width: closer than this, `T1T2` reads as one label (a phone's chart).
 */
export const LABEL_GAP_PX = 6;
/**
 * CSS px of the band above the plot the corner numbers are written in, with
 * 2 px over its first row and under its last: the traces are clipped to the
 * plot, so none (a throttle at 100%) is ever drawn over a number.
 */
export const LABEL_BAND_PX = 2 + LABEL_ROWS * LABEL_PITCH_PX + 2;

/** The band between the consistency edges, and the edges' own stroke. */
const BAND_FILL = "rgba(140,140,255,0.14)";
const BAND_STROKE = "rgba(160,160,255,0.35)";

/**
 * A legend's value with `digits` decimals, "—" where there is none.
 * @param {number} digits
 * @returns {ValueText}
 */
export function valueText(digits) {
  return (_u, v) => (v === null || v === undefined ? "—" : v.toFixed(digits));
}

/**
 * A y range centred on zero holding every value, at least ±0.1 (a delta
 * chart: ahead below the line, behind above it, an all-zero trace still
 * drawn at the middle).
 * @param {unknown} _u
 * @param {number | null} min
 * @param {number | null} max
 * @returns {[number, number]}
 */
export function symmetricRange(_u, min, max) {
  const m = Math.max(0.1, Math.abs(min ?? 0), Math.abs(max ?? 0)) * 1.1;
  return [-m, m];
}

/**
 * The chart of `spec` over the distances `x`, `width` px wide: its options
 * (series, band, scales, axes, a cursor synced with every compare chart and
 * a drag that zooms x only) and its data, the distances first, then each
 * lap's series, then the band's upper and lower edge.
 * @param {ChartSpec} spec
 * @param {LapStyle[]} laps
 * @param {ArrayLike<number>} x
 * @param {number} width
 * @param {unknown} stepped uPlot's stepped paths, used for `spec.stepped`
 * @returns {{ opts: ChartOptions, data: ArrayLike<number | null>[] }}
 */
export function chartOptions(spec, laps, x, width, stepped) {
  const value = valueText(spec.digits ?? 1);
  /** @type {SeriesOptions[]} */
  const series = [{ label: "m", value: valueText(0) }];
  /** @type {ArrayLike<number | null>[]} */
  const data = [x];
  spec.series.forEach((values, i) => {
    series.push({
      label: laps[i].label,
      stroke: laps[i].colour,
      width: i === 0 ? 1.5 : 1.25,
      paths: spec.stepped ? stepped : undefined,
      spanGaps: false,
      value,
      points: { show: false },
    });
    data.push(values);
  });
  /** @type {ChartOptions["bands"]} */
  const bands = [];
  if (spec.band) {
    const hi = series.length;
    for (
      const [label, edge] of /** @type {const} */ ([
        ["spread +1σ", spec.band.hi],
        ["spread −1σ", spec.band.lo],
      ])
    ) {
      series.push({ label, stroke: BAND_STROKE, value, points: { show: false } });
      data.push(edge);
    }
    bands.push({ series: [hi, hi + 1], fill: BAND_FILL });
  }
  // A new object each: uPlot keeps and fills in the options it is given.
  const axis = () => ({ stroke: "#aaa", grid: { stroke: "#2a2a2a" }, ticks: { stroke: "#444" } });
  const opts = {
    width,
    height: CHART_HEIGHT + LABEL_BAND_PX,
    // The band on top is the corner numbers' (null: uPlot's own padding on the other sides).
    padding: [LABEL_BAND_PX, null, null, null],
    series,
    bands,
    legend: { live: true },
    scales: {
      x: { time: false },
      y: spec.range
        ? { range: spec.range }
        : spec.symmetric
        ? { range: symmetricRange }
        : { auto: true },
    },
    axes: [axis(), { ...axis(), size: 56 }],
    cursor: {
      sync: { key: "compare", setSeries: false },
      drag: { x: true, y: false, setScale: true },
      points: { size: 5 },
    },
  };
  return { opts, data };
}
