/**
 * Serving files of web_assets.ts (the pages made from src/web/) at their
 * paths: each answers its embedded text with its content type and
 * `no-cache`, so a browser revalidates and never runs a page older than the
 * logger it talks to. The live page and the analysis pages both serve
 * their files through this one loop, each a declared route of its own, so
 * the document lists exactly the files served.
 *
 * @module
 */
import { WEB_ASSETS } from "../web_assets.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";

/** A file served at a path, and what the document says of it. */
export interface WebFile {
  /** Its name in web_assets.ts. */
  name: string;
  /** The document's summary. */
  summary: string;
  /** What the answer is, in words (its media type is the file's). */
  description: string;
}

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
 * GET for every path of `files`, each declared with the file's media type
 * and tagged with the status routes. With
 * `etag`, each answer carries a strong `ETag` and an `If-None-Match` naming
 * it is answered 304 without a body, so the browser keeps its cached copy
 * and its compiled scripts. Throws when a file is missing from
 * web_assets.ts (`deno task web` makes it).
 */
export function webFileRoutes(
  files: Readonly<Record<string, WebFile>>,
  opts: { etag: boolean },
): RouteTable {
  const r = new RouteTable();
  for (const [path, { name, summary, description }] of Object.entries(files)) {
    const asset = WEB_ASSETS[name];
    if (asset === undefined) throw new Error(`web_assets.ts lacks ${name}: run \`deno task web\``);
    const etag = opts.etag ? etagOf(asset.body) : null;
    const type = asset.type.split(";")[0];
    const route = declareRoute({
      method: "get",
      path,
      tag: "status",
      summary,
      ok: { type, description },
    });
    r.serve(route, ({ reply }, c) => {
      c.header("Cache-Control", "no-cache");
      if (etag !== null) {
        c.header("ETag", etag);
        const asked = c.req.header("If-None-Match");
        if (asked !== undefined && asked.split(",").some((t) => t.trim() === etag)) {
          return reply.raw(c.body(null, 304));
        }
      }
      c.header("Content-Type", asset.type);
      return reply.raw(c.body(asset.body));
    });
  }
  return r;
}
