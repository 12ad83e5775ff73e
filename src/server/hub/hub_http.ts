/**
 * The hub's HTTP face: its own route table (the logger's declared-route
 * machinery, so its OpenAPI document is made from what it serves), a
 * bearer token on every API route but GET /api/health, body limits
 * enforced while streaming (413), problem+json for every error. It keeps
 * nothing between requests: every request asks the database.
 *
 * @module
 */
import { secureHeaders } from "hono/secure-headers";
import type { Log } from "../../app/log.ts";
import type { HubApp } from "../../app/hub/hub_app.ts";
import { HubDenied } from "../../app/hub/hub_errors.ts";
import { unrouted } from "../allowed_methods.ts";
import { DEFAULT_BODY_TIMEOUT_MS, startBodyClock } from "../body.ts";
import { refuseRepeatedParams } from "../params.ts";
import { problemResponse, Unauthorized } from "../problem.ts";
import { RouteTable } from "../route_table.ts";
import type { HubEnv } from "./hub_env.ts";
import { hubRouteGroups } from "./hub_route_groups.ts";
import { hubHealth, hubStatusRoutes } from "./hub_status_routes.ts";
import { pageToken, requestAuthorization } from "./page_token.ts";
import { liveHubOf } from "../../app/hub/live_hub.ts";

/** The hub's refusal of who asks, as the HTTP face's own error (same status, same words). */
function httpError(err: unknown): unknown {
  return err instanceof HubDenied ? new Unauthorized(err.message, err.status) : err;
}

/**
 * The hub's Hono application over `app`; server failures go to `log`.
 * API routes (`/api/*`) but GET /api/health need a valid token (the
 * header, or on reads a page's cookie: see page_token.ts); other paths (the
 * OpenAPI document, pages) carry no team data and are open.
 */
export function createHubHttp(app: HubApp, log: Pick<Log, "error">): RouteTable<HubEnv> {
  const http = new RouteTable<HubEnv>();
  http.use("*", (c, next) => {
    if (c.req.raw.body !== null) startBodyClock(c.req.raw, DEFAULT_BODY_TIMEOUT_MS);
    return next();
  });
  http.use("*", secureHeaders({ crossOriginResourcePolicy: "same-origin" }));
  http.use("*", pageToken(app));
  http.use("/api/*", async (c, next) => {
    refuseRepeatedParams(c.req.url);
    if (!(c.req.path === hubHealth.path && c.req.method === "GET")) {
      c.set("principal", await app.principal(requestAuthorization(c)));
    }
    await next();
    c.header("Cache-Control", "no-store");
  });
  http.include(hubStatusRoutes(() => http.operations));
  for (const group of hubRouteGroups(app)) http.include(group);
  http.notFound(unrouted(() => http.routes, log));
  http.onError((err) => problemResponse(httpError(err), log));
  return http;
}

/** A running hub server. */
export interface HubServer {
  /** The base URL, such as http://127.0.0.1:8780. */
  url: string;
  /** The bound port (useful when 0 was asked for). */
  port: number;
  /** Stops accepting and waits for open requests to finish. */
  close(): Promise<void>;
}

/** Serves the hub on `hostname:port` (port 0 picks a free one). */
export function startHubHttp(
  app: HubApp,
  opts: { hostname: string; port: number; log: Pick<Log, "error"> },
): HubServer {
  const http = createHubHttp(app, opts.log);
  const server = Deno.serve(
    { hostname: opts.hostname, port: opts.port, onListen: () => {} },
    (req, info) => http.fetch(req, { remoteAddr: info.remoteAddr }),
  );
  const addr = server.addr;
  const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  return {
    url: `http://${host}:${addr.port}`,
    port: addr.port,
    // Live streams and sockets never end by themselves: they are ended before the server waits.
    close: () => liveHubOf(app).stop().then(() => server.shutdown()),
  };
}
