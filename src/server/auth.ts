/**
 * Who may change things. Reads are open; a request that mutates state is
 * accepted from loopback, and from any other address only with the
 * configured bearer token. With no token configured, other addresses are
 * refused outright, so binding a public address never opens writes by accident.
 *
 * @module
 */
import { timingSafeEqual } from "node:crypto";
import { Unauthorized } from "./problem.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** True for 127.0.0.0/8, ::1 and IPv4-mapped loopback. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h) || /^::ffff:127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * Throws {@linkcode Unauthorized} unless a request with `method` and
 * `authorization` header from `remote` may proceed under `token`.
 */
export function authorize(
  method: string,
  remote: string,
  authorization: string | null,
  token: string | null,
): void {
  if (SAFE_METHODS.has(method.toUpperCase()) || isLoopback(remote)) return;
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
