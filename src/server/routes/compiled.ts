/**
 * Compiled geometry routes: the compiled document and the SVG map of a
 * bundle.
 *
 * @module
 */
import { Hono } from "hono";
import type { App } from "../../app/create_app.ts";

/** GET /api/track-bundles/{slug}/compiled and GET /api/track-bundles/{slug}/map.svg. */
export function compiledRoutes(app: App): Hono {
  const r = new Hono();
  r.get("/track-bundles/:slug/compiled", async (c) => {
    const doc = await app.geometry.compiled(c.req.param("slug"));
    return new Response(JSON.stringify(doc), {
      headers: { "content-type": "application/json; charset=utf-8" },
    });
  });
  r.get("/track-bundles/:slug/map.svg", async (c) => {
    const svg = await app.geometry.mapSvg(c.req.param("slug"));
    return new Response(svg, { headers: { "content-type": "image/svg+xml; charset=utf-8" } });
  });
  return r;
}
