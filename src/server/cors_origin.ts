/**
 * The `--cors` flag's value: exactly one browser origin.
 *
 * @module
 */

/**
 * `value` when it is a serialised http(s) origin (scheme, host and an
 * optional port; no path, query, credentials or trailing slash), else null.
 * Wildcards are refused: the API may change a driver's data.
 */
export function canonicalOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return url.origin === value ? value : null;
}
