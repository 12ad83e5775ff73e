/**
 * Lap routes: laps across sessions and their bests, one lap, its deletion,
 * and lap exchange (JSON and CSV export, import of every lap format); each declared once
 * (src/server/declared_route.ts).
 *
 * @module
 */
import { z } from "zod";
import type { AppFace } from "../../app/create_app.ts";
import { notesQuerySchema } from "../queries/analysis_queries.ts";
import { bestItemSchema, lapListItemSchema } from "../../app/laps/lap_listing.ts";
import { lapListQuerySchema } from "../queries/lap_list_query.ts";
import { lapFileSchema } from "../../core/laps/lap_file_schema.ts";
import { emptyImport, MAX_IMPORT_BYTES, readBody } from "../body.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";
import { idParams } from "../params.ts";
import { coachingNotesSchema } from "../../core/analysis/coaching_notes_schema.ts";
import { lapSchema } from "../openapi/session_schemas.ts";
import { lapDeletionSchema } from "../../app/laps/sessions.ts";
import { lapImportResultSchema } from "../../app/laps/lap_exchange.ts";
import { motecOperations, motecRoutes } from "./motec.ts";

/** GET /api/laps. */
export const listLaps = declareRoute({
  method: "get",
  path: "/api/laps",
  tag: "laps",
  summary: "Laps across sessions",
  query: lapListQuerySchema,
  ok: { schema: z.array(lapListItemSchema) },
});

/** GET /api/laps/bests: takes no parameter. */
export const lapBests = declareRoute({
  method: "get",
  path: "/api/laps/bests",
  tag: "laps",
  summary: "The best lap of every circuit and car",
  ok: { schema: z.array(bestItemSchema) },
});

/** GET /api/laps/{id}. */
export const getLap = declareRoute({
  method: "get",
  path: "/api/laps/{id}",
  tag: "laps",
  summary: "One lap with its samples",
  params: idParams,
  ok: { schema: lapSchema },
  problems: [404],
});

/** DELETE /api/laps/{id}. */
export const deleteLap = declareRoute({
  method: "delete",
  path: "/api/laps/{id}",
  tag: "laps",
  summary: "Delete a lap",
  params: idParams,
  ok: { schema: lapDeletionSchema },
  problems: [404, 409],
});

/** GET /api/laps/{id}/notes. */
export const lapNotes = declareRoute({
  method: "get",
  path: "/api/laps/{id}/notes",
  tag: "laps",
  summary: "Coaching notes: what the lap did differently from a reference, corner by corner",
  params: idParams,
  query: notesQuerySchema,
  ok: { schema: coachingNotesSchema },
  problems: [404],
});

/** GET /api/laps/{id}/export.json. */
export const exportLapJson = declareRoute({
  method: "get",
  path: "/api/laps/{id}/export.json",
  tag: "laps",
  summary: "The lap as a lap file (attachment)",
  params: idParams,
  ok: { schema: lapFileSchema },
  problems: [404],
});

/** GET /api/laps/{id}/export.csv. */
export const exportLapCsv = declareRoute({
  method: "get",
  path: "/api/laps/{id}/export.csv",
  tag: "laps",
  summary: "The lap as MoTeC CSV, streamed",
  params: idParams,
  ok: { type: "text/csv", description: "MoTeC i2 CSV" },
  problems: [404],
});

/**
 * POST /api/laps/import: the file is taken as it is and read by the
 * exchange use case, which recognises its format by content
 * (src/core/laps/import/recognise.ts); the body schema published is the lap
 * file's, the one JSON format of the four.
 */
export const importLap = declareRoute({
  method: "post",
  path: "/api/laps/import",
  tag: "laps",
  summary: "Import laps: a lap file (version 1 or 2), gt7dashboard's save, MoTeC CSV or .ld",
  body: {
    schema: lapFileSchema,
    description: "the file as it is, at most 64 MiB: a lap file (shown), gt7dashboard's save " +
      "(a JSON list of laps with data_* arrays), MoTeC CSV or a MoTeC .ld log, recognised " +
      "by content",
  },
  bodyBy: "handler",
  ok: { status: 201, schema: lapImportResultSchema },
  problems: [413],
});

const motec = motecOperations("laps");

/** The body of a CSV export, pulled a few hundred rows at a time so memory stays flat. */
function csvStream(lines: Iterator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let chunk = "";
      for (let i = 0; i < 256; i++) {
        const next = lines.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += next.value;
      }
      controller.enqueue(encoder.encode(chunk));
    },
  });
}

/**
 * GET /api/laps (filters `track`, `car`, `complete`, `order`, `limit`),
 * GET /api/laps/bests, GET and DELETE /api/laps/{id},
 * GET /api/laps/{id}/notes (coaching notes against a reference),
 * GET /api/laps/{id}/export.json, GET /api/laps/{id}/export.csv,
 * GET /api/laps/{id}/export.ld and export.ldx (the MoTeC log's two files),
 * POST /api/laps/import.
 */
export function lapRoutes(app: AppFace): RouteTable {
  const r = new RouteTable();
  r.serve(listLaps, async ({ query, reply }) => reply.json(await app.sessions.listAcross(query)));
  // Before /laps/{id}, which would take "bests" for an id.
  r.serve(lapBests, async ({ reply }) => reply.json(await app.sessions.bests()));
  r.serve(getLap, async ({ params, reply }) => reply.json(await app.sessions.lap(params.id)));
  r.serve(
    deleteLap,
    async ({ params, reply }) => reply.json(await app.sessions.deleteLap(params.id)),
  );
  r.serve(
    lapNotes,
    async ({ params, query, reply }) => reply.json(await app.analysis.notes(params.id, query)),
  );
  r.serve(exportLapJson, async ({ params, reply }, c) => {
    const { filename, file } = await app.laps.exportNamedFile(params.id);
    c.header("Content-Disposition", `attachment; filename="${filename}"`);
    return reply.json(file);
  });
  r.serve(exportLapCsv, async ({ params, reply }) => {
    const csv = await app.laps.exportCsv(params.id);
    return reply.raw(
      new Response(csvStream(csv.lines), {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${csv.filename}"`,
        },
      }),
    );
  });
  motecRoutes(r, motec, (id, opts) => app.laps.exportMotec(id, opts));
  r.serve(importLap, async ({ reply }, c) => {
    const bytes = await readBody(
      c.req.raw,
      MAX_IMPORT_BYTES,
      emptyImport("a lap file, gt7dashboard save, MoTeC CSV or .ld"),
    );
    return reply.json(await app.laps.importBytes(bytes));
  });
  return r;
}
