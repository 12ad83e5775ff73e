// @ts-check
/**
 * The compare page's charts: one uPlot chart per channel, all on the
 * reference's distance, tied together so they behave as one instrument (as
 * MoTeC i2's worksheets do): one cursor (uPlot's cursor sync: moving over
 * any chart moves every chart's cursor to the same metre), one zoom (a drag
 * on any chart sets every chart's distance range; a double click resets
 * all), and the corner windows shaded and labelled by the circuit's stable
 * numbers under every trace. uPlot is the vendored global `uPlot`
 * (vendor/uplot.iife.min.js), loaded before the page's modules.
 *
 * @module
 */
import {
  chartOptions,
  LABEL_BAND_PX,
  LABEL_FONT_PX,
  LABEL_GAP_PX,
  LABEL_PITCH_PX,
  LABEL_ROWS,
} from "./chart_options.js";
import { download } from "./shared_api.js";

/**
 * @typedef {{ n: number, entry_m: number, exit_m: number, lost_s?: number | null }} CornerWindow
 * A corner's window on the reference; `lost_s`: time the compared lap lost there (null: unknown).
 * @typedef {{ label: string, colour: string }} LapStyle
 * @typedef {{
 *   key: string, title: string, unit: string,
 *   series: (ArrayLike<number | null>)[],
 *   band?: { lo: ArrayLike<number | null>, hi: ArrayLike<number | null> } | null,
 *   range?: [number, number] | null,
 *   stepped?: boolean,
 *   digits?: number,
 *   symmetric?: boolean,
 * }} ChartSpec
 */

/**
 * A uPlot chart as the compare page uses it, with the key of its spec and,
 * once drawn, the corner numbers it wrote (see {@linkcode labelCorners}).
 * @typedef {{
 *   key: string, data: ArrayLike<number | null>[],
 *   scales: Record<string, { min: number, max: number }>,
 *   cursor: { idx?: number | null },
 *   over: HTMLElement, ctx: CanvasRenderingContext2D,
 *   bbox: { left: number, top: number, width: number, height: number },
 *   cornerLabels?: { n: number, row: number, left: number, right: number, top: number, bottom: number }[],
 *   setScale: (key: string, range: { min: number, max: number }) => void,
 *   setData: (data: ArrayLike<number | null>[], resetScales?: boolean) => void,
 *   redraw: (rebuildPaths?: boolean, recalcAxes?: boolean) => void,
 *   valToPos: (v: number, scale: string, canvasPixels?: boolean) => number,
 *   destroy: () => void,
 * }} Chart
 * @typedef {{
 *   ctx: {
 *     save(): void, restore(): void, measureText(text: string): { width: number },
 *     fillText(text: string, x: number, y: number): void,
 *     fillStyle?: unknown, font?: unknown, textAlign?: unknown, textBaseline?: unknown,
 *   },
 *   bbox: Chart["bbox"], valToPos: Chart["valToPos"], cornerLabels?: Chart["cornerLabels"],
 * }} LabelTarget
 * What {@linkcode labelCorners} draws on: a chart's canvas, its plot box and scale.
 * @typedef {{
 *   new (opts: object, data: ArrayLike<number | null>[], target: HTMLElement): Chart,
 *   paths: { stepped: (opts: { align: number }) => unknown },
 * }} UPlotClass
 */

/** The vendored chart library, a global of its script (uplot.iife.min.js). */
const uPlot = /** @type {{ uPlot: UPlotClass }} */ (/** @type {unknown} */ (globalThis)).uPlot;

/**
 * A chart's frame: its section with a title and its PNG button.
 * @param {ChartSpec} spec
 * @returns {{ box: HTMLElement, png: HTMLButtonElement }}
 */
function chartBox(spec) {
  const box = document.createElement("section");
  box.className = "chart";
  box.dataset.chart = spec.key;
  const head = document.createElement("header");
  const title = document.createElement("h3");
  title.textContent = spec.unit ? `${spec.title} (${spec.unit})` : spec.title;
  const png = document.createElement("button");
  png.type = "button";
  png.textContent = "PNG";
  png.title = `save the ${spec.title} chart as a PNG image`;
  png.dataset.png = spec.key;
  head.append(title, png);
  box.append(head);
  return { box, png };
}

