/**
 * Compiled geometry routes: the compiled document and the SVG map of a
 * bundle; each declared once (src/server/declared_route.ts).
 *
 * @module
 */
import type { AppFace } from "../../app/create_app.ts";
import { compiledTrackSchema } from "../../core/geometry/schema.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";
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
export function compiledRoutes(app: AppFace): RouteTable {
  const r = new RouteTable();
  r.serve(
    getCompiled,
    async ({ params, reply }) => reply.json(await app.geometry.compiled(params.slug)),
  );
  r.serve(getMapSvg, async ({ params, reply }) => {
    const svg = await app.geometry.mapSvg(params.slug);
    return reply.raw(
      new Response(svg, { headers: { "content-type": "image/svg+xml; charset=utf-8" } }),
    );
  });
  return r;
}
