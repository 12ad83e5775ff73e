/**
 * Track signature and identification routes, each declared once: the
 * operations below are both what the OpenAPI document lists and what the
 * router validates requests with (src/server/declared_route.ts).
 *
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import type { AppFace } from "../../app/create_app.ts";
import { createTrackSchema } from "../../app/tracks/track_request.ts";
import { readEmptyCommand } from "../body.ts";
import { declareRoute, mount } from "../declared_route.ts";
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

/** The track operations, for the OpenAPI document. */
export const TRACK_OPERATIONS = [
  listTracks,
  createTrack,
  deleteTrack,
  identifyTracks,
  explainLap,
] as const;

/**
 * POST /api/tracks {name, lap_id} (201), GET /api/tracks (signatures and
 * reference lines), DELETE /api/tracks/{id}, POST /api/tracks/identify, and
 * GET /api/laps/{id}/identify (why a lap is named what it is, or nothing).
 */
export function trackRoutes(app: AppFace): Hono {
  const r = new Hono();
  mount(r, listTracks, async (_, c) => c.json(await app.tracks.listKnown()));
  mount(r, identifyTracks, async (_, c) => {
    await readEmptyCommand(c.req.raw);
    return c.json(await app.tracks.identifyUnlabelled());
  });
  mount(r, createTrack, async ({ body }, c) => c.json(await app.tracks.create(body), 201));
  mount(r, deleteTrack, async ({ params }, c) => {
    await app.tracks.delete(params.id);
    return c.json({ id: params.id, deleted: true });
  });
  mount(r, explainLap, async ({ params }, c) => c.json(await app.tracks.explainLap(params.id)));
  return r;
}
