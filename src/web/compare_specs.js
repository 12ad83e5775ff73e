// @ts-check
/**
 * What the compare page draws, worked out free of the DOM from the API's
 * answers: the laps in drawing order, their labels and colours, the chart
 * specs, the consistency band on the grid, the corner windows with the time
 * lost in each, the readout under the cursor and the page's timings. Deno
 * tests import it as the browser does (like cues.js for the live page);
 * compare.js fetches and draws.
 *
 * @module
 */
import { LAP_COLOURS, lapTime, signed } from "./shared_api.js";

/**
 * @typedef {import("./api_types.js").Comparison} Comparison
 * @typedef {import("./api_types.js").ComparedLap} ComparedLap
 * @typedef {import("./api_types.js").Consistency} Consistency
 * @typedef {import("./api_types.js").CornerReport} CornerReport
 * @typedef {import("./api_types.js").CornerReportRow} CornerReportRow
 * @typedef {import("./team_rows.js").ShownRow} LapRow
 * @typedef {import("./shared_charts.js").ChartSpec} ChartSpec
 * @typedef {import("./shared_charts.js").LapStyle} LapStyle
 * @typedef {CornerReportRow & { lost_s: number | null }} CornerWindow
 * A corner of the reference with the time the compared lap lost there (null: unknown).
 */

/**
 * Linear interpolation of (xs, ys) at `x`; null outside xs or across a null.
 * @param {ArrayLike<number>} xs ascending
 * @param {ArrayLike<number | null>} ys
 * @param {number} x
 * @returns {number | null}
 */
export function lerp(xs, ys, x) {
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
 * The consistency band on the compare grid: the mean ± spread of the best
 * laps, their distances scaled to the reference's length (laps line up by
 * fraction of their length); null where the band does not reach.
 * @param {Pick<Consistency, "distance" | "mean_kmh" | "spread_kmh">} cons
 * @param {number[]} grid
 * @returns {{ hi: (number | null)[], lo: (number | null)[] }}
 */
export function bandOnGrid(cons, grid) {
  const d = cons.distance;
  const len = d[d.length - 1];
  const refLen = grid[grid.length - 1];
  const scaled = d.map((v) => (v * refLen) / len);
  /** @type {(number | null)[]} */
  const hi = [];
  /** @type {(number | null)[]} */
  const lo = [];
  for (const x of grid) {
    const m = lerp(scaled, cons.mean_kmh, x);
    const s = lerp(scaled, cons.spread_kmh, x);
    hi.push(m === null || s === null ? null : m + s);
    lo.push(m === null || s === null ? null : m - s);
  }
  return { hi, lo };
}

/**
 * The laps in drawing order: the reference first, then the others in the
 * order the comparison lists them (the address's).
 * @param {Comparison} cmp
 * @returns {ComparedLap[]}
 */
export function orderLaps(cmp) {
  const ref = cmp.laps.filter((l) => l.id === cmp.ref);
  return [...ref, ...cmp.laps.filter((l) => l.id !== cmp.ref)];
}

/**
 * The lap the map and the corner table compare with the reference: the
 * address's `vs` when it is one of the laps, else the first lap after the
 * reference; null with the reference alone.
 * @param {ComparedLap[]} laps in drawing order
 * @param {string | null} vs the address's `vs`
 * @returns {number | null}
 */
export function vsOf(laps, vs) {
  const named = laps.find((l) => String(l.id) === vs);
  return named?.id ?? laps[1]?.id ?? null;
}

/**
 * The query of the bests and the band: a named circuit's are the circuit
 * and car's; an unnamed session's laps count for that session alone, so
 * its own; null without the reference's row.
 * @param {LapRow | undefined} ref
 * @returns {string | null}
 */
export function scopeOf(ref) {
  if (!ref) return null;
  return ref.circuit
    ? `track=${encodeURIComponent(ref.track)}&car=${ref.car_id}`
    : `session=${ref.session_id}&car=${ref.car_id}`;
}

/**
 * Each lap's legend label and colour: `ref ` before the reference's, the
 * driver on the team hub, the time, and `incomplete` for a lap whose
 * packets were lost.
 * @param {ComparedLap[]} laps in drawing order
 * @param {Map<number, LapRow>} rows
 * @returns {LapStyle[]}
 */
