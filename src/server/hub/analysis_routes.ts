/**
 * The analysis API and pages on the team hub: the logger's declared routes
 * (src/server/routes/analysis.ts, and the notes route of routes/laps.ts),
 * answered by the logger's analysis service over the hub's laps
 * (src/app/hub/hub_analysis.ts), and the /laps and /compare pages from the
 * same src/web files. Declared as on the logger, so the hub's OpenAPI
 * document names them with the same schemas.
 *
 * @module
 */
import type { Env } from "hono";
import type { AnalysisService } from "../../app/analysis/analysis.ts";
import { analysisRoutes } from "../routes/analysis.ts";
import { lapNotes } from "../routes/laps.ts";
import { pageRoutes } from "../routes/pages.ts";
import type { RouteTable } from "../route_table.ts";

/**
 * Mounts on `table`: GET /api/analysis/compare, corners, sectors and
 * consistency, GET /api/laps/{id}/notes (`?ref=` any lap of the circuit, a
 * teammate's included), all answered by `analysis` (the hub's:
 * `hubAnalysis`), and GET /laps, /compare and their scripts.
 */
export function mountHubAnalysis<E extends Env>(
  table: RouteTable<E>,
  analysis: Pick<AnalysisService, "compare" | "corners" | "notes" | "sectors" | "consistency">,
): RouteTable<E> {
  table.include(analysisRoutes({ analysis }));
  table.serve(
    lapNotes,
    async ({ params, query, reply }) => reply.json(await analysis.notes(params.id, query)),
  );
  table.include(pageRoutes());
  return table;
}
