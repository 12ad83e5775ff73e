/**
 * GET /: the live page, the driver's second screen (docs/live_page.md), and
 * its script and style. The files are the strings of web_assets.ts, which
 * scripts/gen_web_assets.ts makes from src/web/, so the page ships inside
 * the compiled binary and needs nothing from the internet.
 *
 * @module
 */
import { Hono } from "hono";
import { WEB_ASSETS } from "../web_assets.ts";

/** The paths the page's files answer on, and which file each is. */
const FILES: Record<string, string> = {
  "/": "live.html",
  "/live.js": "live.js",
  "/cues.js": "cues.js",
  "/live.css": "live.css",
};

/**
 * GET /, /live.js, /cues.js and /live.css: the live page's files, each with
 * its content type; `no-cache` so a phone always revalidates and never runs
 * a page older than the logger it talks to.
 */
export function homeRoutes(): Hono {
  const r = new Hono();
  for (const [path, name] of Object.entries(FILES)) {
    const asset = WEB_ASSETS[name];
    r.get(path, (c) => {
      c.header("Content-Type", asset.type);
      c.header("Cache-Control", "no-cache");
      return c.body(asset.body);
    });
  }
  return r;
}
