/**
 * GET /api/strategy?race_laps=N or ?race_minutes=M: the fuel and pit plan
 * for a race of that length from the live session (see
 * src/core/analysis/strategy.ts). Exactly one of the two is required, a
 * whole number (laps 1 to 1000, minutes 1 to 1440); anything else is a 400
 * naming the parameter and its rule. Declared once (src/server/declared_route.ts).
 *
 * @module
 */
import { z } from "zod";
import type { AppFace } from "../../app/create_app.ts";
import { MAX_RACE_LAPS, MAX_RACE_MINUTES } from "../../app/live/live_frames.ts";
import { intParamSchema } from "../query_params.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";
import { raceStrategySchema } from "../../core/analysis/strategy_schema.ts";

/** The race a strategy query asks for: exactly one of its two lengths. */
const raceQuerySchema = z.object({
  race_laps: intParamSchema(1, MAX_RACE_LAPS).optional(),
  race_minutes: intParamSchema(1, MAX_RACE_MINUTES).optional(),
}).superRefine((q, ctx) => {
  if (q.race_laps !== undefined && q.race_minutes !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["race_minutes"],
      message: "must not be given with race_laps: give exactly one of them",
    });
  } else if (q.race_laps === undefined && q.race_minutes === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["race_laps"],
      message: "is required: give exactly one of race_laps and race_minutes",
    });
  }
}).meta({ description: "exactly one of race_laps and race_minutes" });

/** GET /api/strategy. */
export const getStrategy = declareRoute({
  method: "get",
  path: "/api/strategy",
  tag: "live",
  summary: "Fuel and pit strategy for a race",
  query: raceQuerySchema,
  ok: { schema: raceStrategySchema },
});

/** GET /api/strategy. */
export function strategyRoutes(app: AppFace): RouteTable {
  const r = new RouteTable();
  r.serve(getStrategy, async ({ query, reply }) => reply.json(await app.frames.strategy(query)));
  return r;
}
