/**
 * The JSON Schemas of the published formats, generated from the zod schemas
 * that validation uses, so what is published is what is enforced.
 *
 * @module
 */
import { bundleJsonSchema } from "../../core/bundle/json_schema.ts";
import { lapFileJsonSchema } from "../../core/laps/lap_file.ts";
import { compiledJsonSchema } from "../../core/geometry/schema.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";

const SCHEMA_TYPE = "application/schema+json";

/** Builds a document once, on first request. */
function once(build: () => Record<string, unknown>): () => string {
  let text: string | null = null;
  return () => text ??= JSON.stringify(build());
}

/** The published formats: file name, builder and summary. */
const FORMATS = [
  ["track-bundle.v4.json", bundleJsonSchema, "JSON Schema of the bundle format"],
  ["lap.v2.json", lapFileJsonSchema, "JSON Schema of the lap file"],
  ["track-compiled.v1.json", compiledJsonSchema, "JSON Schema of the compiled document"],
] as const;

/**
 * GET /api/schemas/track-bundle.v4.json, GET /api/schemas/lap.v2.json and
 * GET /api/schemas/track-compiled.v1.json, each declared with its media type.
 */
export function schemaRoutes(): RouteTable {
  const r = new RouteTable();
  for (const [name, build, summary] of FORMATS) {
    const text = once(build);
    const route = declareRoute({
      method: "get",
      path: `/api/schemas/${name}`,
      tag: "schemas",
      summary,
      ok: { type: SCHEMA_TYPE },
    });
    r.serve(
      route,
      ({ reply }) => reply.raw(new Response(text(), { headers: { "content-type": SCHEMA_TYPE } })),
    );
  }
  return r;
}
