/**
 * Lap routes: laps across sessions and their bests, one lap, its deletion,
 * and lap exchange (JSON and CSV export, JSON import).
 *
 * @module
 */
import { Hono } from "hono";
import type { App } from "../../app/create_app.ts";
import { MAX_IMPORT_BYTES, readJsonBody } from "../body.ts";
import { idParam } from "../params.ts";
import { motecRoutes } from "./motec.ts";

/**
 * GET /api/laps (filters `track`, `car`, `complete`, `order`, `limit`),
 * GET /api/laps/bests, GET and DELETE /api/laps/{id},
 * GET /api/laps/{id}/notes (coaching notes against a reference),
 * GET /api/laps/{id}/export.json, GET /api/laps/{id}/export.csv,
 * GET /api/laps/{id}/export.ld and export.ldx (the MoTeC log's two files),
 * POST /api/laps/import.
 */
export function lapRoutes(app: App): Hono {
  const r = new Hono();
  r.get("/laps", async (c) => c.json(await app.sessions.listAcross(c.req.query())));
  // Before /laps/{id}, which would take "bests" for an id.
  r.get("/laps/bests", async (c) => c.json(await app.sessions.bests(c.req.query())));
  r.get("/laps/:id", async (c) => c.json(await app.sessions.lap(idParam(c.req.param("id"), "id"))));
  r.delete(
    "/laps/:id",
    async (c) => c.json(await app.sessions.deleteLap(idParam(c.req.param("id"), "id"))),
  );
  r.get(
    "/laps/:id/notes",
    async (c) => c.json(await app.analysis.notes(idParam(c.req.param("id"), "id"), c.req.query())),
  );
  r.get("/laps/:id/export.json", async (c) => {
    const id = idParam(c.req.param("id"), "id");
    const file = await app.laps.exportFile(id);
    c.header("Content-Disposition", `attachment; filename="sim-datalogger-lap-${id}.json"`);
    return c.json(file);
  });
  r.get("/laps/:id/export.csv", async (c) => {
    const csv = await app.laps.exportCsv(idParam(c.req.param("id"), "id"));
    const encoder = new TextEncoder();
    // Pull-based: a row is produced only when the client reads, so memory stays flat.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        let chunk = "";
        for (let i = 0; i < 256; i++) {
          const next = csv.lines.next();
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
    return new Response(body, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${csv.filename}"`,
      },
    });
  });
  motecRoutes(r, "laps", (id, opts) => app.laps.exportMotec(id, opts));
  r.post("/laps/import", async (c) => {
    const json = await readJsonBody(c.req.raw, MAX_IMPORT_BYTES);
    const result = await app.laps.importFile(json);
    return c.json(result, 201);
  });
  return r;
}
