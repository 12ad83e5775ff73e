/**
 * Track signature and identification routes, each declared once: the
 * operations below are both what the OpenAPI document lists and what the
 * router validates requests with (src/server/declared_route.ts).
 *
 * @module
 */
import { z } from "zod";
import type { AppFace } from "../../app/create_app.ts";
import { createTrackSchema } from "../../app/tracks/track_request.ts";
import { readEmptyCommand } from "../body.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";
import { idParams } from "../params.ts";
import { lapIdentifySchema, trackDeletionSchema } from "../openapi/track_schemas.ts";
import { trackEntrySchema } from "../../app/tracks/track_entries.ts";
import { createTrackResultSchema, identifyResultSchema } from "../../app/tracks/tracks.ts";

/** A signature request is a few bytes; anything larger is not one. */
const MAX_TRACK_BYTES = 4096;

/** GET /api/tracks. */
export const listTracks = declareRoute({
  method: "get",
  path: "/api/tracks",
  tag: "tracks",
  summary: "Signatures and reference lines",
  ok: { schema: z.array(trackEntrySchema) },
});

/** POST /api/tracks {name, lap_id} (201). */
export const createTrack = declareRoute({
  method: "post",
  path: "/api/tracks",
  tag: "tracks",
  summary: "Make a signature from a lap",
  body: { schema: createTrackSchema },
  bodyLimit: MAX_TRACK_BYTES,
  ok: { status: 201, schema: createTrackResultSchema },
  problems: [404, 409, 413],
});

/** DELETE /api/tracks/{id}. */
export const deleteTrack = declareRoute({
  method: "delete",
  path: "/api/tracks/{id}",
  tag: "tracks",
  summary: "Delete a signature",
  params: idParams,
  ok: { schema: trackDeletionSchema },
  problems: [404],
});

/**
 * POST /api/tracks/identify: takes no fields, so its body is read by
 * readEmptyCommand (absent, empty or `{}`, any field refused by name), as
 * the document's strict empty object describes.
 */
export const identifyTracks = declareRoute({
  method: "post",
  path: "/api/tracks/identify",
  tag: "tracks",
  summary: "Name unlabelled sessions",
  body: {
    schema: z.object({}).strict(),
    required: false,
    description: "none, empty, or {}: the request takes no fields",
  },
  bodyBy: "handler",
  ok: { schema: identifyResultSchema },
  problems: [413],
});

/** GET /api/laps/{id}/identify. */
export const explainLap = declareRoute({
  method: "get",
  path: "/api/laps/{id}/identify",
  tag: "tracks",
  summary: "Why the lap is named what it is",
  params: idParams,
  ok: { schema: lapIdentifySchema },
  problems: [404],
});

/**
 * POST /api/tracks {name, lap_id} (201), GET /api/tracks (signatures and
 * reference lines), DELETE /api/tracks/{id}, POST /api/tracks/identify, and
 * GET /api/laps/{id}/identify (why a lap is named what it is, or nothing).
 */
export function trackRoutes(app: AppFace): RouteTable {
  const r = new RouteTable();
  r.serve(listTracks, async ({ reply }) => reply.json(await app.tracks.listKnown()));
  r.serve(createTrack, async ({ body, reply }) => reply.json(await app.tracks.create(body)));
  r.serve(deleteTrack, async ({ params, reply }) => {
    await app.tracks.delete(params.id);
    return reply.json({ id: params.id, deleted: true });
  });
  r.serve(identifyTracks, async ({ reply }, c) => {
    await readEmptyCommand(c.req.raw);
    return reply.json(await app.tracks.identifyUnlabelled());
  });
  r.serve(
    explainLap,
    async ({ params, reply }) => reply.json(await app.tracks.explainLap(params.id)),
  );
  return r;
}
