/**
 * The JSON Schemas of the published formats, generated from the zod schemas
 * that validation uses, so what is published is what is enforced.
 *
 * @module
 */
import { Hono } from "hono";
import { bundleJsonSchema } from "../../core/bundle/json_schema.ts";
import { lapFileJsonSchema } from "../../core/laps/lap_file.ts";
import { compiledJsonSchema } from "../../core/geometry/schema.ts";

const SCHEMA_TYPE = "application/schema+json";

/** Builds a document once, on first request. */
function once(build: () => Record<string, unknown>): () => string {
  let text: string | null = null;
  return () => text ??= JSON.stringify(build());
}

/**
 * GET /api/schemas/track-bundle.v4.json, GET /api/schemas/lap.v2.json and
 * GET /api/schemas/track-compiled.v1.json.
 */
export function schemaRoutes(): Hono {
  const schemas: Record<string, () => string> = {
    "track-bundle.v4.json": once(bundleJsonSchema),
    "lap.v2.json": once(lapFileJsonSchema),
    "track-compiled.v1.json": once(compiledJsonSchema),
  };
  const r = new Hono();
  for (const [name, text] of Object.entries(schemas)) {
    r.get(
      `/schemas/${name}`,
      () => new Response(text(), { headers: { "content-type": SCHEMA_TYPE } }),
    );
  }
  return r;
}
