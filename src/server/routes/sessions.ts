/**
 * Session and lap read routes.
 *
 * @module
 */
import { Hono } from "hono";
import type { App } from "../../app/context.ts";
import { lap, session, sessionLaps, sessions } from "../../app/sessions.ts";
import { idParam } from "../params.ts";

/** GET /api/sessions, /api/sessions/{id}, /api/sessions/{id}/laps and /api/laps/{id}. */
export function sessionRoutes(app: App): Hono {
  const r = new Hono();
  r.get("/sessions", async (c) => c.json(await sessions(app)));
  r.get("/sessions/:id", async (c) => c.json(await session(app, idParam(c.req.param("id"), "id"))));
  r.get(
    "/sessions/:id/laps",
    async (c) => c.json(await sessionLaps(app, idParam(c.req.param("id"), "id"))),
  );
  r.get("/laps/:id", async (c) => c.json(await lap(app, idParam(c.req.param("id"), "id"))));
  return r;
}
