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
 * `window.comparePage` exposes the charts, the map and the timings, for the
 * browser tests and for anyone scripting the page.
 *
 * @module
 */
import { $, api, download, el, fixed, LAP_COLOURS, lapTime, signed } from "./shared_api.js";
import { makeCharts } from "./shared_charts.js";
import { deltaColour, makeMap, speedColour } from "./shared_map.js";

/** The channels the page asks for; steering and tyre slip are drawn where a lap carries them. */
const CHANNELS = [
  "speed",
  "throttle",
  "brake",
  "gear",
  "rpm",
  "steer",
  "tire_slip",
  "pos_x",
  "pos_z",
];
/** Metres shown either side of a corner window when a row is clicked (the braking zone and the run out). */
const CORNER_MARGIN_M = 50;

/** @type {any} */
let page = { ready: false, timings: {} };

/** The view the URL asks for. */
function readUrl() {
  const q = new URLSearchParams(location.search);
  const ids = (q.get("laps") ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "");
  const num = (/** @type {string | null} */ v) => (v === null || v === "" ? null : Number(v));
  return {
    laps: ids,
    ref: q.get("ref"),
    vs: q.get("vs"),
    map: q.get("map") === "speed" ? "speed" : "delta",
    from: num(q.get("from")),
    to: num(q.get("to")),
  };
}

/** @param {Record<string, string | number | null>} change */
function writeUrl(change) {
  const q = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(change)) {
    if (v === null || v === undefined) q.delete(k);
    else q.set(k, String(v));
  }
  history.replaceState(null, "", `${location.pathname}?${queryText(q)}`);
}

/**
 * `q` as an address's query, commas left readable (`laps=3,5,8`): the
 * address is for people to read and share.
 * @param {URLSearchParams} q
 */
function queryText(q) {
  return q.toString().replaceAll("%2C", ",");
}

/**
 * Linear interpolation of (xs, ys) at `x`; null outside or across a null.
 * @param {ArrayLike<number>} xs ascending
 * @param {ArrayLike<number | null>} ys
 * @param {number} x
 */
function lerp(xs, ys, x) {
  if (x < xs[0] || x > xs[xs.length - 1]) return null;
  let lo = 0, hi = xs.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] <= x) lo = mid;
    else hi = mid;
  }
  const a = ys[lo], b = ys[hi];
  if (a === null || b === null) return null;
  const span = xs[hi] - xs[lo];
  return span === 0 ? a : a + ((b - a) * (x - xs[lo])) / span;
}

/**
 * The consistency band on the compare grid: the median lap's mean ± spread,
 * its distances scaled to the reference's length (laps line up by fraction).
 * @param {any} cons
 * @param {number[]} grid
 */
