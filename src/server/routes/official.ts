/**
 * The official match of a bundle: the catalogue's suggestion and the
 * human's confirmation.
 *
 * @module
 */
import { Hono } from "hono";
import type { App } from "../../app/create_app.ts";
import { readJsonBody } from "../body.ts";

/** An official match is a few hundred bytes. */
const MAX_OFFICIAL_BYTES = 8192;

/** GET /api/track-bundles/{slug}/official-suggestion and PUT /api/track-bundles/{slug}/official. */
export function officialRoutes(app: App): Hono {
  const r = new Hono();
  r.get(
    "/track-bundles/:slug/official-suggestion",
    async (c) => c.json(await app.bundles.officialSuggestion(c.req.param("slug"))),
  );
  r.put("/track-bundles/:slug/official", async (c) => {
    const body = await readJsonBody(c.req.raw, MAX_OFFICIAL_BYTES);
    return c.json(await app.bundles.confirmOfficial(c.req.param("slug"), body));
  });
  return r;
}
