/**
 * The HTTP API: a thin face on the application services. Routes parse, call
 * src/app and render; every error becomes problem+json.
 *
 * @module
 */
import { secureHeaders } from "hono/secure-headers";
import { cors } from "hono/cors";
import { StoreRefused } from "../core/store_refusal.ts";
import type { AppFace } from "../app/create_app.ts";
import { problemResponse } from "./problem.ts";
import { unrouted } from "./allowed_methods.ts";
import { refuseRepeatedParams } from "./params.ts";
import { homeRoutes } from "./routes/home.ts";
import { pageRoutes } from "./routes/pages.ts";
import { corsMethods, FILE_ORIGIN, FILE_ORIGIN_PATHS } from "./cors_origin.ts";
import { authorize } from "./auth.ts";
import { statusRoutes } from "./routes/status.ts";
import { hubRoutes } from "./routes/hub.ts";
import { sessionRoutes } from "./routes/sessions.ts";
import { lapRoutes } from "./routes/laps.ts";
import { analysisRoutes } from "./routes/analysis.ts";
import { bundleRoutes } from "./routes/bundles.ts";
import { schemaRoutes } from "./routes/schemas.ts";
import { compiledRoutes } from "./routes/compiled.ts";
import { trackRoutes } from "./routes/tracks.ts";
import { officialRoutes } from "./routes/official.ts";
import { eventRoutes, EventStreams } from "./routes/events.ts";
import { liveRoutes, LiveStreams } from "./routes/live.ts";
import { strategyRoutes } from "./routes/strategy.ts";
import { openApiRoutes } from "./routes/openapi.ts";
import { RouteTable } from "./route_table.ts";
import { surveyRoutes } from "./routes/survey.ts";
import { bundleAuthoringRoutes } from "./routes/bundle_authoring.ts";
import { DEFAULT_BODY_TIMEOUT_MS, startBodyClock } from "./body.ts";
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  type IdleConnections,
  limitIdleConnections,
} from "./idle_connections.ts";
import {
  limitListenerSendBuffer,
  type SendBuffer,
  WANTED_SEND_BUFFER_BYTES,
} from "./tcp_send_buffer.ts";

/** HTTP options beyond the address. */
export interface HttpOptions {
  /** Bearer token that lets non-loopback callers make changes; null refuses them. */
  token?: string | null;
  /** The one browser origin allowed cross-origin access; null or absent sends no CORS headers. */
  cors?: string | null;
  /** The event streams GET /api/events serves from; a new set, over the app's bus, by default. */
  events?: EventStreams;
  /** The live streams GET /api/live serves from; a new set, over the app's frames, by default. */
  live?: LiveStreams;
  /** Time a request body may take to arrive (see body.ts); 30 s by default. */
  bodyTimeoutMs?: number;
  /** Time a connection may stay with no request in progress (see idle_connections.ts); 30 s by default. */
  idleTimeoutMs?: number;
}

/** What Deno.serve hands Hono as its environment: the client's address and the server's port. */
type Env = { Bindings: { remoteAddr?: Deno.NetAddr; localPort?: number } };

/**
 * Builds the Hono application for `app`: a {@linkcode RouteTable} whose
 * `operations` are every route it serves, the list /api/openapi.json
 * documents.
 */