function bandOnGrid(cons, grid) {
  const d = cons.distance;
  const len = d[d.length - 1];
  const refLen = grid[grid.length - 1];
  const scaled = d.map((/** @type {number} */ v) => (v * refLen) / len);
  const hi = [], lo = [];
  for (const x of grid) {
    const m = lerp(scaled, cons.mean_kmh, x);
    const s = lerp(scaled, cons.spread_kmh, x);
    hi.push(m === null || s === null ? null : m + s);
    lo.push(m === null || s === null ? null : m - s);
  }
  return { hi, lo };
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
  /** @type {any} */ (window).comparePage = page;
  clearView();
  const view = readUrl();
  if (view.laps.length < 1) {
    $("message").append(
      "Pick laps to compare on ",
      el("a", { href: "/laps" }, ["the laps page"]),
      ".",
    );
    return "message";
  }
  if (view.laps.length > LAP_COLOURS.length) {
    $("message").append(
      `A comparison draws at most ${LAP_COLOURS.length} laps; pick fewer on `,
      el("a", { href: "/laps" }, ["the laps page"]),
      ".",
    );
    return "message";
  }
  const query = `laps=${view.laps.join(",")}${view.ref ? `&ref=${view.ref}` : ""}`;
  const cornersOf = (/** @type {string} */ q) =>
    api(`/api/analysis/corners?${q}`).catch(() => null);
  // The charts need only the comparison and the lap list: those are asked
  // for first, and the rest (corners, sectors, consistency, the bundle) once
  // they are in, so the logger computes the charts' data first and the rest
  // while the browser draws them.
  const cmpP = api(`/api/analysis/compare?${query}&channels=${CHANNELS.join(",")}`);
  // Just these laps' rows (circuit, car, marks), however old; the same path
  // as pages.html's early request. A bad id is the comparison's to explain.
  const ids = [...new Set(view.ref ? [...view.laps, view.ref] : view.laps)].join(",");
  const rowsP = api(`/api/laps?ids=${ids}`).catch((/** @type {Error} */ err) => err);
  const [cmp, rows] = await Promise.all([cmpP, rowsP]);
  if (rows instanceof Error) throw rows;
  if (signal.aborted) return "aborted";
  $("laps-legend").hidden = false;
  $("layout").hidden = false;
  /** @type {Map<number, any>} */
  const byId = new Map(rows.map((/** @type {any} */ r) => [r.id, r]));
  const fetched = performance.timeOrigin + performance.now();
  // The reference first, then the others in the order the URL gives.
  const laps = [
    cmp.laps.find((/** @type {any} */ l) => l.id === cmp.ref),
    ...cmp.laps.filter((/** @type {any} */ l) => l.id !== cmp.ref),
  ];
  const vsId = laps.some((l) => String(l.id) === view.vs) ? Number(view.vs) : laps[1]?.id ?? null;
  const refRow = byId.get(cmp.ref);
  const circuit = refRow?.circuit ?? null;
  // A named circuit's bests and band are the circuit's; an unnamed session's
  // laps count for that session alone, so its own are asked for.
  const scope = circuit
    ? `track=${encodeURIComponent(refRow?.track ?? "")}&car=${refRow?.car_id}`
    : refRow
    ? `session=${refRow.session_id}&car=${refRow.car_id}`
    : null;
  const later = Promise.all([
    cornersOf(`lap=${cmp.ref}`),
    vsId === null ? null : cornersOf(`lap=${vsId}&ref=${cmp.ref}`),
    scope ? api(`/api/analysis/sectors?${scope}`).catch(() => null) : null,
    circuit ? compiledOf(circuit) : null,
    scope ? api(`/api/analysis/consistency?${scope}`).catch(() => null) : null,
  ]);
  const styles = laps.map((l, i) => {
    const row = byId.get(l.id);
    const tag = i === 0 ? "ref " : "";
    return {
      label: `${tag}#${l.id} ${lapTime(l.time_ms)}${row && !row.complete ? " incomplete" : ""}`,
      colour: LAP_COLOURS[i],
    };
  });
  page.laps = laps.map((l) => l.id);
  page.ref = cmp.ref;
  page.vs = vsId;
  page.compare = cmp;

  const track = refRow?.track ?? "";
  document.title = `compare ${laps.map((l) => `#${l.id}`).join(" ")} · sim-datalogger`;
  $("title").textContent = `${track || "unnamed circuit"} · ${refRow?.car_name ?? ""}`;
  drawLegend(laps, styles, byId, vsId);

  /** @type {import("./shared_charts.js").CornerWindow[]} */
  const windows = [];
  const grid = cmp.distance;
  const ch = (/** @type {string} */ name) => laps.map((l) => l.channels[name] ?? null);
  const carries = (/** @type {string} */ name) => ch(name).some((v) => v !== null);
  const nulls = new Array(grid.length).fill(null);
  const seriesOf = (/** @type {string} */ name) => ch(name).map((v) => v ?? nulls);
  /** @type {import("./shared_charts.js").ChartSpec[]} */
  const specs = [
    {
      key: "delta",
      digits: 3,
      symmetric: true,
      title: "Delta to the reference",
      unit: "s",
      series: laps.map((l) => l.delta_s),
    },
    {
      key: "speed",
      digits: 1,
      title: "Speed",
      unit: "km/h",
      series: seriesOf("speed"),
      // Filled once the consistency arrives; a circuit without one keeps it empty.
      band: scope ? { hi: nulls, lo: nulls } : null,
    },
    {
      key: "throttle",
      digits: 0,
      title: "Throttle",
      unit: "%",
      series: seriesOf("throttle"),
      range: [0, 100],
    },
    {
      key: "brake",
      digits: 0,
      title: "Brake",
      unit: "%",
      series: seriesOf("brake"),
      range: [0, 100],
    },
    { key: "gear", digits: 0, title: "Gear", unit: "", series: seriesOf("gear"), stepped: true },
    { key: "rpm", digits: 0, title: "RPM", unit: "rpm", series: seriesOf("rpm") },
  ];
  if (carries("steer")) {
    specs.push({
      key: "steer",
      digits: 3,
      title: "Steering",
      unit: "rad",
      series: seriesOf("steer"),
    });
  }
  if (carries("tire_slip")) {
    specs.push({
      key: "tire_slip",
      digits: 3,
      title: "Tyre slip",
      unit: "ratio",
      series: seriesOf("tire_slip"),
    });
  }

  const chartsBox = $("charts");
  /** @type {ReturnType<typeof makeMap> | null} */
  let map = null;
  const readout = $("readout");
  const deltas = laps.map((l) => l.delta_s);
  const made = makeCharts(chartsBox, grid, styles, specs, windows, {
    onCursor(idx) {
      map?.cursor(idx);
      if (idx === null) {
        readout.textContent = "";
        return;
      }
      const parts = [`${grid[idx].toFixed(0)} m`];
      for (let i = 1; i < laps.length; i++) parts.push(`#${laps[i].id} ${signed(deltas[i][idx])}`);
      readout.textContent = parts.join(" · ");
    },
    onZoom(min, max) {
      writeUrl({
        from: min === null ? null : Number(min.toFixed(2)),
        to: max === null ? null : Number(max.toFixed(2)),
      });
    },
  });
  signal.addEventListener("abort", () => {
    for (const c of made.charts) c.destroy();
  });
  page.charts = made.charts;
  page.zoom = made.zoom;
  page.windows = windows;
  if (view.from !== null && view.to !== null) made.zoom(view.from, view.to);
  // uPlot draws in a microtask and the browser paints in the next frame:
  // the charts are on screen once that frame ran.
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  const charted = performance.timeOrigin + performance.now();

  const [refCorners, vsCorners, sectors, compiled, cons] = await later;
  if (signal.aborted) return "aborted";
  const speedChart = made.charts.find((c) => c.key === "speed");
  if (cons && speedChart) {
    const band = bandOnGrid(cons, grid);
    speedChart.setData([...speedChart.data.slice(0, -2), band.hi, band.lo], false);
  }
  // Each corner with the time the compared lap lost there, so the charts keep the numbers of
  // the corners that matter when there is no room for all.
  const lostAt = new Map(
    (vsCorners?.corners ?? []).map((/** @type {any} */ c) => [c.n, c.delta_s ?? null]),
  );
  windows.push(
    ...(refCorners?.corners ?? []).map((/** @type {any} */ c) => ({
      ...c,
      lost_s: lostAt.get(c.n) ?? null,
    })),
  );
  for (const c of made.charts) c.redraw(false, false);
  const mapLaps = laps.map((l, i) => ({
    x: l.channels.pos_x ?? nulls,
    z: l.channels.pos_z ?? nulls,
    colour: LAP_COLOURS[i],
  }));
  const drawnMap = makeMap(
    $("map"),
    mapLaps,
    windows,
    compiled,
    `${track || "unnamed circuit"}: the reference's line`,
  );
  map = drawnMap;
  page.map = drawnMap;

  const paint = (/** @type {string} */ mode) => {
    const vsIndex = laps.findIndex((l) => l.id === vsId);
    if (mode === "delta" && vsIndex > 0) {
      // Time lost (red) or gained (green) over each stretch of the line.
      const d = laps[vsIndex].delta_s;
      drawnMap.paint((a, b) => (d[b] ?? NaN) - (d[a] ?? NaN), deltaColour, true);
    } else {
      const s = laps[0].channels.speed ?? nulls;
      drawnMap.paint((a, b) => ((s[a] ?? NaN) + (s[b] ?? NaN)) / 2, speedColour, false);
    }
    page.mapMode = mode;
  };
  const modeSelect = /** @type {HTMLSelectElement} */ ($("map-mode"));
  modeSelect.value = view.map;
  paint(view.map);
  modeSelect.addEventListener("change", () => {
    paint(modeSelect.value);
    writeUrl({ map: modeSelect.value === "speed" ? "speed" : null });
  }, { signal });
  $("map-svg").addEventListener("click", () => {
    download(new Blob([drawnMap.text()], { type: "image/svg+xml" }), `map-${cmp.ref}.svg`);
  }, { signal });

  drawCorners(vsCorners, windows, vsId, cmp.ref, made.zoom, made.full);
  drawSectors(sectors, cons, circuit ? null : refRow?.session_id ?? null);
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  const drawn = performance.timeOrigin + performance.now();
  const clicked = ctx.clickedAt !== null;
  Object.assign(page.timings, {
    fetch_ms: Math.round(fetched - started),
    charts_ms: Math.round(charted - fetched),
    load_to_charts_ms: clicked ? null : Math.round(charted - started),
    load_to_complete_ms: clicked ? null : Math.round(drawn - started),
    click_to_charts_ms: clicked ? Math.round(charted - started) : null,
    click_to_complete_ms: clicked ? Math.round(drawn - started) : null,
  });
  page.ready = true;
  return "true";
}

