// @ts-check
/**
 * The compare page (`/compare?laps=ID,ID&ref=ID`): two to five laps over
 * the reference's distance, as charts sharing one cursor and one zoom, the
 * track map, the corner table (most time lost first; a click zooms every
 * chart to the corner), the circuit's best sectors and the consistency band
 * of its best laps. Everything comes from the public API. The URL holds the
 * whole view (laps, reference, the lap the map and table compare, the map's
 * colouring, the zoom), so a copied address opens the same view. Shown by
 * the router (pages.js), which opens it in place from the laps page.
 *
 * This module puts the parts together in the order a driver sees them:
 * compare_fetch.js asks, compare_specs.js works out what to draw (free of
 * the DOM, tested from Deno), shared_charts.js, shared_map.js and
 * compare_tables.js draw.
 *
 * `window.comparePage` exposes the charts, the map and the timings, for the
 * browser tests and for anyone scripting the page.
 *
 * @module
 */
import { MAX_LAPS, readView } from "./compare_requests.js";
import { fetchCharts, fetchLater } from "./compare_fetch.js";
import {
  bandOnGrid,
  chartSpecs,
  cornerWindows,
  lapStyles,
  orderLaps,
  pageTimings,
  readoutText,
  scopeOf,
  vsOf,
} from "./compare_specs.js";
import {
  clearView,
  drawCorners,
  drawLegend,
  drawSectors,
  queryText,
  sendToLaps,
} from "./compare_tables.js";
import { $, download, LAP_COLOURS } from "./shared_api.js";
import { makeCharts } from "./shared_charts.js";
import { deltaColour, makeMap, speedColour } from "./shared_map.js";

/**
 * @typedef {import("./api_types.js").Comparison} Comparison
 * @typedef {import("./api_types.js").ComparedLap} ComparedLap
 * @typedef {import("./team_rows.js").ShownRow} LapRow
 * @typedef {import("./compare_specs.js").CornerWindow} CornerWindow
 * @typedef {import("./compare_fetch.js").LaterData} LaterData
 * @typedef {import("./compare_requests.js").CompareView} CompareView
 * @typedef {ReturnType<typeof makeCharts>} Charts
 * @typedef {ReturnType<typeof makeMap>} TrackMap
 * @typedef {{
 *   ready: boolean, timings: Record<string, number | null>,
 *   laps?: number[], ref?: number, vs?: number | null, compare?: Comparison,
 *   charts?: Charts["charts"], zoom?: Charts["zoom"], windows?: CornerWindow[],
 *   map?: TrackMap, mapMode?: string,
 * }} ComparePage
 * What `window.comparePage` holds: the comparison drawn, its parts and its timings.
 * @typedef {{
 *   cmp: Comparison, laps: ComparedLap[], vsId: number | null, refRow: LapRow | undefined,
 *   charts: Charts, windows: CornerWindow[], map: { shown: TrackMap | null },
 * }} Drawn
 * A comparison whose charts are drawn; `map.shown` once its map is.
 */

/** @type {ComparePage} */
let page = { ready: false, timings: {} };

/** The epoch time in ms, as `ViewContext.clickedAt` counts it. */
const now = () => performance.timeOrigin + performance.now();

/**
 * Resolves once what was drawn is on screen: uPlot draws in a microtask and
 * the browser paints in the next frame.
 * @returns {Promise<void>}
 */
const painted = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));

/**
 * Sets (or, with null, drops) parameters of the address without a new
 * history entry: the view a copied address opens.
 * @param {Record<string, string | number | null>} change
 */
function writeUrl(change) {
  const q = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(change)) {
    if (v === null || v === undefined) q.delete(k);
    else q.set(k, String(v));
  }
  history.replaceState(null, "", `${location.pathname}?${queryText(q)}`);
}

/**
 * Draws the comparison of the address; resolves once it is drawn. The
 * charts of the comparison shown before are destroyed first, and this one's
 * when `ctx.signal` aborts (the router shows another page).
 * @param {import("./pages.js").ViewContext} ctx
 * @returns {Promise<string>} the `data-ready` state to show
 */
export async function showCompare(ctx) {
  const { signal } = ctx;
  // From the click that opened it, else from the start of the page's load.
  const started = ctx.clickedAt ?? performance.timeOrigin;
  page = { ready: false, timings: {} };
  Object.assign(window, { comparePage: page });
  clearView();
  const view = readView(location.search);
  if (view.laps.length < 1) {
    sendToLaps("Pick laps to compare on ");
    return "message";
  }
  if (view.laps.length > MAX_LAPS) {
    sendToLaps(`A comparison draws at most ${MAX_LAPS} laps; pick fewer on `);
    return "message";
  }
  const { cmp, rows } = await fetchCharts(view);
  if (signal.aborted) return "aborted";
  const fetched = now();
  const laps = orderLaps(cmp);
  const vsId = vsOf(laps, view.vs);
  const refRow = rows.get(cmp.ref);
  const scope = scopeOf(refRow);
  const later = fetchLater(cmp.ref, vsId, scope, refRow?.circuit ?? null);
  const drawn = drawCharts({ cmp, laps, vsId, refRow }, rows, view, scope !== null, signal);
  await painted();
  const charted = now();
  const data = await later;
  if (signal.aborted) return "aborted";
  drawRest(drawn, data, view, signal);
  await painted();
  const at = { started, fetched, charted, drawn: now() };
  Object.assign(page.timings, pageTimings(at, ctx.clickedAt !== null));
  page.ready = true;
  return "true";
}

