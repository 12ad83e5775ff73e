/**
 * Survey routes: start, stop, circuit label, manual marks and status.
 *
 * @module
 */
import { Hono } from "hono";
import type { App } from "../../app/create_app.ts";
import { BadRequest } from "../../core/errors.ts";
import { readJsonBody } from "../body.ts";

/** What readJsonBody says about an empty body. */
const EMPTY_BODY = "request body is empty";

/** Survey requests are a few bytes; anything larger is not one. */
const MAX_SURVEY_BYTES = 4096;

/** The JSON body of `req`, or `{}` when it has none (an empty POST is a plain command). */
async function optionalBody(req: Request): Promise<unknown> {
  if (req.body === null) return {};
  try {
    return await readJsonBody(req, MAX_SURVEY_BYTES);
  } catch (err) {
    if (err instanceof BadRequest && err.message === EMPTY_BODY) return {};
    throw err;
  }
}

/**
 * GET /api/survey; POST /api/survey/start {track?, track_width_m?},
 * /api/survey/stop, /api/survey/track {track}, /api/survey/mark {side, kind?},
 * /api/survey/discard. A run stopped without a circuit name stays pending
 * (`pending: true`) until /track names and saves it or /discard drops it.
 */
export function surveyRoutes(app: App): Hono {
  const r = new Hono();
  r.get("/survey", (c) => c.json(app.survey.status()));
  r.post(
    "/survey/start",
    async (c) => c.json(await app.survey.start(await optionalBody(c.req.raw))),
  );
  r.post("/survey/stop", async (c) => c.json(await app.survey.stop()));
  r.post("/survey/discard", (c) => c.json(app.survey.discard()));
  r.post(
    "/survey/track",
    async (c) => c.json(await app.survey.setTrack(await readJsonBody(c.req.raw, MAX_SURVEY_BYTES))),
  );
  r.post(
    "/survey/mark",
    async (c) => c.json(app.survey.mark(await readJsonBody(c.req.raw, MAX_SURVEY_BYTES))),
  );
  return r;
}
