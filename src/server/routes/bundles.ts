/**
 * Track bundle routes: list, read, import.
 *
 * @module
 */
import { Hono } from "hono";
import type { App } from "../../app/create_app.ts";
import { MAX_IMPORT_BYTES, readJsonBody } from "../body.ts";

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
    // Passed straight on, so the route holds no reference to the parsed body while the import
    // runs: the service drops its own once validated, and the 27 MB document can be collected.
    return c.json(await app.bundles.import(await readJsonBody(c.req.raw, limit), { track }));
  });
  return r;
}
