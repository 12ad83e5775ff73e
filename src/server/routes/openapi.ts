/**
 * GET /api/openapi.json: the OpenAPI 3.1 document of the API, generated
 * from the zod schemas the routes validate with and answer by.
 *
 * @module
 */
import { Hono } from "hono";
import { openApiDocument } from "../openapi/document.ts";
import { getOpenApi } from "../openapi/operations.ts";
import { mount } from "../declared_route.ts";

/** GET /api/openapi.json; the document is built once, on first request. */
export function openApiRoutes(): Hono {
  let text: string | null = null;
  const r = new Hono();
  mount(r, getOpenApi, () =>
    new Response(text ??= JSON.stringify(openApiDocument()), {
      headers: { "content-type": "application/json; charset=utf-8" },
    }));
  return r;
}
