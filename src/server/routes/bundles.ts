/**
 * Track bundle routes: list, read, import.
 *
 * @module
 */
import { Hono } from "hono";
import type { App } from "../../app/create_app.ts";
import { MAX_IMPORT_BYTES, readBody } from "../body.ts";

/** Options of {@linkcode bundleRoutes}. */
export interface BundleRouteOptions {
  /** Largest import body in bytes (default 64 MiB); tests lower it. */
  maxImportBytes?: number;
}

/**
 * GET /api/track-bundles, GET /api/track-bundles/{slug} and
 * POST /api/track-bundles/import (optional `?track=` override).
 */
export function bundleRoutes(app: App, opts: BundleRouteOptions = {}): Hono {
  const limit = opts.maxImportBytes ?? MAX_IMPORT_BYTES;
  const r = new Hono();
  r.get("/track-bundles", async (c) => c.json(await app.bundles.list()));
  r.get("/track-bundles/:slug", async (c) => {
    const doc = await app.bundles.export(c.req.param("slug"));
    return new Response(JSON.stringify(doc), {
      headers: { "content-type": "application/json; charset=utf-8" },
    });
  });
  r.post("/track-bundles/import", async (c) => {
    const track = c.req.query("track");
    // The bytes go straight to the service, which reads a bundle from them without
    // building an object per edge (and parses them as JSON only when it has to).
    return c.json(await app.bundles.importBytes(await readBody(c.req.raw, limit), { track }));
  });
  return r;
}
