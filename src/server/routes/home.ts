/**
 * GET /: the live page, the driver's second screen (docs/live_page.md), and
 * its script and style. The files are src/web/'s, read at start-up
 * (web_folder.ts; `deno compile --include src/web` puts them in the
 * binary), so the page needs nothing from the internet.
 *
 * @module
 */
import type { RouteTable } from "../route_table.ts";
import { type WebFile, webFileRoutes } from "./web_files.ts";

const JS = "an ES module, embedded in the binary";
const ICON = "an SVG icon, embedded in the binary";

/**
 * The paths the live page's files answer on: the file of src/web/, and the
 * document's summary and answer. The one place these files are named.
 */
export const HOME_FILES: Readonly<Record<string, WebFile>> = {
  "/": {
    name: "live.html",
    summary: "The live page: the driver's second screen (docs/live_page.md)",
    description: "the live page; its script and style follow",
  },
  "/live.js": { name: "live.js", summary: "The live page's script", description: JS },
  "/cues.js": {
    name: "cues.js",
    summary: "The live page's cue rules (an ES module live.js imports)",
    description: JS,
  },
  "/live_sectors.js": {
    name: "live_sectors.js",
    summary: "The live page's sector timing (an ES module live.js imports)",
    description: JS,
  },
  "/hub_message.js": {
    name: "hub_message.js",
    summary: "The live page's rules for the team hub's message (an ES module live.js imports)",
    description: JS,
  },
  "/hub_message_box.js": {
    name: "hub_message_box.js",
    summary: "The live page's line for the team hub's message (an ES module live.js imports)",
    description: JS,
  },
  "/live.css": {
    name: "live.css",
    summary: "The live page's style",
    description: "embedded in the binary",
  },
  // Every page links the icon; browsers also ask for /favicon.ico by themselves.
  "/favicon.svg": { name: "favicon.svg", summary: "The pages' icon", description: ICON },
  "/favicon.ico": {
    name: "favicon.svg",
    summary: "The pages' icon, where browsers look for it unasked",
    description: ICON,
  },
};

/**
 * GET /, /live.js, /cues.js, /live_sectors.js, /hub_message.js,
 * /hub_message_box.js and /live.css: the live
 * page's files, and /favicon.svg (also at /favicon.ico) the icon of every
 * page, each with its content type; `no-cache` so a phone always revalidates and never runs
 * a page older than the logger it talks to. Each is listed in the table's operations.
 */
export function homeRoutes(): RouteTable {
  return webFileRoutes(HOME_FILES, { etag: false });
}
