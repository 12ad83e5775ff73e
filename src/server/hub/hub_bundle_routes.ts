/**
 * The team's track bundles over HTTP: POST /api/bundles/{slug}/votes (a
 * bundle file whose votes are merged), GET /api/bundles, GET
 * /api/bundles/{slug} (the merged bundle file) and its compiled geometry.
 *
 * @module
 */
import { z } from "zod";
import type { HubApp } from "../../app/hub/hub_app.ts";
import { hubBundleItemSchema, votesMergedSchema } from "../../app/hub/hub_bundles.ts";
import { bundleSlugSchema } from "../../app/bundles/bundle_slug.ts";
import { bundleV4Schema } from "../../core/bundle/schema.ts";
import { compiledTrackSchema } from "../../core/geometry/schema.ts";
import { emptyImport, MAX_IMPORT_BYTES, readBody } from "../body.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";
import type { HubEnv } from "./hub_env.ts";

const slugParams = z.object({ slug: bundleSlugSchema });

/** POST /api/bundles/{slug}/votes. */
export const mergeVotesRoute = declareRoute({
  method: "post",
  path: "/api/bundles/{slug}/votes",
  tag: "bundles",
  summary: "Merge a bundle file's votes into the team bundle",
  params: slugParams,
  body: { schema: bundleV4Schema, description: "a track bundle file, at most 64 MiB" },
  bodyBy: "handler",
  ok: { schema: votesMergedSchema },
  problems: [401, 413],
});

/** GET /api/bundles. */
export const listBundlesRoute = declareRoute({
  method: "get",
  path: "/api/bundles",
  tag: "bundles",
  summary: "The team's bundles",
  ok: { schema: z.strictObject({ bundles: z.array(hubBundleItemSchema) }) },
  problems: [401],
});

/** GET /api/bundles/{slug}. */
export const getBundleRoute = declareRoute({
  method: "get",
  path: "/api/bundles/{slug}",
  tag: "bundles",
  summary: "The team bundle, as a bundle file the logger imports",
  params: slugParams,
  ok: { schema: bundleV4Schema },
  problems: [401, 404],
});

/** GET /api/bundles/{slug}/compiled. */
export const compiledRoute = declareRoute({
  method: "get",
  path: "/api/bundles/{slug}/compiled",
  tag: "bundles",
  summary: "The team bundle's compiled geometry",
  params: slugParams,
  ok: { schema: compiledTrackSchema },
  problems: [401, 404],
});

/** The bundle routes over `app`. */
export function hubBundleRoutes(app: HubApp): RouteTable<HubEnv> {
  const r = new RouteTable<HubEnv>();
  r.serve(mergeVotesRoute, async ({ params, reply }, c) => {
    const bytes = await readBody(c.req.raw, MAX_IMPORT_BYTES, emptyImport("a track bundle (JSON)"));
    return reply.json(await app.mergeVotes(params.slug, bytes));
  });
  r.serve(listBundlesRoute, async ({ reply }) => reply.json({ bundles: await app.bundles() }));
  r.serve(getBundleRoute, async ({ params, reply }) => reply.json(await app.bundle(params.slug)));
  r.serve(compiledRoute, async ({ params, reply }) => reply.json(await app.compiled(params.slug)));
  return r;
}
