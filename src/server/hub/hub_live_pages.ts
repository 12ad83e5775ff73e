/**
 * The race engineer's pages on the hub (#40): /live (the drivers on
 * track) and /live/{driver} (the engineer's page), with the files they
 * load from src/web/: their own scripts and the live page's style, cues
 * and sector rules, served as the logger serves its pages (read once,
 * `no-cache` with an ETag). The pages hold no team data: they ask the API
 * with the token the engineer gives (src/web/hub_token.js).
 *
 * @module
 */
import { z } from "zod";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";
import { type WebFile, webFileRoutes } from "../routes/web_files.ts";
import { webAsset } from "../web_folder.ts";
import type { HubEnv } from "./hub_env.ts";

const SCRIPT = "a script of the engineer's pages";

/** The files of the engineer's pages, by path. */
export const ENGINEER_FILES: Readonly<Record<string, WebFile>> = {
  "/live": {
    name: "live_drivers.html",
    summary: "The drivers on track (page)",
    description: "the list of drivers streaming now, each a link to its engineer's page",
  },
  "/live_drivers.js": {
    name: "live_drivers.js",
    summary: "The list's script",
    description: SCRIPT,
  },
  "/engineer.js": {
    name: "engineer.js",
    summary: "The engineer's page's script",
    description: SCRIPT,
  },
  "/hub_token.js": { name: "hub_token.js", summary: "The pages' token", description: SCRIPT },
  "/cues.js": { name: "cues.js", summary: "The live page's cues", description: SCRIPT },
  "/live_sectors.js": {
    name: "live_sectors.js",
    summary: "The live page's sectors",
    description: SCRIPT,
  },
  "/live.css": { name: "live.css", summary: "The live page's style", description: "CSS" },
  "/engineer.css": { name: "engineer.css", summary: "The engineer's style", description: "CSS" },
  "/favicon.svg": { name: "favicon.svg", summary: "The pages' icon", description: "SVG" },
};

/** GET /live/{driver}. */
export const engineerPage = declareRoute({
  method: "get",
  path: "/live/{driver}",
  tag: "engineer",
  summary: "The race engineer's page of one driver",
  params: z.object({ driver: z.string() }),
  ok: {
    type: "text/html",
    description: "the engineer's page (gap, times, sectors, fuel, tyres, map)",
  },
});

/** The engineer's pages and their files. */
export function hubLivePages(): RouteTable<HubEnv> {
  const r = new RouteTable<HubEnv>();
  r.include(webFileRoutes(ENGINEER_FILES, { etag: true }));
  const page = webAsset("engineer.html");
  r.serve(engineerPage, ({ reply }, c) => {
    c.header("Cache-Control", "no-cache");
    c.header("Content-Type", page.type);
    return reply.raw(c.body(page.body));
  });
  return r;
}
