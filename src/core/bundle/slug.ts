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

/**
 * The circuit a track name names: its slug, the key its laps, bests and
 * bundle share; null for an unnamed session (""), which names no circuit
 * (never the slug `unnamed`, which a circuit could be called).
 */
export function circuitOf(trackName: string): string | null {
  return trackName === "" ? null : slugify(trackName);
}

/** True when `slug` is already canonical, that is, `slugify(slug) === slug`. */
export function isCanonicalSlug(slug: string): boolean {
  return slugify(slug) === slug;
}

/**
 * Longest slug a circuit name can have: a name is at most 80 code points,
 * and lowercasing turns one code point into at most two characters (`İ`
 * becomes `i` and a combining dot, which slugifies to `-`). Longer slugs
 * name nothing, and KV refuses keys that long, so they are refused early.
 */
export const MAX_SLUG_CHARS = 160;

/** True when `slug` could name a stored bundle: canonical and at most {@linkcode MAX_SLUG_CHARS} long. */
export function isBundleSlug(slug: string): boolean {
  return slug.length <= MAX_SLUG_CHARS && isCanonicalSlug(slug);
}
