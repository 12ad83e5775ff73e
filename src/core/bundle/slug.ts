/**
 * Circuit names to storage slugs (REFERENCE.md 1.4).
 *
 * @module
 */

/**
 * The slug of a circuit name: lowercased, every run of characters outside
 * `[a-z0-9]` replaced by one `-`, no leading or trailing `-`, and `unnamed`
 * when nothing is left. Always matches `^[a-z0-9]+(-[a-z0-9]+)*$`.
 */
export function slugify(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return slug === "" ? "unnamed" : slug;
}

/** True when `slug` is already canonical, that is, `slugify(slug) === slug`. */
export function isCanonicalSlug(slug: string): boolean {
  return slugify(slug) === slug;
}
