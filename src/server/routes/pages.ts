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
  // One document for both pages; its router draws the one the address names.
  "/laps": "pages.html",
  "/compare": "pages.html",
  "/pages.js": "pages.js",
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
 * A strong validator of an embedded body: FNV-1a over its UTF-16 code units,
 * computed once per file at startup (the bodies never change while the
 * logger runs). Synchronous, so the routes are ready when `pageRoutes` returns.
 */
function etagOf(body: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < body.length; i++) {
    h ^= body.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `"${h.toString(16).padStart(8, "0")}-${body.length.toString(16)}"`;
}

/**
 * GET for every path of {@linkcode PAGE_FILES}: the file with its content
 * type, `no-cache` so a browser revalidates and never runs a page older than
 * the logger it talks to, and a strong `ETag` so that revalidation is a 304
 * without a body: the browser then keeps its cached copy and the V8 code
 * cache of the scripts, which a refetched body would throw away. The query string (`/compare?laps=1,2&ref=1`) is the
 * page's own state, read by its script; the server ignores it.
 */
export function pageRoutes(): Hono {
  const r = new Hono();
  for (const [path, name] of Object.entries(PAGE_FILES)) {
    const asset = WEB_ASSETS[name];
    if (asset === undefined) throw new Error(`web_assets.ts lacks ${name}: run \`deno task web\``);
    const etag = etagOf(asset.body);
    r.get(path, (c) => {
      c.header("Cache-Control", "no-cache");
      c.header("ETag", etag);
      const asked = c.req.header("If-None-Match");
      if (asked !== undefined && asked.split(",").some((t) => t.trim() === etag)) {
        return c.body(null, 304);
      }
      c.header("Content-Type", asset.type);
      return c.body(asset.body);
    });
  }
  return r;
}
