/**
 * GET /api/strategy?race_laps=N or ?race_minutes=M: the fuel and pit plan
 * for a race of that length from the live session (see
 * src/core/analysis/strategy.ts). Exactly one of the two is required, a
 * whole number (laps 1 to 1000, minutes 1 to 1440); anything else is a 400
 * naming the parameter and its rule.
 *
 * @module
 */
import { Hono } from "hono";
import type { App } from "../../app/create_app.ts";
import { MAX_RACE_LAPS, MAX_RACE_MINUTES } from "../../app/live_frames.ts";
import { badParam, intParam, onlyKnown, type RawQuery } from "../../app/query_params.ts";

/** The race a strategy query asks for; BadRequest naming the parameter otherwise. */
export function raceQuery(query: RawQuery): { race_laps?: number; race_minutes?: number } {
  onlyKnown(query, ["race_laps", "race_minutes"]);
  const laps = query.race_laps;
  const minutes = query.race_minutes;
  if (laps !== undefined && minutes !== undefined) {
    throw badParam("race_minutes", "must not be given with race_laps: give exactly one of them");
  }
  if (laps !== undefined) return { race_laps: intParam(laps, "race_laps", 1, MAX_RACE_LAPS) };
  if (minutes !== undefined) {
    return { race_minutes: intParam(minutes, "race_minutes", 1, MAX_RACE_MINUTES) };
  }
  throw badParam("race_laps", "is required: give exactly one of race_laps and race_minutes");
}

/** GET /api/strategy. */
export function strategyRoutes(app: App): Hono {
  const r = new Hono();
  r.get("/strategy", async (c) => c.json(await app.frames.strategy(raceQuery(c.req.query()))));
  return r;
}
