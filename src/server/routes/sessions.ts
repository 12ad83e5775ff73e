/**
 * Session and lap read routes.
 *
 * @module
 */
import { Hono } from "hono";
import type { App } from "../../app/create_app.ts";
import { BadRequest } from "../../core/errors.ts";
import { readJsonBody } from "../body.ts";
import { idParam } from "../params.ts";

/** A rename request is a few bytes; anything larger is not one. */
const MAX_RENAME_BYTES = 4096;

/** GET /api/sessions, /api/sessions/{id}, /api/sessions/{id}/laps, /api/laps/{id}; PATCH /api/sessions/{id}. */
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
  r.patch("/sessions/:id", async (c) => {
    const id = idParam(c.req.param("id"), "id");
    const body = await readJsonBody(c.req.raw, MAX_RENAME_BYTES);
    if (typeof body !== "object" || body === null || Array.isArray(body) || !("name" in body)) {
      throw new BadRequest("body must be an object with a name", [
        { path: "$.name", message: "is required" },
      ]);
    }
    return c.json(await app.sessions.rename(id, (body as { name: unknown }).name));
  });
  r.get("/laps/:id", async (c) => c.json(await app.sessions.lap(idParam(c.req.param("id"), "id"))));
  return r;
}
