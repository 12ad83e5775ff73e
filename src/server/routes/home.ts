/**
 * GET /: the live page, the driver's second screen (docs/live_page.md), and
 * its script and style. The files are the strings of web_assets.ts, which
 * scripts/gen_web_assets.ts makes from src/web/, so the page ships inside
 * the compiled binary and needs nothing from the internet.
 *
 * @module
 */
import type { Hono } from "hono";
import { webFileRoutes } from "./web_files.ts";
import type { Operation } from "../openapi/operation.ts";

const JS = { type: "text/javascript", description: "an ES module, embedded in the binary" };
const ICON = { type: "image/svg+xml", description: "an SVG icon, embedded in the binary" };

/** The paths the page's files answer on: the file, and the document's summary and answer. */
const FILES: Record<string, [name: string, summary: string, ok: Operation["ok"]]> = {
  "/": ["live.html", "The live page: the driver's second screen (docs/live_page.md)", {
    type: "text/html",
    description: "the live page; its script and style follow",
  }],
  "/live.js": ["live.js", "The live page's script", JS],
  "/cues.js": ["cues.js", "The live page's cue rules (an ES module live.js imports)", JS],
  "/live_sectors.js": [
    "live_sectors.js",
    "The live page's sector timing (an ES module live.js imports)",
    JS,
  ],
  "/live.css": ["live.css", "The live page's style", {
    type: "text/css",
    description: "embedded in the binary",
  }],
  // Every page links the icon; browsers also ask for /favicon.ico by themselves.
  "/favicon.svg": ["favicon.svg", "The pages' icon", ICON],
  "/favicon.ico": ["favicon.svg", "The pages' icon, where browsers look for it unasked", ICON],
};

/** The live page's files as operations of the OpenAPI document: exactly what {@linkcode homeRoutes} serves. */
export const HOME_OPERATIONS: readonly Operation[] = Object.entries(FILES).map((
  [path, [, summary, ok]],
) => ({ method: "get", path, tag: "status", summary, ok }));

/**
 * GET /, /live.js, /cues.js, /live_sectors.js and /live.css: the live
 * page's files, and /favicon.svg (also at /favicon.ico) the icon of every
 * page, each with its content type; `no-cache` so a phone always revalidates and never runs
 * a page older than the logger it talks to.
 */
export function homeRoutes(): Hono {
  return webFileRoutes(
    Object.fromEntries(Object.entries(FILES).map(([path, [name]]) => [path, name])),
    { etag: false },
  );
}