export function lapStyles(laps, rows) {
  return laps.map((l, i) => {
    const row = rows.get(l.id);
    const tag = i === 0 ? "ref " : "";
    return {
      label: `${tag}#${l.id}${row?.driver ? ` ${row.driver}` : ""} ${lapTime(l.time_ms)}${
        row && !row.complete ? " incomplete" : ""
      }`,
      colour: LAP_COLOURS[i],
    };
  });
}

/**
 * The charts, top to bottom: delta, speed (with an empty band to fill when
 * `withBand`), throttle, brake, gear, rpm, then steering and tyre slip when
 * any lap carries them. A lap without a channel draws nothing there.
 * @param {ComparedLap[]} laps in drawing order
 * @param {number} points the grid's length
 * @param {boolean} withBand
 * @returns {ChartSpec[]}
 */
export function chartSpecs(laps, points, withBand) {
  /** @type {null[]} */
  const nulls = new Array(points).fill(null);
  const of = (/** @type {string} */ name) => laps.map((l) => l.channels[name] ?? nulls);
  const carries = (/** @type {string} */ name) => laps.some((l) => l.channels[name]);
  const pct = /** @type {[number, number]} */ ([0, 100]);
  /** @type {ChartSpec[]} */
  const specs = [
    {
      key: "delta",
      digits: 3,
      symmetric: true,
      title: "Delta to the reference",
      unit: "s",
      series: laps.map((l) => l.delta_s),
    },
    // The band is filled once the consistency arrives; a circuit without one keeps it empty.
    {
      key: "speed",
      digits: 1,
      title: "Speed",
      unit: "km/h",
      series: of("speed"),
      band: withBand ? { hi: nulls, lo: nulls } : null,
    },
    {
      key: "throttle",
      digits: 0,
      title: "Throttle",
      unit: "%",
      series: of("throttle"),
      range: pct,
    },
    { key: "brake", digits: 0, title: "Brake", unit: "%", series: of("brake"), range: pct },
    { key: "gear", digits: 0, title: "Gear", unit: "", series: of("gear"), stepped: true },
    { key: "rpm", digits: 0, title: "RPM", unit: "rpm", series: of("rpm") },
  ];
  if (carries("steer")) {
    specs.push({ key: "steer", digits: 3, title: "Steering", unit: "rad", series: of("steer") });
  }
  if (carries("tire_slip")) {
    const series = of("tire_slip");
    specs.push({ key: "tire_slip", digits: 3, title: "Tyre slip", unit: "ratio", series });
  }
  return specs;
}

/**
 * The reference's corners, each with the time the compared lap lost there
 * (from its report against the reference), so the charts keep the numbers
 * of the corners that matter when there is no room for all.
 * @param {CornerReport | null} ref the reference's own report
 * @param {CornerReport | null} vs the compared lap's against the reference
 * @returns {CornerWindow[]}
 */
export function cornerWindows(ref, vs) {
  const lostAt = new Map((vs?.corners ?? []).map((c) => [c.n, c.delta_s]));
  return (ref?.corners ?? []).map((c) => ({ ...c, lost_s: lostAt.get(c.n) ?? null }));
}

/**
 * The header's readout at grid index `idx`: the distance, then each lap's
 * delta to the reference there ("" when the cursor left the charts).
 * @param {number[]} grid
 * @param {ComparedLap[]} laps in drawing order
 * @param {number | null} idx
 * @returns {string}
 */
export function readoutText(grid, laps, idx) {
  if (idx === null) return "";
  const parts = [`${grid[idx].toFixed(0)} m`];
  for (const l of laps.slice(1)) parts.push(`#${l.id} ${signed(l.delta_s[idx])}`);
  return parts.join(" · ");
}

/**
 * The page's timings, whole ms, from the moments (epoch ms) it started (the
 * click, else the document's load), had its data, showed its charts and
 * finished: the click's pair when a click opened it, else the load's.
 * @param {{ started: number, fetched: number, charted: number, drawn: number }} at
 * @param {boolean} clicked
 * @returns {Record<string, number | null>}
 */
export function pageTimings(at, clicked) {
  const ms = (/** @type {number} */ from, /** @type {number} */ to) => Math.round(to - from);
  return {
    fetch_ms: ms(at.started, at.fetched),
    charts_ms: ms(at.fetched, at.charted),
    load_to_charts_ms: clicked ? null : ms(at.started, at.charted),
    load_to_complete_ms: clicked ? null : ms(at.started, at.drawn),
    click_to_charts_ms: clicked ? ms(at.started, at.charted) : null,
    click_to_complete_ms: clicked ? ms(at.started, at.drawn) : null,
  };
}