/**
 * Draws `specs` into `container`, one chart each, over the distances `x`.
 * `onCursor(idx)` runs once per cursor move with the grid index under the
 * cursor (null when it leaves); `onZoom(min, max)` once per zoom (null, null
 * when reset to the whole lap).
 * @param {HTMLElement} container
 * @param {ArrayLike<number>} x
 * @param {LapStyle[]} laps
 * @param {ChartSpec[]} specs
 * @param {CornerWindow[]} corners
 * @param {{ onCursor: (idx: number | null) => void, onZoom: (min: number | null, max: number | null) => void }} on
 */
export function makeCharts(container, x, laps, specs, corners, on) {
  /** @type {Chart[]} */
  const charts = [];
  let syncing = false;
  // Scale changes before every chart's first draw are uPlot's own initial
  // ranging, not a zoom: passing them on would redraw every chart once per
  // chart.
  let ready = false;
  let drawnCharts = 0;
  let lastIdx = /** @type {number | null | undefined} */ (undefined);
  const full = [x[0], x[x.length - 1]];
  const width = Math.max(320, container.clientWidth - 8);
  const plugins = [{
    hooks: {
      drawClear: [(/** @type {Chart} */ u) => shadeCorners(u, corners)],
      draw: [(/** @type {Chart} */ u) => labelCorners(u, corners)],
    },
  }];
  // A new object for each chart: uPlot adds the plugins' hooks to the one it is given.
  const hooksOf = () => ({
    setScale: [(/** @type {Chart} */ u, /** @type {string} */ key) => {
      if (key !== "x" || !ready || syncing) return;
      syncing = true;
      const { min, max } = u.scales.x;
      for (const other of charts) {
        if (other !== u) other.setScale("x", { min, max });
      }
      syncing = false;
      const whole = min <= full[0] && max >= full[1];
      on.onZoom(whole ? null : min, whole ? null : max);
    }],
    ready: [() => {
      drawnCharts += 1;
      if (drawnCharts === specs.length) ready = true;
    }],
    setCursor: [(/** @type {Chart} */ u) => {
      const idx = u.cursor.idx ?? null;
      if (idx === lastIdx) return;
      lastIdx = idx;
      on.onCursor(idx);
    }],
  });

  for (const spec of specs) {
    const { box, png } = chartBox(spec);
    container.append(box);
    const stepped = spec.stepped ? uPlot.paths.stepped({ align: 1 }) : undefined;
    const { opts, data } = chartOptions(spec, laps, x, width, stepped);
    const chart = new uPlot({ ...opts, plugins, hooks: hooksOf() }, data, box);
    chart.key = spec.key;
    charts.push(chart);
    png.addEventListener("click", () => savePng(chart, spec.key));
    chart.over.addEventListener("dblclick", () => zoom(null, null));
  }

  /**
   * Sets every chart's distance range to [min, max] (null: the whole lap).
   * @param {number | null} min
   * @param {number | null} max
   */
  function zoom(min, max) {
    const lo = min ?? full[0];
    const hi = max ?? full[1];
    syncing = true;
    for (const c of charts) c.setScale("x", { min: lo, max: hi });
    syncing = false;
    on.onZoom(min, max);
  }

  return { charts, zoom, full };
}

/**
 * Shades each corner window under the traces.
 * @param {Chart} u
 * @param {CornerWindow[]} corners
 */
function shadeCorners(u, corners) {
  const { ctx, bbox } = u;
  ctx.save();
  ctx.fillStyle = "rgba(255,255,255,0.06)";
  for (const c of corners) {
    const a = Math.max(bbox.left, u.valToPos(c.entry_m, "x", true));
    const b = Math.min(bbox.left + bbox.width, u.valToPos(c.exit_m, "x", true));
    if (b > a) ctx.fillRect(a, bbox.top, b - a, bbox.height);
  }
  ctx.restore();
}

