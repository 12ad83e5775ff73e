/**
 * The bearer token of a hub request: the `Authorization` header, or for
 * the race engineer's streams and the loggers' socket (GET /api/live/...)
 * a `?token=` query parameter, since a browser's EventSource and some
 * WebSocket clients cannot send a header (#40).
 *
 * @module
 */

/** The `Authorization` header of `req`, or `Bearer TOKEN` of its `?token=` on a live stream; null when neither. */
export function authorizationOf(req: Request): string | null {
  const header = req.headers.get("authorization");
  if (header !== null || req.method !== "GET") return header;
  const url = new URL(req.url);
  if (!url.pathname.startsWith("/api/live/")) return null;
  const token = url.searchParams.get("token");
  return token === null ? null : `Bearer ${token}`;
}
