/**
 * The one check of a bundle slug taken from a request path, shared by every
 * use case that looks a bundle up.
 *
 * @module
 */
import { BadRequest } from "../core/errors.ts";
import { isBundleSlug, MAX_SLUG_CHARS } from "../core/bundle/slug.ts";

/**
 * `slug` itself when it could name a stored bundle.
 *
 * @throws {BadRequest} "invalid bundle name" at `path.slug` for a slug that
 *   is not canonical or is longer than any circuit name gives.
 */
export function bundleSlug(slug: string): string {
  if (!isBundleSlug(slug)) {
    throw new BadRequest("invalid bundle name", [{
      path: "path.slug",
      message:
        `must be a slug of at most ${MAX_SLUG_CHARS} characters: lowercase letters and digits joined by single hyphens`,
    }]);
  }
  return slug;
}
