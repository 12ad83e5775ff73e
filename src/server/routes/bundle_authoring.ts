/**
 * Bundle authoring routes: corners, sections, rename and delete; each
 * declared once (src/server/declared_route.ts). The bodies are parsed by
 * the authoring use case with the schemas declared here.
 *
 * @module
 */
import { Hono } from "hono";
import type { AppFace } from "../../app/create_app.ts";
import { cornersSchema, renameSchema, sectionsSchema } from "../../app/bundle_authoring.ts";
import { readJsonBody } from "../body.ts";
import { declareRoute, mount } from "../declared_route.ts";
import { bundleDeletionSchema } from "../openapi/bundle_schemas.ts";
import {
  cornersDocSchema,
  renameResultSchema,
  sectionsDocSchema,
} from "../../app/bundle_answers.ts";
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
  bodyBy: "handler",
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

/** GET and PUT of a bundle's hand-authored `kind` (corners or sections). */
function authoredOperations(kind: "corners" | "sections") {
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
      body: {
        schema: kind === "corners" ? cornersSchema : sectionsSchema,
        description: `{${kind}: [...]} or the bare array`,
      },
      bodyBy: "handler",
      ok: { schema: doc },
      problems: [404, 409, 413],
    }),
  };
}

const corners = authoredOperations("corners");
const sections = authoredOperations("sections");

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
  const body = (req: Request) => readJsonBody(req, MAX_AUTHORING_BYTES);
  mount(r, corners.get, async ({ params }, c) => c.json(await app.bundles.corners(params.slug)));
  mount(r, corners.put, async ({ params }, c) => {
    return c.json(await app.bundles.putCorners(params.slug, await body(c.req.raw)));
  });
  mount(r, sections.get, async ({ params }, c) => c.json(await app.bundles.sections(params.slug)));
  mount(r, sections.put, async ({ params }, c) => {
    return c.json(await app.bundles.putSections(params.slug, await body(c.req.raw)));
  });
  mount(r, renameBundle, async ({ params }, c) => {
    return c.json(await app.bundles.rename(params.slug, await body(c.req.raw)));
  });
  mount(r, deleteBundle, async ({ params }, c) => c.json(await app.bundles.delete(params.slug)));
  return r;
}