export function createHttpApp(app: AppFace, opts: HttpOptions = {}): RouteTable<Env> {
  const http = new RouteTable<Env>();
  const token = opts.token ?? null;
  // The --cors origin may change things unless it is a page opened from a file (read-only).
  const changeOrigin = opts.cors && corsMethods(opts.cors).includes("POST") ? opts.cors : null;
  const bodyTimeoutMs = opts.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  // First, so the body's clock starts as the request arrives.
  http.use("*", (c, next) => {
    if (c.req.raw.body !== null) startBodyClock(c.req.raw, bodyTimeoutMs);
    return next();
  });
  http.use("*", secureHeaders({ crossOriginResourcePolicy: "same-origin" }));
  if (opts.cors) {
    const methods = corsMethods(opts.cors);
    const allow = cors({
      origin: opts.cors,
      allowMethods: methods,
      allowHeaders: ["authorization", "content-type"],
      maxAge: 600,
    });
    // A read-only origin gets no CORS headers on a change, so its page never reads the answer;
    // and as any sandboxed page has it, it may read the live frames and the strategy, no more.
    const paths = opts.cors === FILE_ORIGIN ? FILE_ORIGIN_PATHS : ["/api/*"];
    for (const path of paths) {
      http.use(path, (c, next) => {
        const method = c.req.method === "OPTIONS" ? "GET" : c.req.method;
        return methods.includes(method) ? allow(c, next) : next();
      });
    }
  }
  http.use("*", async (c, next) => {
    // Without a socket address (in-process calls) the caller is this process.
    const remote = c.env?.remoteAddr?.hostname ?? "127.0.0.1";
    authorize(
      c.req.method,
      remote,
      c.req.header("authorization") ?? null,
      token,
      c.req.header("origin") ?? null,
      changeOrigin,
    );
    await next();
  });
  http.use("/api/*", async (c, next) => {
    await next();
    c.header("Cache-Control", "no-store");
  });
  http.use("/api/*", async (c, next) => {
    refuseRepeatedParams(c.req.url);
    refuseWhenReadOnly(c.req.method, app);
    await next();
  });
  // In the document's order: the pages, status, then the API area by area.
  http.include(homeRoutes());
  http.include(pageRoutes());
  http.include(statusRoutes(app));
  // Built on the first request, when every route below is served and listed.
  http.include(openApiRoutes(() => http.operations));
  http.include(sessionRoutes(app));
  http.include(lapRoutes(app));
  http.include(analysisRoutes(app));
  http.include(bundleRoutes(app));
  http.include(bundleAuthoringRoutes(app));
  http.include(compiledRoutes(app));
  http.include(officialRoutes(app));
  http.include(schemaRoutes());
  http.include(surveyRoutes(app));
  http.include(trackRoutes(app));
  http.include(eventRoutes(opts.events ?? new EventStreams(app.bus)));
  http.include(liveRoutes(opts.live ?? new LiveStreams(app.frames, app.bus)));
  http.include(strategyRoutes(app));
  http.include(hubRoutes(app));
  http.notFound(unrouted(() => http.routes, app.log));
  http.onError((err) => problemResponse(err, app.log));
  return http;
}

/** Throws a 503 {@linkcode StoreRefused} for a change while the store is open read-only. */
function refuseWhenReadOnly(method: string, app: AppFace): void {
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return;
  const reason = app.storeHealth.readOnlyReason;
  if (reason !== null) throw new StoreRefused(`the store is open read-only: ${reason}`, 503);
}

/** A running HTTP server. */
export interface HttpServer {
  /** The base URL, such as http://127.0.0.1:8765. */
  url: string;
  /** The bound port (useful when 0 was asked for). */
  port: number;
  /** The clients of GET /api/events. */
  events: EventStreams;
  /** The clients of GET /api/live. */
  live: LiveStreams;
  /** The send buffer every accepted connection inherits from the listener (see tcp_send_buffer.ts). */
  sendBuffer: SendBuffer;
  /** The deadlines in force: a request body's, and an idle connection's (see idle_connections.ts). */
  limits: { bodyTimeoutMs: number; idle: IdleConnections };
  /** Stops accepting and waits for open requests to finish. */
  close(): Promise<void>;
}

/** Serves the API on `hostname:port` (port 0 picks a free one). */
export function startHttp(
  app: AppFace,
  opts: { hostname: string; port: number } & HttpOptions,
): HttpServer {
  const events = opts.events ?? new EventStreams(app.bus);
  const live = opts.live ?? new LiveStreams(app.frames, app.bus);
  const http = createHttpApp(app, { ...opts, events, live });
  let idle: IdleConnections | null = null;
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve(
    { hostname: opts.hostname, port: opts.port, onListen: () => {} },
    // The server's port lets GET /api/live find a client's connection in /proc.
    async (req, info): Promise<Response> => {
      // In progress until the answer is sent; one asking to close has its connection shut then.
      const end = idle?.begin(info.remoteAddr.port);
      let close = false;
      info.completed.finally(() => end?.(close)).catch(() => {});
      const res = await http.fetch(req, {
        remoteAddr: info.remoteAddr,
        localPort: server.addr.port,
      });
      close = res.headers.get("connection")?.toLowerCase() === "close";
      return res;
    },
  );
  const addr = server.addr as Deno.NetAddr;
  idle = limitIdleConnections(addr.port, opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
  if (idle.note !== null) app.log.warn(idle.note);
  // A small fixed send buffer bounds what a stalled client holds in flight, so
  // the live stream's queue sees it fall behind within seconds, not minutes.
  const sendBuffer = limitListenerSendBuffer(addr.port, WANTED_SEND_BUFFER_BYTES);
  if (sendBuffer.send_buffer_bytes === null) {
    app.log.warn(`HTTP send buffer left to the platform: ${sendBuffer.note}`);
  }
  const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  return {
    url: `http://${host}:${addr.port}`,
    port: addr.port,
    events,
    live,
    sendBuffer,
    limits: { bodyTimeoutMs: opts.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS, idle },
    close: () => {
      // Open event streams would otherwise hold the shutdown forever.
      events.closeAll();
      live.closeAll();
      idle.stop();
      return server.shutdown();
    },
  };
}
