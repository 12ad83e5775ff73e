/**
 * The team's laps over HTTP: POST /api/laps (a lap file, as the logger's
 * export.json answers it), GET /api/laps (filters), GET /api/laps/{id} and
 * its export.json twin, DELETE /api/laps/{id}, GET /api/leaderboard.
 *
 * @module
 */
import { z } from "zod";
import type { HubApp } from "../../app/hub/hub_app.ts";
import {
  hubLapItemSchema,
  lapDeletedSchema,
  lapPushedSchema,
  leaderboardSchema,
} from "../../app/hub/hub_laps.ts";
import { driverNameSchema } from "../../app/hub/hub_drivers.ts";
import { bundleSlugSchema } from "../../app/bundles/bundle_slug.ts";
import { DEFAULT_LAP_LIMIT, MAX_LAP_LIMIT } from "../../app/laps/lap_listing.ts";
import { lapFileSchema } from "../../core/laps/lap_file_schema.ts";
import { emptyImport, MAX_IMPORT_BYTES, readBody } from "../body.ts";
import { type Answer, declareRoute } from "../declared_route.ts";
import { idParams } from "../params.ts";
import { carParamSchema, idParamSchema, intParamSchema } from "../query_params.ts";
import { RouteTable } from "../route_table.ts";
import { type HubEnv, principalIn } from "./hub_env.ts";

/** POST /api/laps. */
export const pushLapRoute = declareRoute({
  method: "post",
  path: "/api/laps",
  tag: "laps",
  summary: "Push a lap file: 201 stored, 200 a repeat of a lap already there",
  body: { schema: lapFileSchema, description: "a lap file, at most 64 MiB" },
  bodyBy: "handler",
  ok: { status: 201, schema: lapPushedSchema },
  problems: [401, 403, 413],
});

/** The query of GET /api/laps. */
export const hubLapQuerySchema = z.object({
  circuit: bundleSlugSchema.optional(),
  car: carParamSchema.optional(),
  driver: driverNameSchema.optional(),
  limit: intParamSchema(1, MAX_LAP_LIMIT).prefault(String(DEFAULT_LAP_LIMIT)),
  before: idParamSchema.optional().meta({ description: "only laps of a smaller id (next page)" }),
});

/** GET /api/laps. */
export const listLapsRoute = declareRoute({
  method: "get",
  path: "/api/laps",
  tag: "laps",
  summary: "The team's laps, newest first",
  query: hubLapQuerySchema,
  ok: { schema: z.strictObject({ laps: z.array(hubLapItemSchema) }) },
  problems: [401],
});

/** GET /api/laps/{id}. */
export const getLapRoute = declareRoute({
  method: "get",
  path: "/api/laps/{id}",
  tag: "laps",
  summary: "The lap as its lap file",
  params: idParams,
  ok: { schema: lapFileSchema },
  problems: [401, 404],
});

/** GET /api/laps/{id}/export.json: the same, where the logger's pages look for it. */
export const exportLapRoute = declareRoute({
  ...getLapRoute,
  path: "/api/laps/{id}/export.json",
  summary: "The lap as its lap file (the logger's export path)",
});

/** DELETE /api/laps/{id}. */
export const deleteLapRoute = declareRoute({
  method: "delete",
  path: "/api/laps/{id}",
  tag: "laps",
  summary: "Delete a lap: one's own, or any as the admin",
  params: idParams,
  ok: { schema: lapDeletedSchema },
  problems: [401, 403, 404],
});

/** GET /api/leaderboard. */
export const leaderboardRoute = declareRoute({
  method: "get",
  path: "/api/leaderboard",
  tag: "laps",
  summary: "Each driver's best complete lap at a circuit (and car), fastest first",
  query: z.object({ circuit: bundleSlugSchema, car: carParamSchema.optional() }),
  ok: { schema: leaderboardSchema },
  problems: [401],
});

/**
 * `answer` with status 200: a repeat push answers as a first one does but
 * for its status, and a declared route's reply knows only the declared one.
 */
function asRepeat(answer: Answer): Answer {
  return new Response(answer.body, { status: 200, headers: answer.headers }) as unknown as Answer;
}

/** The lap routes over `app`. */
export function hubLapRoutes(app: HubApp): RouteTable<HubEnv> {
  const r = new RouteTable<HubEnv>();
  r.serve(pushLapRoute, async ({ reply }, c) => {
    const who = principalIn(c);
    const bytes = await readBody(c.req.raw, MAX_IMPORT_BYTES, emptyImport("a lap file (JSON)"));
    const pushed = await app.pushLap(who, bytes);
    const answer = reply.json(pushed);
    return pushed.created ? answer : asRepeat(answer);
  });
  r.serve(listLapsRoute, async ({ query, reply }) => reply.json({ laps: await app.laps(query) }));
  r.serve(getLapRoute, async ({ params, reply }) => reply.json(await app.lapFile(params.id)));
  r.serve(exportLapRoute, async ({ params, reply }) => reply.json(await app.lapFile(params.id)));
  r.serve(
    deleteLapRoute,
    async ({ params, reply }, c) => reply.json(await app.deleteLap(principalIn(c), params.id)),
  );
  r.serve(
    leaderboardRoute,
    async ({ query, reply }) => reply.json(await app.leaderboard(query.circuit, query.car ?? null)),
  );
  return r;
}
