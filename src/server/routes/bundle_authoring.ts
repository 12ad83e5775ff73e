/**
 * Bundle authoring routes: corners, sections, rename and delete.
 *
 * @module
 */
import { Hono } from "hono";
import type { App } from "../../app/create_app.ts";
import { readJsonBody } from "../body.ts";

/** 100 corners with notes fit well inside this; anything larger is not a corner list. */
const MAX_AUTHORING_BYTES = 1024 * 1024;

/**
 * GET and PUT /api/track-bundles/{slug}/corners and /sections;
 * PATCH /api/track-bundles/{slug} {track} (rename, merging into an existing
 * bundle); DELETE /api/track-bundles/{slug}.
 */
export function bundleAuthoringRoutes(app: App): Hono {
  const r = new Hono();
  r.get(
    "/track-bundles/:slug/corners",
    async (c) => c.json(await app.bundles.corners(c.req.param("slug"))),
  );
  r.put("/track-bundles/:slug/corners", async (c) => {
    const body = await readJsonBody(c.req.raw, MAX_AUTHORING_BYTES);
    return c.json(await app.bundles.putCorners(c.req.param("slug"), body));
  });
  r.get(
    "/track-bundles/:slug/sections",
    async (c) => c.json(await app.bundles.sections(c.req.param("slug"))),
  );
  r.put("/track-bundles/:slug/sections", async (c) => {
    const body = await readJsonBody(c.req.raw, MAX_AUTHORING_BYTES);
    return c.json(await app.bundles.putSections(c.req.param("slug"), body));
  });
  r.patch("/track-bundles/:slug", async (c) => {
    const body = await readJsonBody(c.req.raw, MAX_AUTHORING_BYTES);
    return c.json(await app.bundles.rename(c.req.param("slug"), body));
  });
  r.delete(
    "/track-bundles/:slug",
    async (c) => c.json(await app.bundles.delete(c.req.param("slug"))),
  );
  return r;
}