/** Empties what a comparison shown before drew (the router reuses the page's elements). */
function clearView() {
  for (const id of ["laps-legend", "charts", "map", "readout", "theoretical", "consistency"]) {
    $(id).replaceChildren();
  }
  for (const id of ["corners", "sectors"]) $(id).querySelector("tbody")?.replaceChildren();
  $("title").textContent = "Compare";
  $("corners-title").textContent = "Corners";
  $("sectors-title").textContent = "Sectors";
  // Hidden until the comparison is in: a refusal or a message stands alone, over no empty panels.
  $("laps-legend").hidden = true;
  $("layout").hidden = true;
}

/**
 * The compiled geometry of the circuit's bundle, or null when it has none.
 * @param {string} slug
 */
async function compiledOf(slug) {
  try {
    const bundles = await api("/api/track-bundles");
    const found = bundles.find((/** @type {any} */ b) => b.slug === slug);
    if (!found || found.coverage === null) return null;
    return await api(`/api/track-bundles/${slug}/compiled`);
  } catch {
    return null;
  }
}

/**
 * The laps compared, each with its colour, marks and export links.
 * @param {any[]} laps
 * @param {{ label: string, colour: string }[]} styles
 * @param {Map<number, any>} byId
 * @param {number | null} vsId
 */
function drawLegend(laps, styles, byId, vsId) {
  const box = $("laps-legend");
  laps.forEach((l, i) => {
    const row = byId.get(l.id);
    const others = laps.map((o) => o.id).filter((id) => id !== l.id);
    const asRef = `/compare?laps=${[l.id, ...others].join(",")}&ref=${l.id}`;
    const item = el("span", { class: "lap", "data-lap": l.id }, [
      el("i", { class: "swatch", style: `background:${styles[i].colour}` }),
      `#${l.id} ${lapTime(l.time_ms)}`,
      row ? ` · s${row.session_id} L${row.number}` : "",
    ]);
    if (i === 0) item.append(el("b", { class: "tag" }, ["reference"]));
    else {
      item.append(el("a", { href: asRef, class: "tag" }, ["make reference"]));
      if (l.id !== vsId) {
        const q = new URLSearchParams(location.search);
        q.set("vs", String(l.id));
        item.append(
          el("a", { href: `/compare?${queryText(q)}`, class: "tag" }, [
            "map & corners",
          ]),
        );
      } else item.append(el("b", { class: "tag" }, ["map & corners"]));
    }
    if (row && !row.complete) item.append(el("b", { class: "incomplete" }, ["incomplete"]));
    item.append(
      el("a", { href: `/api/laps/${l.id}/export.json`, class: "tag", download: "" }, ["JSON"]),
      el("a", { href: `/api/laps/${l.id}/export.csv`, class: "tag", download: "" }, ["CSV"]),
    );
    box.append(item);
  });
}

