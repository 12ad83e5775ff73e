/**
 * The operations the HTTP app serves, as src/server/route_table.ts listed
 * them while the app was built: the list the OpenAPI document is made from.
 *
 * @module
 */
import { createApp } from "../../src/app/create_app.ts";
import { createHttpApp } from "../../src/server/http.ts";
import type { Operation } from "../../src/server/openapi/operation.ts";
import { openApiDocument } from "../../src/server/openapi/document.ts";

/** Every operation of an HTTP app over a fresh in-memory store, in the order served. */
export async function servedOperations(): Promise<readonly Operation[]> {
  const kv = await Deno.openKv(":memory:");
  try {
    return createHttpApp(await createApp({ kv })).operations;
  } finally {
    kv.close();
  }
}

/** The OpenAPI document of {@linkcode servedOperations}: what /api/openapi.json serves. */
export async function servedDocument(): Promise<Record<string, unknown>> {
  return openApiDocument(await servedOperations());
}