/**
 * Where the corner numbers go: each label (`mid`: its centre, `half`: half
 * its width, px; `lost_s`: time lost there, or null) in the first of `rows`
 * rows where it keeps `gap` px from every label already there, the labels
 * of most time lost placed first, then left to right. A label finds no row
 * only when the `rows` labels it would overlap each lost at least as much,
 * so the corner where the most time went is always labelled. Labels
 * outside [`left`, `right`] are not placed. Returns the placed labels left
 * to right, each with its row (0 = top).
 * @template {{ n: number, mid: number, half: number, lost_s?: number | null }} L
 * @param {L[]} labels
 * @param {number} left
 * @param {number} right
 * @param {number} gap
 * @param {number} rows
 * @returns {(L & { row: number })[]}
 */
export function placeCornerLabels(labels, left, right, gap, rows) {
  const lost = (/** @type {L} */ l) => l.lost_s ?? -Infinity;
  const order = labels
    .filter((l) => l.mid >= left && l.mid <= right)
    .sort((a, b) => lost(b) - lost(a) || a.mid - b.mid);
  /** @type {[number, number][][]} */
  const taken = Array.from({ length: rows }, () => []);
  /** @type {(L & { row: number })[]} */
  const placed = [];
  for (const l of order) {
    const from = l.mid - l.half - gap;
    const to = l.mid + l.half + gap;
    const row = taken.findIndex((spans) => spans.every(([a, b]) => to <= a || from >= b));
    if (row < 0) continue;
    taken[row].push([l.mid - l.half, l.mid + l.half]);
    placed.push({ ...l, row });
  }
  return placed.sort((a, b) => a.mid - b.mid);
}

/**
 * Writes each corner's number over its window, in the band above the plot
 * (chart_options.js's `LABEL_BAND_PX`, where no trace is drawn), in up to
 * {@linkcode LABEL_ROWS} rows so that close corners (Suzuka's esses, a
 * narrow chart) keep their numbers, two numbers of a row at least
 * `LABEL_GAP_PX` apart; where even that is too little room, the numbers of
 * least time lost are left out (see {@linkcode placeCornerLabels}); zooming
 * in shows them all. The chart keeps what it wrote as `u.cornerLabels`
 * (number, row and box in canvas px, left to right).
 * @param {LabelTarget} u a chart, or anything that draws text as its canvas does
 * @param {CornerWindow[]} corners
 */
export function labelCorners(u, corners) {
  const { ctx, bbox } = u;
  ctx.save();
  ctx.fillStyle = "rgba(255,255,255,0.55)";
  const px = Math.round(LABEL_FONT_PX * devicePixelRatio);
  ctx.font = `${px}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  const labels = corners.map((c) => {
    const text = `T${c.n}`;
    return {
      n: c.n,
      text,
      lost_s: c.lost_s ?? null,
      mid: u.valToPos((c.entry_m + c.exit_m) / 2, "x", true),
      half: ctx.measureText(text).width / 2,
    };
  });
  const placed = placeCornerLabels(
    labels,
    bbox.left,
    bbox.left + bbox.width,
    LABEL_GAP_PX * devicePixelRatio,
    LABEL_ROWS,
  );
  const band = bbox.top - LABEL_BAND_PX * devicePixelRatio;
  u.cornerLabels = placed.map((l) => {
    const top = band + (2 + l.row * LABEL_PITCH_PX) * devicePixelRatio;
    ctx.fillText(l.text, l.mid, top);
    const box = { left: l.mid - l.half, right: l.mid + l.half, top, bottom: top + px };
    return { n: l.n, row: l.row, ...box };
  });
  ctx.restore();
}

/**
 * Saves the chart's canvas (traces, axes, corners) as `<key>.png`.
 * @param {Chart} chart
 * @param {string} key
 */
function savePng(chart, key) {
  const canvas = /** @type {HTMLCanvasElement} */ (chart.ctx.canvas);
  const out = document.createElement("canvas");
  out.width = canvas.width;
  out.height = canvas.height;
  const ctx = /** @type {CanvasRenderingContext2D} */ (out.getContext("2d"));
  ctx.fillStyle = "#111";
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(canvas, 0, 0);
  out.toBlob((blob) => {
    if (blob) download(blob, `${key}.png`);
  }, "image/png");
}
