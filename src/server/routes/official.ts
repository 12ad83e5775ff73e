/**
 * The official match of a bundle: the catalogue's suggestion and the
 * human's confirmation, each route declared once (src/server/declared_route.ts).
 *
 * @module
 */
import { z } from "zod";
import type { AppFace } from "../../app/create_app.ts";
import { bundleSlugSchema } from "../../app/bundles/bundle_slug.ts";
import { officialBodySchema } from "../../app/bundles/official.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";
import {
  officialConfirmationSchema,
  officialSuggestionSchema,
} from "../../app/bundles/bundle_answers.ts";

/** An official match is a few hundred bytes. */
const MAX_OFFICIAL_BYTES = 8192;

const slugParams = z.object({ slug: bundleSlugSchema });

/** GET /api/track-bundles/{slug}/official-suggestion. */
export const officialSuggestion = declareRoute({
  method: "get",
  path: "/api/track-bundles/{slug}/official-suggestion",
  tag: "bundles",
  summary: "The catalogue configuration that fits best",
  params: slugParams,
  ok: { schema: officialSuggestionSchema },
  problems: [404],
});

/** PUT /api/track-bundles/{slug}/official. */
export const confirmOfficial = declareRoute({
  method: "put",
  path: "/api/track-bundles/{slug}/official",
  tag: "bundles",
  summary: "Confirm (or clear) the official match",
  params: slugParams,
  body: { schema: officialBodySchema },
  bodyLimit: MAX_OFFICIAL_BYTES,
  bodyName: "official match",
  ok: { schema: officialConfirmationSchema },
  problems: [404, 413],
});

/** GET /api/track-bundles/{slug}/official-suggestion and PUT /api/track-bundles/{slug}/official. */
export function officialRoutes(app: AppFace): RouteTable {
  const r = new RouteTable();
  r.serve(
    officialSuggestion,
    async ({ params, reply }) => reply.json(await app.bundles.officialSuggestion(params.slug)),
  );
  r.serve(
    confirmOfficial,
    async ({ params, body, reply }) =>
      reply.json(await app.bundles.confirmOfficial(params.slug, body)),
  );
  return r;
}
