/**
 * How a browser holds a hub token: pages cannot send an `Authorization`
 * header, so a page opened once with `?token=TOKEN` has the hub check the
 * token and keep it in an HttpOnly, SameSite=Strict cookie; afterwards
 * the pages' own API reads carry the cookie. The page is served as asked
 * (the engineer's pages also read `?token=` themselves, see
 * src/web/hub_token.js). The cookie stands in for the header only on reads (GET, HEAD):
 * a write always needs the header, so no other page can make the browser
 * write in the driver's name.
 *
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { HubApp } from "../../app/hub/hub_app.ts";
import type { HubEnv } from "./hub_env.ts";
import { authorizationOf } from "./hub_live_auth.ts";

/** The cookie holding a page's token. */
export const PAGE_TOKEN_COOKIE = "hub_token";

/** How long a browser keeps the token: 30 days, then the driver opens a `?token=` link again. */
const COOKIE_MAX_AGE_S = 30 * 24 * 3600;

/**
 * The `Authorization` value a request stands for: its header (or a live
 * stream's `?token=`, see hub_live_auth.ts), else on a read the page cookie
 * as a bearer token, else null.
 */
export function requestAuthorization(c: Context<HubEnv>): string | null {
  const given = authorizationOf(c.req.raw);
  if (given !== null) return given;
  if (c.req.method !== "GET" && c.req.method !== "HEAD") return null;
  const cookie = getCookie(c, PAGE_TOKEN_COOKIE);
  return cookie === undefined ? null : `Bearer ${cookie}`;
}

/**
 * Middleware for pages: a GET with `?token=` is checked (a bad or revoked
 * token is the API's 401) and answered with the cookie set; any request
 * goes on to its route.
 */
export function pageToken(app: Pick<HubApp, "principal">): MiddlewareHandler<HubEnv> {
  return async (c, next) => {
    const url = new URL(c.req.url);
    const token = url.searchParams.get("token");
    if (c.req.method !== "GET" || token === null || url.pathname.startsWith("/api/")) {
      return await next();
    }
    await app.principal(`Bearer ${token}`);
    setCookie(c, PAGE_TOKEN_COOKIE, token, {
      httpOnly: true,
      sameSite: "Strict",
      path: "/",
      maxAge: COOKIE_MAX_AGE_S,
      secure: url.protocol === "https:",
    });
    return await next();
  };
}
