/**
 * Lap analysis routes, each declared once (src/server/declared_route.ts):
 * the route parses its query with its schema (src/server/queries) and hands
 * the service the typed value; the engine's value is the body.
 *
 * @module
 */
import type { AnalysisService } from "../../app/analysis/analysis.ts";
import {
  compareQuerySchema,
  consistencyQuerySchema,
  cornersQuerySchema,
  sectorsQuerySchema,
} from "../queries/analysis_queries.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";
import {
  comparisonSchema,
  consistencySchema,
  cornerReportSchema,
  sectorBestsSchema,
} from "../../core/analysis/analysis_schemas.ts";

/** GET /api/analysis/compare. */
export const compareLaps = declareRoute({
  method: "get",
  path: "/api/analysis/compare",
  tag: "analysis",
  summary: "Laps over distance against a reference",
  query: compareQuerySchema,
  ok: { schema: comparisonSchema },
  problems: [404],
});

/** GET /api/analysis/corners. */
export const lapCorners = declareRoute({
  method: "get",
  path: "/api/analysis/corners",
  tag: "analysis",
  summary: "A lap's corners against a reference",
  query: cornersQuerySchema,
  ok: { schema: cornerReportSchema },
  problems: [404],
});

/** GET /api/analysis/sectors. */
export const sectorBests = declareRoute({
  method: "get",
  path: "/api/analysis/sectors",
  tag: "analysis",
  summary: "Best sectors and theoretical best of a circuit and car",
  query: sectorsQuerySchema,
  ok: { schema: sectorBestsSchema },
  problems: [404],
});

/** GET /api/analysis/consistency. */
export const lapConsistency = declareRoute({
  method: "get",
  path: "/api/analysis/consistency",
  tag: "analysis",
  summary: "Consistency of the best n laps of a circuit and car",
  query: consistencyQuerySchema,
  ok: { schema: consistencySchema },
  problems: [404],
});

/**
 * GET /api/analysis/compare, /api/analysis/corners, /api/analysis/sectors
 * and /api/analysis/consistency, answered by `app.analysis` (the logger's,
 * or the team hub's: src/server/hub/analysis_routes.ts).
 */
export function analysisRoutes(app: {
  analysis: Pick<AnalysisService, "compare" | "corners" | "sectors" | "consistency">;
}): RouteTable {
  const r = new RouteTable();
  r.serve(compareLaps, async ({ query, reply }) => reply.json(await app.analysis.compare(query)));
  r.serve(lapCorners, async ({ query, reply }) => reply.json(await app.analysis.corners(query)));
  r.serve(sectorBests, async ({ query, reply }) => reply.json(await app.analysis.sectors(query)));
  r.serve(
    lapConsistency,
    async ({ query, reply }) => reply.json(await app.analysis.consistency(query)),
  );
  return r;
}
