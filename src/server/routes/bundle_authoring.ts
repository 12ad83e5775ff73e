/**
 * Bundle authoring routes: corners, sections, rename and delete; each
 * declared once (src/server/declared_route.ts). The bodies are parsed here
 * with the schemas declared here; the authoring use case takes the parsed values.
 *
 * @module
 */
import { Hono } from "hono";
import type { z } from "zod";
import type { AppFace } from "../../app/create_app.ts";
import {
  cornersSchema,
  parseCornersBody,
  parseSectionsBody,
  renameSchema,
  sectionsSchema,
} from "../../app/bundles/bundle_authoring.ts";
import { declareRoute, mount } from "../declared_route.ts";
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

/** GET and PUT of a bundle's hand-authored `kind` (corners or sections), its body parsed by `schema`. */
function authoredOperations<const S extends z.ZodType>(
  kind: "corners" | "sections",
  schema: S,
  parse: (raw: unknown) => z.output<S>,
) {
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
      parseBody: parse,
      ok: { schema: doc },
      problems: [404, 409, 413],
    }),
  };
}

const corners = authoredOperations("corners", cornersSchema, parseCornersBody);
const sections = authoredOperations("sections", sectionsSchema, parseSectionsBody);

/** The authoring operations, for the OpenAPI document. */
export const AUTHORING_OPERATIONS = [
  renameBundle,
  deleteBundle,
  corners.get,
  corners.put,
  sections.get,
  sections.put,
] as const;

/**
 * GET and PUT /api/track-bundles/{slug}/corners and /sections;
 * PATCH /api/track-bundles/{slug} {track} (rename, merging into an existing
 * bundle); DELETE /api/track-bundles/{slug}.
 */
export function bundleAuthoringRoutes(app: AppFace): Hono {
  const r = new Hono();
  mount(r, corners.get, async ({ params }, c) => c.json(await app.bundles.corners(params.slug)));
  mount(r, corners.put, async ({ params, body }, c) => {
    return c.json(await app.bundles.putCorners(params.slug, body));
  });
  mount(r, sections.get, async ({ params }, c) => c.json(await app.bundles.sections(params.slug)));
  mount(r, sections.put, async ({ params, body }, c) => {
    return c.json(await app.bundles.putSections(params.slug, body));
  });
  mount(r, renameBundle, async ({ params, body }, c) => {
    return c.json(await app.bundles.rename(params.slug, body));
  });
  mount(r, deleteBundle, async ({ params }, c) => c.json(await app.bundles.delete(params.slug)));
  return r;
}
