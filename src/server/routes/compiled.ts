/**
 * Compiled geometry routes: the compiled document and the SVG map of a
 * bundle; each declared once (src/server/declared_route.ts).
 *
 * @module
 */
import { Hono } from "hono";
import type { AppFace } from "../../app/create_app.ts";
import { compiledTrackSchema } from "../../core/geometry/schema.ts";
import { declareRoute, mount } from "../declared_route.ts";
import { slugParams } from "./bundles.ts";

/** GET /api/track-bundles/{slug}/compiled. */
export const getCompiled = declareRoute({
  method: "get",
  path: "/api/track-bundles/{slug}/compiled",
  tag: "bundles",
  summary: "Compiled geometry",
  params: slugParams,
  ok: { schema: compiledTrackSchema },
  problems: [404, 500],
});

/** GET /api/track-bundles/{slug}/map.svg. */
export const getMapSvg = declareRoute({
  method: "get",
  path: "/api/track-bundles/{slug}/map.svg",
  tag: "bundles",
  summary: "An SVG map",
  params: slugParams,
  ok: { type: "image/svg+xml", description: "the map" },
  problems: [404, 500],
});

/** GET /api/track-bundles/{slug}/compiled and GET /api/track-bundles/{slug}/map.svg. */
export function compiledRoutes(app: AppFace): Hono {
  const r = new Hono();
  mount(r, getCompiled, async ({ params }) => {
    const doc = await app.geometry.compiled(params.slug);
    return new Response(JSON.stringify(doc), {
      headers: { "content-type": "application/json; charset=utf-8" },
    });
  });
  mount(r, getMapSvg, async ({ params }) => {
    const svg = await app.geometry.mapSvg(params.slug);
    return new Response(svg, { headers: { "content-type": "image/svg+xml; charset=utf-8" } });
  });
  return r;
}
