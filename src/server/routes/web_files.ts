/**
 * Serving the files of `src/web/` (read into memory by web_folder.ts) at
 * their paths: each answers its text with its content type and `no-cache`,
 * so a browser revalidates and never runs a page older than the logger it
 * talks to. The live page and the analysis pages both serve their files
 * through this one loop, each a declared route of its own, so the document
 * lists exactly the files served.
 *
 * @module
 */
import { WEB_DIR, webAsset } from "../web_folder.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";

/** A file served at a path, and what the document says of it. */
export interface WebFile {
  /** Its path under `src/web/`. */
  name: string;
  /** The document's summary. */
  summary: string;
  /** What the answer is, in words (its media type is the file's). */
  description: string;
}

/**
 * GET for every path of `files`, each declared with the file's media type
 * and tagged with the status routes. Every file is read (once per process)
 * before the table is returned, so a file missing from `dir` (`src/web/` by
 * default) throws here, at start-up, naming it. With `etag`, each answer
 * carries a strong `ETag` and an `If-None-Match` naming it is answered 304
 * without a body, so the browser keeps its cached copy and its compiled
 * scripts.
 */
export function webFileRoutes(
  files: Readonly<Record<string, WebFile>>,
  opts: { etag: boolean; dir?: URL },
): RouteTable {
  const r = new RouteTable();
  for (const [path, { name, summary, description }] of Object.entries(files)) {
    const asset = webAsset(name, opts.dir ?? WEB_DIR);
    const etag = opts.etag ? asset.etag : null;
    const route = declareRoute({
      method: "get",
      path,
      tag: "status",
      summary,
      ok: { type: asset.type.split(";")[0], description },
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
