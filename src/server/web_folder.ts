/**
 * The pages' files, read from `src/web/` into memory: the folder is found
 * from this module's address, so the same read works from a clone, under
 * `deno task`, and inside a binary built with `deno compile --include
 * src/web` (whose files sit beside the embedded modules). Each file is read
 * once per process, the first time a route names it (when the HTTP app is
 * made, at start-up), with its media type and strong validator.
 *
 * @module
 */

/** `src/web/`, resolved beside `src/server/`. */
export const WEB_DIR: URL = new URL("../web/", import.meta.url);

/** A file of the folder as the server answers it. */
export interface WebAsset {
  /** Its `Content-Type`, with the charset for text. */
  type: string;
  /** Its text, or its bytes for a picture (a PNG icon). */
  body: string | Uint8Array<ArrayBuffer>;
  /** A strong `ETag` of `body` (quotes included). */
  etag: string;
}

/** The files read so far, by address, so each is read once per process. */
const READ = new Map<string, WebAsset>();

/**
 * `name` (a path under `dir`, such as `vendor/uplot.min.css`) with its media
 * type and ETag, read the first time it is asked for and kept. Throws an
 * error naming the file's path when it cannot be read (a missing file says
 * so, and that a compiled binary needs `--include src/web`).
 */
export function webAsset(name: string, dir: URL = WEB_DIR): WebAsset {
  const url = new URL(name, dir);
  const known = READ.get(url.href);
  if (known !== undefined) return known;
  let body: string | Uint8Array<ArrayBuffer>;
  try {
    body = isBinary(name) ? Deno.readFileSync(url) : Deno.readTextFileSync(url);
  } catch (err) {
    const why = err instanceof Deno.errors.NotFound
      ? "is missing (a compiled binary needs `--include src/web`)"
      : `cannot be read: ${err instanceof Error ? err.message : String(err)}`;
    throw new Error(`the page file ${decodeURIComponent(url.pathname)} ${why}`);
  }
  const asset = { type: mediaType(name), body, etag: etagOf(body) };
  READ.set(url.href, asset);
  return asset;
}

/** True for a file read as bytes (a PNG), false for one read as UTF-8 text. */
function isBinary(name: string): boolean {
  return name.endsWith(".png");
}

/** The `Content-Type` of a file of the folder, by its extension. */
export function mediaType(name: string): string {
  if (name.endsWith(".html")) return "text/html; charset=utf-8";
  if (name.endsWith(".css")) return "text/css; charset=utf-8";
  if (name.endsWith(".svg")) return "image/svg+xml";
  if (name.endsWith(".png")) return "image/png";
  // The type the Web App Manifest spec registers; browsers read the file whatever it is served as.
  if (name.endsWith(".webmanifest")) return "application/manifest+json";
  return "text/javascript; charset=utf-8";
}

/**
 * A strong validator of a body: FNV-1a over its UTF-16 code units (or its
 * bytes) and its length, the same tag for the same content in every process.
 */
export function etagOf(body: string | Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < body.length; i++) {
    h ^= typeof body === "string" ? body.charCodeAt(i) : body[i];
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `"${h.toString(16).padStart(8, "0")}-${body.length.toString(16)}"`;
}
