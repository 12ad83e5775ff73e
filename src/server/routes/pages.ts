/**
 * GET /laps and /compare: the analysis pages (docs/analysis_pages.md), their
 * scripts, style and the vendored chart library. Like the live page's, the
 * files are src/web/'s, read at start-up (web_folder.ts) and included in
 * the compiled binary, so they load nothing from the internet; the pages
 * read only the public /api. This table is the one place a page file is
 * named: a new script is served, documented and read by adding its row.
 *
 * @module
 */
import type { RouteTable } from "../route_table.ts";
import { webFileRoutes } from "./web_files.ts";

/** The paths the analysis pages' files answer on, and which file of src/web/ each is. */
export const PAGE_FILES: Readonly<Record<string, string>> = {
  // One document for both pages; its router draws the one the address names.
  "/laps": "pages.html",
  "/compare": "pages.html",
  "/pages.js": "pages.js",
  "/laps.js": "laps.js",
  "/compare.js": "compare.js",
  "/compare_requests.js": "compare_requests.js",
  "/compare_fetch.js": "compare_fetch.js",
  "/compare_specs.js": "compare_specs.js",
  "/compare_tables.js": "compare_tables.js",
  "/team_laps.js": "team_laps.js",
  "/team_rows.js": "team_rows.js",
  "/shared_api.js": "shared_api.js",
  "/shared_charts.js": "shared_charts.js",
  "/chart_options.js": "chart_options.js",
  "/shared_map.js": "shared_map.js",
  "/pages.css": "pages.css",
  "/vendor/uplot.iife.min.js": "vendor/uplot.iife.min.js",
  "/vendor/uplot.min.css": "vendor/uplot.min.css",
};

/** What each page file is, for the document's summary. */
const SUMMARIES: Readonly<Record<string, string>> = {
  "/laps":
    "The laps page: sessions and laps, filters (?track=SLUG&car=ID), bests with theoretical best, lap picker",
  "/compare":
    "The compare page (?laps=ID,ID&ref=ID&vs=ID&map=speed&from=M&to=M, read by its script): charts, map, corners, sectors",
};

/**
 * GET for every path of {@linkcode PAGE_FILES}: the file with its content
 * type, `no-cache`, and a strong `ETag` so that revalidation is a 304
 * without a body: the browser then keeps its cached copy and the V8 code
 * cache of the scripts, which a refetched body would throw away. The query
 * string (`/compare?laps=1,2&ref=1`) is the page's own state, read by its
 * script; the server ignores it.
 */
export function pageRoutes(): RouteTable {
  const files = Object.fromEntries(
    Object.entries(PAGE_FILES).map(([path, name]) => [path, {
      name,
      summary: SUMMARIES[path] ?? `The analysis pages' ${name}`,
      description: "embedded in the binary",
    }]),
  );
  return webFileRoutes(files, { etag: true });
}
