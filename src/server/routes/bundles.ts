/**
 * Track bundle routes: list, read, import; each declared once
 * (src/server/declared_route.ts).
 *
 * @module
 */
import { z } from "zod";
import type { AppFace } from "../../app/create_app.ts";
import { bundleSlugSchema } from "../../app/bundles/bundle_slug.ts";
import { bundleLegacySchema, bundleV1Schema, bundleV4Schema } from "../../core/bundle/schema.ts";
import { emptyImport, MAX_IMPORT_BYTES, readBody } from "../body.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";
import { trackParamSchema } from "../query_params.ts";
import { TRACK_NAME_RULE } from "../../core/track_name.ts";
import {
  bundleImportResultSchema,
  bundleListItemSchema,
} from "../../app/bundles/bundle_answers.ts";

/** Options of {@linkcode bundleRoutes}. */
export interface BundleRouteOptions {
  /** Largest import body in bytes (default 64 MiB); tests lower it. */
  maxImportBytes?: number;
}

/** `{slug}` of every bundle path. */
export const slugParams = z.object({ slug: bundleSlugSchema });

/** A bundle of any version an import reads (validateBundle picks by `version`). */
const anyBundle = z.union([bundleV4Schema, bundleLegacySchema, bundleV1Schema]);

/**
 * The header of a bundle listing that left bundles out: their slugs,
 * comma-separated, each percent-encoded (a damaged key may hold anything).
 */
export const UNREADABLE_HEADER = "X-Unreadable-Bundles";

/** GET /api/track-bundles. */
export const listBundles = declareRoute({
  method: "get",
  path: "/api/track-bundles",
  tag: "bundles",
  summary: "Every stored bundle",
  ok: {
    schema: z.array(bundleListItemSchema),
    headers: {
      [UNREADABLE_HEADER]: "present when stored bundles were left out because they cannot be " +
        "read: their slugs, comma-separated, percent-encoded; GET each for why (a 500 problem " +
        "naming it), the logger's log says it too",
    },
  },
});

/** GET /api/track-bundles/{slug}. */
export const getBundle = declareRoute({
  method: "get",
  path: "/api/track-bundles/{slug}",
  tag: "bundles",
  summary: "The bundle as a version 4 document",
  params: slugParams,
  ok: { schema: bundleV4Schema },
  problems: [404, 500],
});

/**
 * POST /api/track-bundles/import: the bytes go to the use case, which reads
 * a bundle from them by the bundle rules (the schemas the document shows).
 */
export const importBundle = declareRoute({
  method: "post",
  path: "/api/track-bundles/import",
  tag: "bundles",
  summary: "Import a bundle of version 1 to 4",
  query: z.object({
    track: trackParamSchema.optional().meta({
      description: `a name replacing meta.track: ${TRACK_NAME_RULE}; refused, never cut`,
    }),
  }),
  body: { schema: anyBundle, description: "a bundle, at most 64 MiB" },
  bodyBy: "handler",
  ok: { schema: bundleImportResultSchema },
  problems: [409, 413],
});

/**
 * GET /api/track-bundles, GET /api/track-bundles/{slug} and
 * POST /api/track-bundles/import (optional `?track=` override).
 */
export function bundleRoutes(app: AppFace, opts: BundleRouteOptions = {}): RouteTable {
  const limit = opts.maxImportBytes ?? MAX_IMPORT_BYTES;
  const r = new RouteTable();
  r.serve(listBundles, async ({ reply }, c) => {
    const { bundles, unreadable } = await app.bundles.listing();
    if (unreadable.length) {
      c.header(UNREADABLE_HEADER, unreadable.map((u) => encodeURIComponent(u.slug)).join(","));
    }
    return reply.json(bundles);
  });
  r.serve(
    getBundle,
    async ({ params, reply }) => reply.json(await app.bundles.export(params.slug)),
  );
  r.serve(importBundle, async ({ query, reply }, c) => {
    // The bytes go straight to the service, which reads a bundle from them without
    // building an object per edge (and parses them as JSON only when it has to).
    const bytes = await readBody(c.req.raw, limit, emptyImport("a track bundle (JSON)"));
    return reply.json(await app.bundles.importBytes(bytes, { track: query.track }));
  });
  return r;
}