/**
 * The corner table of the `vs` lap against the reference, most time lost first.
 * @param {any} report
 * @param {{ n: number, entry_m: number, exit_m: number }[]} windows the reference's corners
 * @param {number | null} vsId
 * @param {number} refId
 * @param {(min: number | null, max: number | null) => void} zoom
 * @param {number[]} full
 */
function drawCorners(report, windows, vsId, refId, zoom, full) {
  const body = /** @type {HTMLElement} */ ($("corners").querySelector("tbody"));
  $("corners-title").textContent = vsId === null
    ? "Corners"
    : `Corners: #${vsId} against #${refId}${report ? ` (${report.source})` : ""}`;
  if (!report) return;
  for (const c of report.corners) {
    const w = windows.find((x) => x.n === c.n) ?? c;
    const offset = c.brake_m !== null && c.ref_brake_m !== null ? c.brake_m - c.ref_brake_m : null;
    // The time lost comes right after the corner: on a phone the table scrolls sideways in its
    // box, and what the table is for must not be off-screen.
    const tr = el("tr", { "data-corner": c.n, tabIndex: 0 }, [
      el("td", {}, [`T${c.n}${c.name ? ` ${c.name}` : ""}`]),
      el("td", { class: c.delta_s > 0 ? "lost" : c.delta_s < 0 ? "gained" : "" }, [
        signed(c.delta_s),
      ]),
      el("td", {}, [fixed(c.time_s, 3)]),
      el("td", {}, [fixed(c.entry_kmh)]),
      el("td", {}, [fixed(c.min_kmh)]),
      el("td", {}, [fixed(c.exit_kmh)]),
      el("td", {}, [fixed(c.brake_m, 0)]),
      el("td", {}, [offset === null ? "—" : `${offset > 0 ? "+" : ""}${offset.toFixed(1)}`]),
    ]);
    const go = () => {
      zoom(
        Math.max(full[0], w.entry_m - CORNER_MARGIN_M),
        Math.min(full[1], w.exit_m + CORNER_MARGIN_M),
      );
      for (const r of body.querySelectorAll("tr.selected")) r.classList.remove("selected");
      tr.classList.add("selected");
    };
    tr.addEventListener("click", go);
    tr.addEventListener("keydown", (e) => {
      if (e.key === "Enter") go();
    });
    body.append(tr);
  }
}

