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
import {
  bundleDeletionSchema,
  cornersDocSchema,
  renameResultSchema,
  sectionsDocSchema,
} from "../openapi/bundle_schemas.ts";
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

/** GET /api/track-bundles/{slug}/corners. */
export const getCorners = declareRoute({
  method: "get",
  path: "/api/track-bundles/{slug}/corners",
  tag: "bundles",
  summary: "Hand-authored corners",
  params: slugParams,
  ok: { schema: cornersDocSchema },
  problems: [404],
});

/** PUT /api/track-bundles/{slug}/corners. */
export const putCorners = declareRoute({
  method: "put",
  path: "/api/track-bundles/{slug}/corners",
  tag: "bundles",
  summary: "Replace the corners",
  params: slugParams,
  body: { schema: cornersSchema, description: "{corners: [...]} or the bare array" },
  bodyBy: "handler",
  ok: { schema: cornersDocSchema },
  problems: [404, 409, 413],
});

/** GET /api/track-bundles/{slug}/sections. */
export const getSections = declareRoute({
  method: "get",
  path: "/api/track-bundles/{slug}/sections",
  tag: "bundles",
  summary: "Hand-authored sections",
  params: slugParams,
  ok: { schema: sectionsDocSchema },
  problems: [404],
});

/** PUT /api/track-bundles/{slug}/sections. */
export const putSections = declareRoute({
  method: "put",
  path: "/api/track-bundles/{slug}/sections",
  tag: "bundles",
  summary: "Replace the sections",
  params: slugParams,
  body: { schema: sectionsSchema, description: "{sections: [...]} or the bare array" },
  bodyBy: "handler",
  ok: { schema: sectionsDocSchema },
  problems: [404, 409, 413],
});

/** The authoring operations, for the OpenAPI document. */
export const AUTHORING_OPERATIONS = [
  renameBundle,
  deleteBundle,
  getCorners,
  putCorners,
  getSections,
  putSections,
] as const;

/**
 * GET and PUT /api/track-bundles/{slug}/corners and /sections;
 * PATCH /api/track-bundles/{slug} {track} (rename, merging into an existing
 * bundle); DELETE /api/track-bundles/{slug}.
 */
export function bundleAuthoringRoutes(app: AppFace): Hono {
  const r = new Hono();
  const body = (req: Request) => readJsonBody(req, MAX_AUTHORING_BYTES);
  mount(r, getCorners, async ({ params }, c) => c.json(await app.bundles.corners(params.slug)));
  mount(r, putCorners, async ({ params }, c) => {
    return c.json(await app.bundles.putCorners(params.slug, await body(c.req.raw)));
  });
  mount(r, getSections, async ({ params }, c) => c.json(await app.bundles.sections(params.slug)));
  mount(r, putSections, async ({ params }, c) => {
    return c.json(await app.bundles.putSections(params.slug, await body(c.req.raw)));
  });
  mount(r, renameBundle, async ({ params }, c) => {
    return c.json(await app.bundles.rename(params.slug, await body(c.req.raw)));
  });
  mount(r, deleteBundle, async ({ params }, c) => c.json(await app.bundles.delete(params.slug)));
  return r;
}
