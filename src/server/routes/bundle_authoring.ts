/**
 * Bundle authoring routes: corners, sections, rename and delete; each
 * declared once (src/server/declared_route.ts). The bodies are parsed here
 * with the schemas declared here; the authoring use case takes the parsed values.
 *
 * @module
 */
import type { z } from "zod";
import type { AppFace } from "../../app/create_app.ts";
import { cornersSchema, renameSchema, sectionsSchema } from "../../app/bundles/bundle_authoring.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";
import { bundleDeletionSchema } from "../openapi/bundle_schemas.ts";
import {
  cornersDocSchema,
  renameResultSchema,
  sectionsDocSchema,
} from "../../app/bundles/bundle_answers.ts";
import { slugParams } from "./bundles.ts";

/** 100 corners with notes fit well inside this; anything larger is not a corner list. */
const MAX_AUTHORING_BYTES = 1024 * 1024;

/** PATCH /api/track-bundles/{slug}. */
export const renameBundle = declareRoute({
  method: "patch",
  path: "/api/track-bundles/{slug}",
  tag: "bundles",
  summary: "Rename, merging into an existing bundle",
  params: slugParams,
  body: { schema: renameSchema },
  bodyLimit: MAX_AUTHORING_BYTES,
  bodyName: "rename",
  ok: { schema: renameResultSchema },
  problems: [404, 409, 413],
});

/** DELETE /api/track-bundles/{slug}. */
export const deleteBundle = declareRoute({
  method: "delete",
  path: "/api/track-bundles/{slug}",
  tag: "bundles",
  summary: "Delete a bundle",
  params: slugParams,
  ok: { schema: bundleDeletionSchema },
  problems: [404, 409],
});

/**
 * GET and PUT of a bundle's hand-authored `kind` (corners or sections), its
 * body parsed by `schema` once a bare array is wrapped as `{KIND: array}`.
 */
function authoredOperations<const S extends z.ZodType>(kind: "corners" | "sections", schema: S) {
  const path = `/api/track-bundles/{slug}/${kind}` as const;
  const doc = kind === "corners" ? cornersDocSchema : sectionsDocSchema;
  return {
    get: declareRoute({
      method: "get",
      path,
      tag: "bundles",
      summary: `Hand-authored ${kind}`,
      params: slugParams,
      ok: { schema: doc },
      problems: [404],
    }),
    put: declareRoute({
      method: "put",
      path,
      tag: "bundles",
      summary: `Replace the ${kind}`,
      params: slugParams,
      body: { schema, description: `{${kind}: [...]} or the bare array` },
      bodyLimit: MAX_AUTHORING_BYTES,
      bodyShape: (raw: unknown) => Array.isArray(raw) ? { [kind]: raw } : raw,
      bodyName: kind,
      ok: { schema: doc },
      problems: [404, 409, 413],
    }),
  };
}

const corners = authoredOperations("corners", cornersSchema);
const sections = authoredOperations("sections", sectionsSchema);

/**
 * GET and PUT /api/track-bundles/{slug}/corners and /sections;
 * PATCH /api/track-bundles/{slug} {track} (rename, merging into an existing
 * bundle); DELETE /api/track-bundles/{slug}.
 */
export function bundleAuthoringRoutes(app: AppFace): RouteTable {
  const r = new RouteTable();
  r.serve(renameBundle, async ({ params, body, reply }) => {
    return reply.json(await app.bundles.rename(params.slug, body));
  });
  r.serve(deleteBundle, async ({ params, reply }) => {
    return reply.json(await app.bundles.delete(params.slug));
  });
  r.serve(
    corners.get,
    async ({ params, reply }) => reply.json(await app.bundles.corners(params.slug)),
  );
  r.serve(corners.put, async ({ params, body, reply }) => {
    return reply.json(await app.bundles.putCorners(params.slug, body));
  });
  r.serve(
    sections.get,
    async ({ params, reply }) => reply.json(await app.bundles.sections(params.slug)),
  );
  r.serve(sections.put, async ({ params, body, reply }) => {
    return reply.json(await app.bundles.putSections(params.slug, body));
  });
  return r;
}
