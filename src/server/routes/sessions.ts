/**
 * Session routes: list, read, change, delete; each declared once
 * (src/server/declared_route.ts).
 *
 * @module
 */
import { z } from "zod";
import type { AppFace } from "../../app/create_app.ts";
import { sessionPatchRefusal, sessionPatchSchema } from "../../app/laps/session_patch.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";
import { idParams } from "../params.ts";
import { sessionDeletionSchema } from "../../app/laps/sessions.ts";
import { sessionSchema } from "../../core/laps/session.ts";
import { lapSummarySchema } from "../../core/laps/lap.ts";
import { motecOperations, motecRoutes } from "./motec.ts";

/**
 * A session change is a name and up to 2,000 characters of notes (at most
 * 4 bytes each in UTF-8, 6 as a JSON escape); anything larger is not one.
 */
const MAX_PATCH_BYTES = 16_384;

/** The header of a session listing that left records out: their ids, comma-separated. */
export const UNREADABLE_SESSIONS_HEADER = "X-Unreadable-Sessions";

/** GET /api/sessions. */
export const listSessions = declareRoute({
  method: "get",
  path: "/api/sessions",
  tag: "sessions",
  summary: "Every session, newest first",
  ok: {
    schema: z.array(sessionSchema),
    headers: {
      [UNREADABLE_SESSIONS_HEADER]: "present when stored sessions were left out because they " +
        "cannot be read: their ids, comma-separated, percent-encoded; GET each for why",
    },
  },
});

/** GET /api/sessions/{id}. */
export const getSession = declareRoute({
  method: "get",
  path: "/api/sessions/{id}",
  tag: "sessions",
  summary: "One session",
  params: idParams,
  ok: { schema: sessionSchema },
  problems: [404, 500],
});

/** GET /api/sessions/{id}/laps. */
export const sessionLaps = declareRoute({
  method: "get",
  path: "/api/sessions/{id}/laps",
  tag: "sessions",
  summary: "The session's laps, oldest first",
  params: idParams,
  ok: { schema: z.array(lapSummarySchema) },
  problems: [404],
});

/** PATCH /api/sessions/{id}. */
export const patchSession = declareRoute({
  method: "patch",
  path: "/api/sessions/{id}",
  tag: "sessions",
  summary: "Name, notes, exclusion from bests",
  params: idParams,
  body: { schema: sessionPatchSchema },
  bodyLimit: MAX_PATCH_BYTES,
  bodyRefusal: sessionPatchRefusal,
  ok: { schema: sessionSchema },
  problems: [404, 413],
});

/** DELETE /api/sessions/{id}. */
export const deleteSession = declareRoute({
  method: "delete",
  path: "/api/sessions/{id}",
  tag: "sessions",
  summary: "Delete a session and its laps",
  params: idParams,
  ok: { schema: sessionDeletionSchema },
  problems: [404, 409],
});

const motec = motecOperations("sessions");

/**
 * GET /api/sessions, /api/sessions/{id}, /api/sessions/{id}/laps,
 * /api/sessions/{id}/export.ld and export.ldx (every lap as one MoTeC log);
 * PATCH and DELETE /api/sessions/{id}.
 */
export function sessionRoutes(app: AppFace): RouteTable {
  const r = new RouteTable();
  r.serve(listSessions, async ({ reply }, c) => {
    const { sessions, unreadable } = await app.sessions.listing();
    if (unreadable.length) {
      c.header(
        UNREADABLE_SESSIONS_HEADER,
        unreadable.map((u) => encodeURIComponent(u.id)).join(","),
      );
    }
    return reply.json(sessions);
  });
  r.serve(getSession, async ({ params, reply }) => reply.json(await app.sessions.get(params.id)));
  r.serve(sessionLaps, async ({ params, reply }) => reply.json(await app.sessions.laps(params.id)));
  motecRoutes(r, motec, (id, opts) => app.laps.exportSessionMotec(id, opts));
  r.serve(
    patchSession,
    async ({ params, body, reply }) => reply.json(await app.sessions.update(params.id, body)),
  );
  r.serve(
    deleteSession,
    async ({ params, reply }) => reply.json(await app.sessions.remove(params.id)),
  );
  return r;
}
