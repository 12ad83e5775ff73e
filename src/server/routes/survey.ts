/**
 * Survey routes: start, stop, circuit label, manual marks and status.
 *
 * @module
 */
import type { AppFace } from "../../app/create_app.ts";
import { bodyObject, markSchema, startSchema, trackSchema } from "../../app/survey/survey_body.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";
import { surveyStatusSchema } from "../../app/survey/survey_status.ts";

/** Survey requests are a few bytes; anything larger is not one. */
const MAX_SURVEY_BYTES = 4096;

/** GET /api/survey. */
export const surveyStatus = declareRoute({
  method: "get",
  path: "/api/survey",
  tag: "survey",
  summary: "The survey status",
  ok: { schema: surveyStatusSchema },
});

/** POST /api/survey/start; the body may be absent (a plain command: no options). */
export const startSurvey = declareRoute({
  method: "post",
  path: "/api/survey/start",
  tag: "survey",
  summary: "Start a survey",
  body: { schema: startSchema, required: false },
  bodyLimit: MAX_SURVEY_BYTES,
  bodyName: "survey start",
  ok: { schema: surveyStatusSchema },
  problems: [409, 413],
});

/** POST /api/survey/stop. */
export const stopSurvey = declareRoute({
  method: "post",
  path: "/api/survey/stop",
  tag: "survey",
  summary: "Stop and save the run",
  ok: { schema: surveyStatusSchema },
  problems: [409],
});

/** POST /api/survey/discard. */
export const discardSurvey = declareRoute({
  method: "post",
  path: "/api/survey/discard",
  tag: "survey",
  summary: "Drop a stopped run that waits for its name",
  ok: { schema: surveyStatusSchema },
  problems: [409],
});

/** POST /api/survey/track. */
export const surveyTrack = declareRoute({
  method: "post",
  path: "/api/survey/track",
  tag: "survey",
  summary: "Set the circuit label",
  body: { schema: trackSchema },
  bodyLimit: MAX_SURVEY_BYTES,
  bodyShape: (raw: unknown) => bodyObject(raw, "body"),
  bodyName: "survey track",
  ok: { schema: surveyStatusSchema },
  problems: [409, 413],
});

/** POST /api/survey/mark. */
export const surveyMark = declareRoute({
  method: "post",
  path: "/api/survey/mark",
  tag: "survey",
  summary: "Arm or disarm a manual mark",
  body: { schema: markSchema },
  bodyLimit: MAX_SURVEY_BYTES,
  bodyShape: (raw: unknown) => bodyObject(raw, "body"),
  bodyName: "survey mark",
  ok: { schema: surveyStatusSchema },
  problems: [409, 413],
});

/**
 * GET /api/survey; POST /api/survey/start {track?, track_width_m?},
 * /api/survey/stop, /api/survey/track {track}, /api/survey/mark {side, kind?},
 * /api/survey/discard. A run stopped without a circuit name stays pending
 * (`pending: true`) until /track names and saves it or /discard drops it.
 * The bodies are parsed here with the schemas declared above; the survey use
 * case takes the parsed values.
 */
export function surveyRoutes(app: AppFace): RouteTable {
  const r = new RouteTable();
  r.serve(surveyStatus, ({ reply }) => reply.json(app.survey.status()));
  r.serve(startSurvey, async ({ body, reply }) => reply.json(await app.survey.start(body)));
  r.serve(stopSurvey, async ({ reply }) => reply.json(await app.survey.stop()));
  r.serve(discardSurvey, ({ reply }) => reply.json(app.survey.discard()));
  r.serve(surveyTrack, async ({ body, reply }) => reply.json(await app.survey.setTrack(body)));
  r.serve(surveyMark, ({ body, reply }) => reply.json(app.survey.mark(body)));
  return r;
}