/**
 * The header, the legend and the charts: all a driver waits for, so
 * nothing else is drawn before them.
 * @param {Pick<Drawn, "cmp" | "laps" | "vsId" | "refRow">} c
 * @param {Map<number, LapRow>} rows
 * @param {CompareView} view
 * @param {boolean} withBand the speed chart will have a consistency band
 * @param {AbortSignal} signal destroys the charts when it aborts
 * @returns {Drawn}
 */
function drawCharts(c, rows, view, withBand, signal) {
  const { cmp, laps, vsId, refRow } = c;
  $("laps-legend").hidden = false;
  $("layout").hidden = false;
  const styles = lapStyles(laps, rows);
  Object.assign(page, { laps: laps.map((l) => l.id), ref: cmp.ref, vs: vsId, compare: cmp });
  document.title = `compare ${laps.map((l) => `#${l.id}`).join(" ")} · sim-datalogger`;
  $("title").textContent = `${refRow?.track || "unnamed circuit"} · ${refRow?.car_name ?? ""}`;
  drawLegend(laps, styles, rows, vsId);
  const grid = cmp.distance;
  const specs = chartSpecs(laps, grid.length, withBand);
  /** @type {CornerWindow[]} */
  const windows = [];
  /** @type {{ shown: TrackMap | null }} */
  const map = { shown: null };
  const readout = $("readout");
  const charts = makeCharts($("charts"), grid, styles, specs, windows, {
    onCursor(idx) {
      map.shown?.cursor(idx);
      readout.textContent = readoutText(grid, laps, idx);
    },
    onZoom(min, max) {
      const at = (/** @type {number | null} */ v) => v === null ? null : Number(v.toFixed(2));
      writeUrl({ from: at(min), to: at(max) });
    },
  });
  signal.addEventListener("abort", () => {
    for (const chart of charts.charts) chart.destroy();
  });
  Object.assign(page, { charts: charts.charts, zoom: charts.zoom, windows });
  if (view.from !== null && view.to !== null) charts.zoom(view.from, view.to);
  return { ...c, charts, windows, map };
}

/**
 * What comes after the charts: the band on the speed chart, the corners
 * on every chart, the map, the corner table and the sectors.
 * @param {Drawn} d
 * @param {LaterData} data
 * @param {CompareView} view
 * @param {AbortSignal} signal
 */
function drawRest(d, data, view, signal) {
  const { cmp, laps, vsId, refRow, charts, windows } = d;
  const speedChart = charts.charts.find((c) => c.key === "speed");
  if (data.cons && speedChart) {
    const band = bandOnGrid(data.cons, cmp.distance);
    speedChart.setData([...speedChart.data.slice(0, -2), band.hi, band.lo], false);
  }
  windows.push(...cornerWindows(data.refCorners, data.vsCorners));
  for (const c of charts.charts) c.redraw(false, false);
  const title = `${refRow?.track || "unnamed circuit"}: the reference's line`;
  d.map.shown = showMap(laps, windows, data.compiled, title, vsId, view.map, cmp.ref, signal);
  drawCorners(data.vsCorners, windows, vsId, cmp.ref, charts.zoom, charts.full);
  drawSectors(data.sectors, data.cons, refRow?.circuit ? null : refRow?.session_id ?? null);
}

/**
 * The track map, coloured as the address says, with its colour switch and
 * its SVG download.
 * @param {ComparedLap[]} laps in drawing order
 * @param {CornerWindow[]} windows
 * @param {import("./api_types.js").CompiledTrack | null} compiled
 * @param {string} title
 * @param {number | null} vsId
 * @param {"delta" | "speed"} mode
 * @param {number} ref
 * @param {AbortSignal} signal
 * @returns {TrackMap}
 */
function showMap(laps, windows, compiled, title, vsId, mode, ref, signal) {
  /** @type {null[]} */
  const nulls = new Array(laps[0].delta_s.length).fill(null);
  const mapLaps = laps.map((l, i) => ({
    x: l.channels.pos_x ?? nulls,
    z: l.channels.pos_z ?? nulls,
    colour: LAP_COLOURS[i],
  }));
  const map = makeMap($("map"), mapLaps, windows, compiled, title);
  page.map = map;
  const paint = (/** @type {string} */ mode) => {
    const vsIndex = laps.findIndex((l) => l.id === vsId);
    if (mode === "delta" && vsIndex > 0) {
      // Time lost (red) or gained (green) over each stretch of the line.
      const d = laps[vsIndex].delta_s;
      map.paint((a, b) => (d[b] ?? NaN) - (d[a] ?? NaN), deltaColour, true);
    } else {
      const s = laps[0].channels.speed ?? nulls;
      map.paint((a, b) => ((s[a] ?? NaN) + (s[b] ?? NaN)) / 2, speedColour, false);
    }
    page.mapMode = mode;
  };
  const modeSelect = /** @type {HTMLSelectElement} */ ($("map-mode"));
  modeSelect.value = mode;
  paint(mode);
  modeSelect.addEventListener("change", () => {
    paint(modeSelect.value);
    writeUrl({ map: modeSelect.value === "speed" ? "speed" : null });
  }, { signal });
  $("map-svg").addEventListener("click", () => {
    download(new Blob([map.text()], { type: "image/svg+xml" }), `map-${ref}.svg`);
  }, { signal });
  return map;
}
