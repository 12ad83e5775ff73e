// @ts-check
/**
 * What the analysis pages share: reading the public API (every call goes
 * through `api`, so a refusal shows its problem text), lap times as a driver
 * reads them, the colours the laps are drawn in, and saving a file the page
 * made (a chart's PNG, the map's SVG).
 *
 * @module
 */

/**
 * The element of the page with id `id` (the pages' own ids, always there).
 * @param {string} id
 */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** The colour of the reference, then of each other lap in order: a comparison draws five laps at most. */
export const LAP_COLOURS = ["#e8e8e8", "#ff5c5c", "#4db8ff", "#ffc21a", "#5ee07a"];

/**
 * GET `path` of this logger's API as JSON. A refusal throws an Error whose
 * message is {@linkcode problemText} of the answer.
 * @param {string} path such as `/api/laps?limit=1000`
 * @returns {Promise<unknown>} the answer's body: its type is the route's
 *   (api_types.js), which the caller names
 */
export async function api(path) {
  // A page may have started this request before its scripts loaded (pages.html, for a comparison opened by its address); used once.
  const early = /** @type {{ earlyApi?: Record<string, Promise<Response>> }} */ (globalThis)
    .earlyApi;
  const started = early?.[path];
  if (early && started !== undefined) delete early[path];
  const res = await (started ?? fetch(path, { headers: { accept: "application/json" } }));
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(problemText(res.status, body, path));
  return body;
}

/**
 * A refusal's body as the API writes it (RFC 9457 problem details, as the
 * OpenAPI document's Problem schema describes them), read leniently: any part may be
 * missing when the answer was not one.
 * @typedef {{
 *   detail?: string, title?: string, errors?: { path: string, message: string }[],
 * }} Problem
 */

/**
 * A refusal in one line: the status and the problem's detail (its title,
 * or the path, without one), then each of its issues the detail does not
 * already say, by path and rule or as the whole detail ("400 the 1st lap
 * id (0) must be a positive integer", once).
 * @param {number} status
 * @param {unknown} body the answer's body, null when it was not JSON
 * @param {string} path
 * @returns {string}
 */
export function problemText(status, body, path) {
  const problem = /** @type {Problem | null} */ (body);
  const detail = String(problem?.detail ?? problem?.title ?? path);
  const extra = (problem?.errors ?? [])
    .filter((e) => e.message !== detail && !detail.includes(`${e.path} ${e.message}`))
    .map((e) => `${e.path}: ${e.message}`);
  return [`${status} ${detail}`, ...extra].join("; ");
}

/**
 * A lap time as m:ss.mmm (`1:39.036`); "—" for null.
 * @param {number | null | undefined} ms
 */
export function lapTime(ms) {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  const total = Math.round(ms);
  const m = Math.floor(total / 60000);
  const s = Math.floor((total % 60000) / 1000);
  const rest = total % 1000;
  return `${m}:${String(s).padStart(2, "0")}.${String(rest).padStart(3, "0")}`;
}

/**
 * A signed difference in seconds with three decimals (`+0.412`, `-1.003`, `0.000`).
 * @param {number | null | undefined} s
 */
export function signed(s) {
  if (s === null || s === undefined || !Number.isFinite(s)) return "—";
  if (s === 0) return "0.000";
  return `${s > 0 ? "+" : "-"}${Math.abs(s).toFixed(3)}`;
}

/**
 * A number with `dp` decimals, "—" for null.
 * @param {number | null | undefined} v
 * @param {number} dp
 */
export function fixed(v, dp = 1) {
  return v === null || v === undefined || !Number.isFinite(v) ? "—" : v.toFixed(dp);
}

/**
 * Offers `blob` as a download named `name` (a link clicked, then let go).
 * @param {Blob} blob
 * @param {string} name
 */
export function download(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/**
 * An element `tag` with `attrs` (properties; `class` as className) and children.
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {(Node | string)[]} [children]
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = String(v);
    else if (k.startsWith("data-")) e.setAttribute(k, String(v));
    else Object.assign(e, { [k]: v });
  }
  e.append(...children);
  return e;
}
