/**
 * GET /api/openapi.json: the OpenAPI 3.1 document of the API, generated
 * from the operations the HTTP app served (src/server/route_table.ts), so
 * it names every route and the schemas each validates with and answers by.
 *
 * @module
 */
import { openApiDocument } from "../openapi/document.ts";
import type { Operation } from "../openapi/operation.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";

/**
 * GET /api/openapi.json. Its body is the OpenAPI 3.1 document, which that
 * specification describes; so it declares the media type and answers the
 * text it made.
 */
export const getOpenApi = declareRoute({
  method: "get",
  path: "/api/openapi.json",
  tag: "status",
  summary: "This document",
  ok: { type: "application/json", description: "an OpenAPI 3.1 document" },
});

/**
 * GET /api/openapi.json, the document of `operations()` (called on the first
 * request, once every route is served); the text is made once.
 */
export function openApiRoutes(operations: () => readonly Operation[]): RouteTable {
  let text: string | null = null;
  const r = new RouteTable();
  r.serve(getOpenApi, ({ reply }) =>
    reply.raw(
      new Response(text ??= JSON.stringify(openApiDocument(operations())), {
        headers: { "content-type": "application/json; charset=utf-8" },
      }),
    ));
  return r;
}
