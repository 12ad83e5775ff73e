/**
 * What the hub's routes see on a request's context: the token's owner,
 * set by the auth middleware (src/server/hub/hub_http.ts) before any route
 * but the open ones runs.
 *
 * @module
 */
import type { Context } from "hono";
import type { Principal } from "../../app/hub/hub_app.ts";
import { Unauthorized } from "../problem.ts";

/** The hub's Hono environment. */
export type HubEnv = {
  Bindings: { remoteAddr?: Deno.NetAddr };
  Variables: { principal: Principal };
};

/**
 * The owner of the request's token. Throws (a 401) on a route the auth
 * middleware left open, where no one was asked for a token.
 */
export function principalIn(c: Context<HubEnv>): Principal {
  const who = c.get("principal");
  if (who === undefined) throw new Unauthorized("this request needs Authorization: Bearer TOKEN");
  return who;
}
