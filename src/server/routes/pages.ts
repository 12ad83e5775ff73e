/**
 * GET /laps and /compare: the analysis pages (docs/analysis_pages.md), their
 * scripts, style and the vendored chart library. Like the live page, the
 * files are strings of web_assets.ts (made from src/web/ by
 * scripts/gen_web_assets.ts), so they ship inside the compiled binary and
 * load nothing from the internet; the pages read only the public /api.
 *
 * @module
 */
import { Hono } from "hono";
import { WEB_ASSETS } from "../web_assets.ts";

/** The paths the analysis pages' files answer on, and which file each is. */
export const PAGE_FILES: Readonly<Record<string, string>> = {
  "/laps": "laps.html",
  "/compare": "compare.html",
  "/laps.js": "laps.js",
  "/compare.js": "compare.js",
  "/shared_api.js": "shared_api.js",
  "/shared_charts.js": "shared_charts.js",
  "/shared_map.js": "shared_map.js",
  "/pages.css": "pages.css",
  "/vendor/uplot.iife.min.js": "vendor/uplot.iife.min.js",
  "/vendor/uplot.min.css": "vendor/uplot.min.css",
};

/**
 * GET for every path of {@linkcode PAGE_FILES}: the file with its content
 * type, `no-cache` so a browser revalidates and never runs a page older than
 * the logger it talks to. The query string (`/compare?laps=1,2&ref=1`) is the
 * page's own state, read by its script; the server ignores it.
 */
export function pageRoutes(): Hono {
  const r = new Hono();
  for (const [path, name] of Object.entries(PAGE_FILES)) {
    const asset = WEB_ASSETS[name];
    if (asset === undefined) throw new Error(`web_assets.ts lacks ${name}: run \`deno task web\``);
    r.get(path, (c) => {
      c.header("Content-Type", asset.type);
      c.header("Cache-Control", "no-cache");
      return c.body(asset.body);
    });
  }
  return r;
}
