// @ts-check
/**
 * The compare page's requests, in the order its drawing needs them: first
 * the two the charts wait for (compare_requests.js's paths, which a deep
 * link started early), then the rest (corners, sectors, consistency, the
 * circuit's compiled bundle), asked once the charts' data is in so that the
 * logger computes the charts' first and the rest while the browser draws.
 * Only the comparison and the lap rows may fail the page; the rest is
 * optional, and a refusal there draws without it.
 *
 * @module
 */
import { chartRequests } from "./compare_requests.js";
import { api } from "./shared_api.js";
import { listedRows } from "./team_rows.js";

/**
 * @typedef {import("./api_types.js").Comparison} Comparison
 * @typedef {import("./api_types.js").CornerReport} CornerReport
 * @typedef {import("./api_types.js").SectorBests} SectorBests
 * @typedef {import("./api_types.js").Consistency} Consistency
 * @typedef {import("./api_types.js").CompiledTrack} CompiledTrack
 * @typedef {import("./api_types.js").BundleRow} BundleRow
 * @typedef {import("./team_rows.js").ShownRow} LapRow
 * @typedef {{
 *   refCorners: CornerReport | null, vsCorners: CornerReport | null,
 *   sectors: SectorBests | null, compiled: CompiledTrack | null, cons: Consistency | null,
 * }} LaterData
 * What the page draws after the charts; null where there is none or it was refused.
 */

/**
 * The comparison and the rows of its laps, by id (on the team hub, each
 * with its driver: team_rows.js). A refusal of either
 * rejects with its problem text, the comparison's first (a bad id is the
 * comparison's to explain).
 * @param {import("./compare_requests.js").CompareView} view
 * @returns {Promise<{ cmp: Comparison, rows: Map<number, LapRow> }>}
 */
export async function fetchCharts(view) {
  const paths = chartRequests(view);
  const cmpP = api(paths.compare);
  const rowsP = api(paths.rows)
    .catch((/** @type {Error} */ err) => listedInstead(paths.rows, err))
    .catch((/** @type {Error} */ err) => err);
  const [cmp, rows] = await Promise.all([cmpP, rowsP]);
  if (rows instanceof Error) throw rows;
  const list = listedRows(rows).rows;
  return { cmp: /** @type {Comparison} */ (cmp), rows: new Map(list.map((r) => [r.id, r])) };
}

/**
 * The latest rows instead of those `path` (`/api/laps?ids=…`) asked for,
 * for a server whose listing does not take `ids` (the team hub's, by its
 * contract): the comparison's laps among its latest 1,000, so a recent
 * comparison still shows its drivers and sectors. Rejects with `err`, the
 * first refusal, when the listing is refused too.
 * @param {string} path
 * @param {Error} err
 * @returns {Promise<unknown>}
 */
async function listedInstead(path, err) {
  const ids = new Set(new URLSearchParams(path.split("?")[1]).get("ids")?.split(",").map(Number));
  try {
    const { rows } = listedRows(await api("/api/laps?limit=1000"));
    return rows.filter((r) => ids.has(r.id));
  } catch {
    throw err;
  }
}

/**
 * Everything drawn after the charts, asked for at once; never rejects.
 * @param {number} ref the reference's id
 * @param {number | null} vs the compared lap's id
 * @param {string | null} scope compare_specs.js's scopeOf: the bests' query
 * @param {string | null} circuit the circuit's slug, null while unnamed
 * @returns {Promise<LaterData>}
 */
export async function fetchLater(ref, vs, scope, circuit) {
  const [refCorners, vsCorners, sectors, compiled, cons] = await Promise.all([
    optional(`/api/analysis/corners?lap=${ref}`),
    vs === null ? null : optional(`/api/analysis/corners?lap=${vs}&ref=${ref}`),
    scope ? optional(`/api/analysis/sectors?${scope}`) : null,
    circuit ? compiledOf(circuit) : null,
    scope ? optional(`/api/analysis/consistency?${scope}`) : null,
  ]);
  return {
    refCorners: /** @type {CornerReport | null} */ (refCorners),
    vsCorners: /** @type {CornerReport | null} */ (vsCorners),
    sectors: /** @type {SectorBests | null} */ (sectors),
    compiled,
    cons: /** @type {Consistency | null} */ (cons),
  };
}

/**
 * The answer of `path`, or null when it was refused or did not come.
 * @param {string} path
 * @returns {Promise<unknown>}
 */
function optional(path) {
  return api(path).catch(() => null);
}

/**
 * The compiled geometry of the circuit's bundle, or null when it has none.
 * @param {string} slug
 * @returns {Promise<CompiledTrack | null>}
 */
async function compiledOf(slug) {
  try {
    const bundles = /** @type {BundleRow[]} */ (await api("/api/track-bundles"));
    const found = bundles.find((b) => b.slug === slug);
    if (!found || found.coverage === null) return null;
    return /** @type {CompiledTrack} */ (await api(`/api/track-bundles/${slug}/compiled`));
  } catch {
    return null;
  }
}
