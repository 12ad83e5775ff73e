/**
 * The MoTeC i2 log over HTTP. A log is two files, and one response carries
 * one body, so each has its own route: `export.ld` answers the binary log
 * and `export.ldx` the XML of its lap markers, both named in
 * Content-Disposition with the same base name, which is how i2 pairs them
 * once saved side by side. Declared once (src/server/declared_route.ts).
 *
 * @module
 */
import type { MotecExport, MotecExportOptions } from "../../app/laps/motec_export.ts";
import { motecQuerySchema } from "../queries/motec_query.ts";
import { encodeLd } from "../../core/motec/ld_writer.ts";
import { encodeLdx } from "../../core/motec/ldx_writer.ts";
import { declareRoute } from "../declared_route.ts";
import type { RouteTable } from "../route_table.ts";
import { idParams } from "../params.ts";

/** The two MoTeC operations of `base` (laps: one lap; sessions: every lap of one). */
export function motecOperations(base: "laps" | "sessions") {
  const laps = base === "laps";
  return {
    ld: declareRoute({
      method: "get",
      path: `/api/${base}/{id}/export.ld`,
      tag: base,
      summary: laps
        ? "The lap as a MoTeC i2 log (.ld); its markers are export.ldx"
        : "Every lap of the session as one MoTeC i2 log (.ld); markers are export.ldx",
      params: idParams,
      query: motecQuerySchema,
      ok: { type: "application/octet-stream", description: "MoTeC i2 .ld log" },
      problems: [404],
    }),
    ldx: declareRoute({
      method: "get",
      path: `/api/${base}/{id}/export.ldx`,
      tag: base,
      summary: laps
        ? "The lap markers (.ldx) that go beside export.ld"
        : "The lap markers (.ldx) that go beside the session's export.ld",
      params: idParams,
      query: motecQuerySchema,
      ok: { type: "application/xml", description: "MoTeC i2 .ldx markers" },
      problems: [404],
    }),
  };
}

/**
 * Serves `ops` (the caller's {@linkcode motecOperations}) on `r`, which lists them: GET /{base}/{id}/export.ld and
 * GET /{base}/{id}/export.ldx, answering `make`'s log of `id` (query
 * `driver`, optional). Each route encodes only the file it answers: the
 * other would be thrown away.
 */
export function motecRoutes(
  r: RouteTable,
  ops: ReturnType<typeof motecOperations>,
  make: (id: number, opts: MotecExportOptions) => Promise<MotecExport>,
): void {
  r.serve(ops.ld, async ({ params, query, reply }) => {
    const { basename, log } = await make(params.id, { driver: query.driver ?? "" });
    return reply.raw(
      new Response(encodeLd(log), {
        headers: {
          "content-type": "application/octet-stream",
          "content-disposition": `attachment; filename="${basename}.ld"`,
        },
      }),
    );
  });
  r.serve(ops.ldx, async ({ params, query, reply }) => {
    const { basename, log } = await make(params.id, { driver: query.driver ?? "" });
    return reply.raw(
      new Response(encodeLdx(log), {
        headers: {
          "content-type": "application/xml; charset=utf-8",
          "content-disposition": `attachment; filename="${basename}.ldx"`,
        },
      }),
    );
  });
}
