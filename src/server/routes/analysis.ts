/**
 * Lap analysis routes: each passes its query to the analysis service and
 * answers the engine's value as the body.
 *
 * @module
 */
import { Hono } from "hono";
import type { App } from "../../app/create_app.ts";

/**
 * GET /api/analysis/compare, /api/analysis/corners, /api/analysis/sectors
 * and /api/analysis/consistency.
 */
export function analysisRoutes(app: App): Hono {
  const r = new Hono();
  r.get("/analysis/compare", async (c) => c.json(await app.analysis.compare(c.req.query())));
  r.get("/analysis/corners", async (c) => c.json(await app.analysis.corners(c.req.query())));
  r.get("/analysis/sectors", async (c) => c.json(await app.analysis.sectors(c.req.query())));
  r.get(
    "/analysis/consistency",
    async (c) => c.json(await app.analysis.consistency(c.req.query())),
  );
  return r;
}
