/**
 * Serving files of web_assets.ts (the pages made from src/web/) at their
 * paths: each answers its embedded text with its content type and
 * `no-cache`, so a browser revalidates and never runs a page older than the
 * logger it talks to. The live page and the analysis pages both serve
 * their files through this one loop.
 *
 * @module
 */
import { Hono } from "hono";
import { WEB_ASSETS } from "../web_assets.ts";

/**
 * A strong validator of an embedded body: FNV-1a over its UTF-16 code units,
 * computed once per file when the routes are made (the bodies never change
 * while the logger runs).
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
 * GET for every path of `files` (path to a file name of web_assets.ts). With
 * `etag`, each answer carries a strong `ETag` and an `If-None-Match` naming
 * it is answered 304 without a body, so the browser keeps its cached copy
 * and its compiled scripts. Throws when a file is missing from
 * web_assets.ts (`deno task web` makes it).
 */
export function webFileRoutes(
  files: Readonly<Record<string, string>>,
  opts: { etag: boolean },
): Hono {
  const r = new Hono();
  for (const [path, name] of Object.entries(files)) {
    const asset = WEB_ASSETS[name];
    if (asset === undefined) throw new Error(`web_assets.ts lacks ${name}: run \`deno task web\``);
    const etag = opts.etag ? etagOf(asset.body) : null;
    r.get(path, (c) => {
      c.header("Cache-Control", "no-cache");
      if (etag !== null) {
        c.header("ETag", etag);
        const asked = c.req.header("If-None-Match");
        if (asked !== undefined && asked.split(",").some((t) => t.trim() === etag)) {
          return c.body(null, 304);
        }
      }
      c.header("Content-Type", asset.type);
      return c.body(asset.body);
    });
  }
  return r;
}

/** The media type of embedded file `name` (its content type without parameters). */
export function webFileMediaType(name: string): string {
  return WEB_ASSETS[name].type.split(";")[0];
}
