/**
 * The MoTeC i2 log over HTTP. A log is two files, and one response carries
 * one body, so each has its own route: `export.ld` answers the binary log
 * and `export.ldx` the XML of its lap markers, both named in
 * Content-Disposition with the same base name, which is how i2 pairs them
 * once saved side by side.
 *
 * @module
 */
import type { Hono } from "hono";
import { type MotecExport, type MotecExportOptions, motecOptions } from "../../app/motec_export.ts";
import { idParam } from "../params.ts";

/**
 * Adds GET /{base}/{id}/export.ld and GET /{base}/{id}/export.ldx to `r`,
 * answering `make`'s log of `id` (query `driver`, optional).
 */
export function motecRoutes(
  r: Hono,
  base: "laps" | "sessions",
  make: (id: number, opts: MotecExportOptions) => Promise<MotecExport>,
): void {
  r.get(`/${base}/:id/export.ld`, async (c) => {
    const id = idParam(c.req.param("id"), "id");
    const log = await make(id, motecOptions(c.req.query()));
    return new Response(log.ld, {
      headers: {
        "content-type": "application/octet-stream",
        "content-disposition": `attachment; filename="${log.basename}.ld"`,
      },
    });
  });
  r.get(`/${base}/:id/export.ldx`, async (c) => {
    const id = idParam(c.req.param("id"), "id");
    const log = await make(id, motecOptions(c.req.query()));
    return new Response(log.ldx, {
      headers: {
        "content-type": "application/xml; charset=utf-8",
        "content-disposition": `attachment; filename="${log.basename}.ldx"`,
      },
    });
  });
}
