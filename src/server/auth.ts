/**
 * Who may change things. Reads are open; a request that mutates state is
 * accepted from loopback, and from any other address only with the
 * configured bearer token. With no token configured, other addresses are
 * refused outright, so binding a public address never opens writes by accident.
 *
 * A change sent by a web page is refused unless the page's origin is the
 * one `--cors` lets change things. Any site the driver visits can make the
 * browser send a POST to the logger on loopback (a form, or `fetch` with a
 * plain-text body, needs no preflight); CORS only hides the answer, so
 * without this check such a page could import, rename or delete the
 * driver's data. Browsers mark such requests with an `Origin` header;
 * other clients (curl, scripts, the dashboard) send none and are unaffected.
 *
 * @module
 */
import { timingSafeEqual } from "node:crypto";
import { isLoopback } from "../core/loopback.ts";
import { Unauthorized } from "./problem.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Throws {@linkcode Unauthorized} unless a request with `method`, the
 * `authorization` and `origin` headers (null when absent) from `remote` may
 * proceed under `token`, where `changeOrigin` is the one browser origin
 * allowed to change things (null: none).
 */
export function authorize(
  method: string,
  remote: string,
  authorization: string | null,
  token: string | null,
  origin: string | null = null,
  changeOrigin: string | null = null,
): void {
  if (SAFE_METHODS.has(method.toUpperCase())) return;
  if (origin !== null && origin !== changeOrigin) {
    throw new Unauthorized(
      `a change sent by a web page of origin ${origin} is refused; only the origin --cors names ` +
        "may change things (and --cors null only reads)",
      403,
    );
  }
  if (isLoopback(remote)) return;
  if (token === null) {
    throw new Unauthorized(
      "changes are accepted only from this machine; start the logger with --token to allow others",
      403,
    );
  }
  const match = /^Bearer (.+)$/.exec(authorization ?? "");
  if (!match) throw new Unauthorized("this request needs Authorization: Bearer <token>", 401);
  const given = new TextEncoder().encode(match[1]);
  const wanted = new TextEncoder().encode(token);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    throw new Unauthorized("the bearer token is not valid", 403);
  }
}