/**
 * The best sectors, theoretical best, and how consistent the best laps are:
 * of the circuit and car, or of session `session` (an unnamed one) and car.
 * @param {any} sectors
 * @param {any} cons
 * @param {number | null} session
 */
function drawSectors(sectors, cons, session) {
  const body = /** @type {HTMLElement} */ ($("sectors").querySelector("tbody"));
  $("sectors-title").textContent = session === null
    ? "Sectors of the circuit and car"
    : `Sectors of session ${session} (unnamed) and car`;
  if (!sectors) {
    $("theoretical").textContent = session === null
      ? "No sectors: no lap of this circuit and car counts for best."
      : `No sectors: no lap of session ${session} in this car counts for best.`;
    return;
  }
  for (const s of sectors.sectors) {
    body.append(el("tr", { "data-sector": s.n }, [
      el("td", {}, [s.name ?? `Sector ${s.n}`]),
      el("td", {}, [`${fixed(s.start_m, 0)}–${fixed(s.end_m, 0)}`]),
      el("td", {}, [fixed(s.best_s, 3)]),
      el("td", {}, [`#${s.lap_id}`]),
    ]));
  }
  $("theoretical").textContent = `Theoretical best ${
    lapTime(sectors.theoretical_best_ms)
  } · best lap ${lapTime(sectors.best_lap_ms)} (#${sectors.best_lap_id})`;
  if (cons) {
    $("consistency").textContent = `Consistency of the best ${cons.lap_ids.length}: lap times ±${
      fixed(cons.time_spread_s, 3)
    } s; their speed ±1σ is the band on the speed chart.`;
  }
}
