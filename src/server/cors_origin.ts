/**
 * The `--cors` flag's value: exactly one browser origin, or `null` for a
 * page opened from a file.
 *
 * @module
 */

/**
 * The origin of a page opened from a file (and of any sandboxed page). Allowed
 * only to read, and only {@linkcode FILE_ORIGIN_PATHS}: {@linkcode corsMethods}
 * gives it GET and HEAD, never a change.
 */
export const FILE_ORIGIN = "null";

/** The only routes {@linkcode FILE_ORIGIN} may read: live frames and the race strategy. */
export const FILE_ORIGIN_PATHS: readonly string[] = ["/api/live", "/api/strategy"];

/** The methods a browser page of `origin` may use across origins. */
export function corsMethods(origin: string): string[] {
  return origin === FILE_ORIGIN
    ? ["GET", "HEAD"]
    : ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];
}

/**
 * `value` when it is a serialised http(s) origin (scheme, host and an
 * optional port; no path, query, credentials or trailing slash) or
 * {@linkcode FILE_ORIGIN}, else null. Wildcards are refused: the API may
 * change a driver's data.
 */
export function canonicalOrigin(value: string): string | null {
  if (value === FILE_ORIGIN) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return url.origin === value ? value : null;
}
