// @ts-check
/**
 * The compare page's text beside the charts, drawn into the page's own
 * elements: the legend of the laps compared (colour, marks, links), the
 * corner table (most time lost first; a row zooms every chart to its
 * corner), the best sectors with the theoretical best and the consistency,
 * and the emptying of all that when another comparison is drawn in place.
 *
 * @module
 */
import { $, el, fixed, lapTime, signed } from "./shared_api.js";

/**
 * @typedef {import("./api_types.js").ComparedLap} ComparedLap
 * @typedef {import("./api_types.js").CornerReport} CornerReport
 * @typedef {import("./api_types.js").Consistency} Consistency
 * @typedef {import("./team_rows.js").ShownRow} LapRow
 * @typedef {import("./api_types.js").SectorBests} SectorBests
 * @typedef {import("./shared_charts.js").LapStyle} LapStyle
 * @typedef {import("./compare_specs.js").CornerWindow} CornerWindow
 */

/** Metres shown either side of a corner window when a row is clicked (the braking zone and the run out). */
const CORNER_MARGIN_M = 50;

/**
 * `q` as an address's query, commas left readable (`laps=3,5,8`): the
 * address is for people to read and share.
 * @param {URLSearchParams} q
 * @returns {string}
 */
export function queryText(q) {
  return q.toString().replaceAll("%2C", ",");
}

/**
 * Gives the comparison about to be drawn a fresh copy of the page's parts
 * (pages.html's `compare-parts` template: legend, charts, map, tables, all
 * hidden until the comparison is in, so a refusal or a message stands alone
 * over no empty panels) in place of the ones the comparison shown before
 * drew into (the router reuses the page), and the header as it loaded.
 */
export function clearView() {
  // Not there before the first comparison: the template holds them.
  document.getElementById("laps-legend")?.remove();
  document.getElementById("layout")?.remove();
  const parts = /** @type {HTMLTemplateElement} */ ($("compare-parts"));
  $("compare-view").append(parts.content.cloneNode(true));
  $("title").textContent = "Compare";
  $("readout").replaceChildren();
}

/**
 * Shows `text` with a link to the laps page, where laps are picked.
 * @param {string} text the sentence, ending where the link goes
 */
export function sendToLaps(text) {
  $("message").append(text, el("a", { href: "/laps" }, ["the laps page"]), ".");
}

/**
 * The laps compared, each with its colour, marks and links: to make it the
 * reference, to compare it on the map and table, its exports.
 * @param {ComparedLap[]} laps in drawing order
 * @param {LapStyle[]} styles
 * @param {Map<number, LapRow>} rows
 * @param {number | null} vsId
 */
export function drawLegend(laps, styles, rows, vsId) {
  const box = $("laps-legend");
  laps.forEach((l, i) => {
    const row = rows.get(l.id);
    const item = el("span", { class: "lap", "data-lap": l.id }, [
      el("i", { class: "swatch", style: `background:${styles[i].colour}` }),
      `#${l.id} ${lapTime(l.time_ms)}`,
      // On the team hub a lap is its driver's; on the logger, its session's.
      row?.driver !== undefined
        ? ` · ${row.driver}`
        : row
        ? ` · s${row.session_id} L${row.number}`
        : "",
    ]);
    if (i === 0) item.append(el("b", { class: "tag" }, ["reference"]));
    else item.append(...otherTags(laps, l.id, vsId));
    if (row && !row.complete) item.append(el("b", { class: "incomplete" }, ["incomplete"]));
    item.append(
      el("a", { href: `/api/laps/${l.id}/export.json`, class: "tag", download: "" }, ["JSON"]),
    );
    // The team hub serves a lap's file, not its CSV.
    if (row?.driver === undefined) {
      item.append(
        el("a", { href: `/api/laps/${l.id}/export.csv`, class: "tag", download: "" }, ["CSV"]),
      );
    }
    box.append(item);
  });
}

/**
 * A lap's tags beside the reference's: "make reference", and "map &
 * corners", a link unless it is the lap compared already.
 * @param {ComparedLap[]} laps
 * @param {number} id
 * @param {number | null} vsId
 * @returns {HTMLElement[]}
 */
function otherTags(laps, id, vsId) {
  const others = laps.map((o) => o.id).filter((o) => o !== id);
  const asRef = `/compare?laps=${[id, ...others].join(",")}&ref=${id}`;
  const tags = [el("a", { href: asRef, class: "tag" }, ["make reference"])];
  if (id === vsId) return [...tags, el("b", { class: "tag" }, ["map & corners"])];
  const q = new URLSearchParams(location.search);
  q.set("vs", String(id));
  return [...tags, el("a", { href: `/compare?${queryText(q)}`, class: "tag" }, ["map & corners"])];
}

/**
 * The corner table of the `vs` lap against the reference, most time lost
 * first; a click or Enter on a row zooms every chart to its corner.
 * @param {CornerReport | null} report
 * @param {CornerWindow[]} windows the reference's corners
 * @param {number | null} vsId
 * @param {number} refId
 * @param {(min: number | null, max: number | null) => void} zoom
 * @param {number[]} full the grid's first and last metre
 */
export function drawCorners(report, windows, vsId, refId, zoom, full) {
  const body = /** @type {HTMLElement} */ ($("corners").querySelector("tbody"));
  $("corners-title").textContent = vsId === null
    ? "Corners"
    : `Corners: #${vsId} against #${refId}${report ? ` (${report.source})` : ""}`;
  if (!report) return;
  for (const c of report.corners) {
    const w = windows.find((x) => x.n === c.n) ?? c;
    const tr = cornerRow(c);
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
 * One corner's row. The time lost comes right after the corner: on a phone
 * the table scrolls sideways in its box, and what the table is for must not
 * be off-screen.
 * @param {import("./api_types.js").CornerReportRow} c
 * @returns {HTMLElement}
 */
function cornerRow(c) {
  const offset = c.brake_m !== null && c.ref_brake_m !== null ? c.brake_m - c.ref_brake_m : null;
  const d = c.delta_s ?? 0;
  return el("tr", { "data-corner": c.n, tabIndex: 0 }, [
    el("td", {}, [`T${c.n}${c.name ? ` ${c.name}` : ""}`]),
    el("td", { class: d > 0 ? "lost" : d < 0 ? "gained" : "" }, [signed(c.delta_s)]),
    el("td", {}, [fixed(c.time_s, 3)]),
    el("td", {}, [fixed(c.entry_kmh)]),
    el("td", {}, [fixed(c.min_kmh)]),
    el("td", {}, [fixed(c.exit_kmh)]),
    el("td", {}, [fixed(c.brake_m, 0)]),
    el("td", {}, [offset === null ? "—" : `${offset > 0 ? "+" : ""}${offset.toFixed(1)}`]),
  ]);
}

/**
 * The best sectors, theoretical best, and how consistent the best laps are:
 * of the circuit and car, or of session `session` (an unnamed one) and car.
 * @param {SectorBests | null} sectors
 * @param {Consistency | null} cons
 * @param {number | null} session
 */
export function drawSectors(sectors, cons, session) {
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
