/**
 * The one check of a bundle slug taken from a request path, shared by every
 * use case that looks a bundle up.
 *
 * @module
 */
import { z } from "zod";
import { BadRequest } from "../../core/errors.ts";
import { isBundleSlug, MAX_SLUG_CHARS } from "../../core/bundle/slug.ts";

const SLUG_RULE =
  `must be a slug of at most ${MAX_SLUG_CHARS} characters: lowercase letters and digits joined by single hyphens`;

/** A bundle slug in a path: validates every `{slug}` and is published in the OpenAPI document. */
export const bundleSlugSchema = z.string({ error: SLUG_RULE }).max(MAX_SLUG_CHARS, SLUG_RULE)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, SLUG_RULE)
  .refine(isBundleSlug, SLUG_RULE)
  // The title is the detail of a refusal (src/server/declared_route.ts), as bundleSlug() gives.
  .meta({ title: "invalid bundle name", description: SLUG_RULE });

/**
 * `slug` itself when it could name a stored bundle.
 *
 * @throws {BadRequest} "invalid bundle name" at `path.slug` for a slug that
 *   is not canonical or is longer than any circuit name gives.
 */
export function bundleSlug(slug: string): string {
  if (!bundleSlugSchema.safeParse(slug).success) {
    throw new BadRequest("invalid bundle name", [{ path: "path.slug", message: SLUG_RULE }]);
  }
  return slug;
}
