/**
 * Session routes: list, read, change, delete.
 *
 * @module
 */
import { Hono } from "hono";
import type { App } from "../../app/create_app.ts";
import { readJsonBody } from "../body.ts";
import { idParam } from "../params.ts";
import { motecRoutes } from "./motec.ts";

/**
 * A session change is a name and up to 2,000 characters of notes (at most
 * 4 bytes each in UTF-8, 6 as a JSON escape); anything larger is not one.
 */
const MAX_PATCH_BYTES = 16_384;

/**
 * GET /api/sessions, /api/sessions/{id}, /api/sessions/{id}/laps,
 * /api/sessions/{id}/export.ld and export.ldx (every lap as one MoTeC log);
 * PATCH and DELETE /api/sessions/{id}.
 */
export function sessionRoutes(app: App): Hono {
  const r = new Hono();
  r.get("/sessions", async (c) => c.json(await app.sessions.list()));
  r.get(
    "/sessions/:id",
    async (c) => c.json(await app.sessions.get(idParam(c.req.param("id"), "id"))),
  );
  r.get(
    "/sessions/:id/laps",
    async (c) => c.json(await app.sessions.laps(idParam(c.req.param("id"), "id"))),
  );
  motecRoutes(r, "sessions", (id, opts) => app.laps.exportSessionMotec(id, opts));
  r.patch("/sessions/:id", async (c) => {
    const id = idParam(c.req.param("id"), "id");
    const body = await readJsonBody(c.req.raw, MAX_PATCH_BYTES);
    return c.json(await app.sessions.update(id, body));
  });
  r.delete(
    "/sessions/:id",
    async (c) => c.json(await app.sessions.remove(idParam(c.req.param("id"), "id"))),
  );
  return r;
}
