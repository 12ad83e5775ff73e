// @ts-check
/**
 * What a comparison's address asks for, free of the DOM: the view the
 * address holds, and the two requests its charts wait for. pages.html
 * starts those two before the page's scripts load (a comparison opened by
 * its address) and compare.js asks for the same paths, from this one list:
 * `api()` (shared_api.js) takes a request started early only when its path
 * is the same, so two lists that drifted apart would cost the deep link its
 * head start silently.
 *
 * @module
 */

/** The channels the page asks for; steering and tyre slip are drawn where a lap carries them. */
export const CHANNELS = [
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

/** The most laps a comparison draws (one colour each, shared_api.js's LAP_COLOURS). */
export const MAX_LAPS = 5;

/**
 * The view an address's query asks for.
 * @typedef {{
 *   laps: string[], ref: string | null, vs: string | null,
 *   map: "delta" | "speed", from: number | null, to: number | null,
 * }} CompareView
 */

/**
 * The view `search` (an address's query, `?laps=3,5&ref=5`) asks for: the
 * lap ids as written, blanks dropped; `map` is "speed" only when it says so.
 * @param {string} search
 * @returns {CompareView}
 */
export function readView(search) {
  const q = new URLSearchParams(search);
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

/**
 * The two paths the charts wait for: the comparison with its channels, and
 * just these laps' rows (circuit, car, marks), however old, the reference
 * included once. The same view always gives the same two paths.
 * @param {Pick<CompareView, "laps" | "ref">} view
 * @returns {{ compare: string, rows: string }}
 */
export function chartRequests(view) {
  const ref = view.ref ? `&ref=${view.ref}` : "";
  const ids = [...new Set(view.ref ? [...view.laps, view.ref] : view.laps)].join(",");
  return {
    compare: `/api/analysis/compare?laps=${view.laps.join(",")}${ref}&channels=${
      CHANNELS.join(",")
    }`,
    rows: `/api/laps?ids=${ids}`,
  };
}

/**
 * For pages.html, before the page's scripts load: on `/compare` with one to
 * {@linkcode MAX_LAPS} laps, starts the two requests of
 * {@linkcode chartRequests} and leaves them in `globalThis.earlyApi` by path
 * for `api()` to take; anywhere else it starts nothing.
 * @param {{ pathname: string, search: string }} at the document's address
 */
export function startEarly(at) {
  if (at.pathname !== "/compare") return;
  const view = readView(at.search);
  if (view.laps.length < 1 || view.laps.length > MAX_LAPS) return;
  /** @type {Record<string, Promise<Response>>} */
  const early = {};
  for (const p of Object.values(chartRequests(view))) {
    early[p] = fetch(p, { headers: { accept: "application/json" } });
  }
  Object.assign(globalThis, { earlyApi: early });
}
