/**
 * Track signature and identification routes.
 *
 * @module
 */
import { Hono } from "hono";
import type { App } from "../../app/create_app.ts";
import { readEmptyCommand, readJsonBody } from "../body.ts";
import { idParam } from "../params.ts";

/** A signature request is a few bytes; anything larger is not one. */
const MAX_TRACK_BYTES = 4096;

/**
 * POST /api/tracks {name, lap_id} (201), GET /api/tracks (signatures and
 * reference lines), DELETE /api/tracks/{id}, POST /api/tracks/identify, and
 * GET /api/laps/{id}/identify (why a lap is named what it is, or nothing).
 * Identify takes no fields: its body is absent, empty or `{}`.
 */
export function trackRoutes(app: App): Hono {
  const r = new Hono();
  r.get("/tracks", async (c) => c.json(await app.tracks.listKnown()));
  r.post("/tracks/identify", async (c) => {
    await readEmptyCommand(c.req.raw);
    return c.json(await app.tracks.identifyUnlabelled());
  });
  r.post("/tracks", async (c) => {
    const body = await readJsonBody(c.req.raw, MAX_TRACK_BYTES);
    return c.json(await app.tracks.create(body), 201);
  });
  r.delete("/tracks/:id", async (c) => {
    const id = idParam(c.req.param("id"), "id");
    await app.tracks.delete(id);
    return c.json({ id, deleted: true });
  });
  r.get("/laps/:id/identify", async (c) => {
    const id = idParam(c.req.param("id"), "id");
    return c.json(await app.tracks.explainLap(id));
  });
  return r;
}
