/**
 * The race engineer over HTTP (#40): the loggers' WebSocket
 * (GET /api/live/socket, driver tokens only), who is on track
 * (GET /api/live), one driver's frames as Server-Sent Events
 * (GET /api/live/{driver}; `?token=` for an EventSource, which cannot send
 * a header) and messages to a driver (POST /api/messages). Streams and
 * sockets end when the hub stops (src/app/hub/live_hub.ts `stop`).
 *
 * An engineer's stream never slows the hub nor the others: each has its
 * own queue (src/server/sse_clients.ts) of at most
 * {@linkcode ENGINEER_BACKLOG} frames, and a client that falls further
 * behind is disconnected (its EventSource reconnects to the newest).
 *
 * @module
 */
import { z } from "zod";
import { driverNameSchema } from "../../app/hub/hub_drivers.ts";
import type { HubApp } from "../../app/hub/hub_app.ts";
import { HubDenied } from "../../app/hub/hub_errors.ts";
import { type FramePayload, liveHubOf } from "../../app/hub/live_hub.ts";
import { messageBodySchema, messageSchema, onTrackSchema } from "../../app/hub/live_rules.ts";
import { BadRequest, NotFound } from "../../core/errors.ts";
import { declareRoute } from "../declared_route.ts";
import { DEFAULT_HEARTBEAT_MS } from "../routes/events.ts";
import { RouteTable } from "../route_table.ts";
import { encodeMessage, SSE_HEADERS, SseClients } from "../sse_clients.ts";
import { type HubEnv, principalIn } from "./hub_env.ts";
import { openLinkSocket } from "./hub_live_socket.ts";

/** Frames an engineer's stream may have waiting (5 s at 10 Hz) before it is dropped. */
export const ENGINEER_BACKLOG = 50;
/** Largest message body, bytes. */
const MESSAGE_BODY_BYTES = 4096;

const tokenQuery = z.object({
  token: z.string().optional().meta({
    description: "the bearer token, for clients that cannot send a header (EventSource)",
  }),
});

/** GET /api/live/socket. */
export const liveSocketRoute = declareRoute({
  method: "get",
  path: "/api/live/socket",
  tag: "engineer",
  summary: "A logger's WebSocket: hello and frames in, messages to the driver out (driver tokens)",
  query: tokenQuery,
  ok: {
    status: 101,
    type: "application/json",
    description: "switches to a WebSocket of JSON text messages (docs/hub.md)",
  },
  problems: [401, 403],
});

/** GET /api/live. */
export const onTrackRoute = declareRoute({
  method: "get",
  path: "/api/live",
  tag: "engineer",
  summary: "The drivers on track now (a frame in the last 10 s)",
  ok: { schema: z.strictObject({ drivers: z.array(onTrackSchema) }) },
  problems: [401],
});

/** The data of each `frame` event of GET /api/live/{driver}. */
export const engineerFrameSchema = z.strictObject({
  driver: z.string(),
  received_at: z.string(),
  frame: z.record(z.string(), z.unknown()).meta({ description: "the logger's LiveFrame" }),
}).meta({ id: "EngineerFrame" });

/** GET /api/live/{driver}. */
export const driverStreamRoute = declareRoute({
  method: "get",
  path: "/api/live/{driver}",
  tag: "engineer",
  summary: "A driver's live frames as Server-Sent Events",
  params: z.object({ driver: driverNameSchema }),
  query: tokenQuery,
  ok: {
    type: "text/event-stream",
    schema: engineerFrameSchema,
    description: "`frame` events, each {driver, received_at, frame} as JSON",
  },
  problems: [401, 404],
});

/** POST /api/messages. */
export const sendMessageRoute = declareRoute({
  method: "post",
  path: "/api/messages",
  tag: "engineer",
  summary: "A message to a driver's logger (any team token)",
  body: { schema: messageBodySchema },
  bodyLimit: MESSAGE_BODY_BYTES,
  ok: { status: 201, schema: messageSchema },
  problems: [401, 404, 413],
});

/** The race engineer's routes over `app`'s fan-out. */
export function hubLiveRoutes(app: HubApp): RouteTable<HubEnv> {
  const hub = liveHubOf(app);
  const ready = hub.start();
  const streams = new SseClients();
  const sockets = new Set<WebSocket>();
  hub.onStop(() => {
    streams.closeAll();
    for (const s of sockets) s.close(1001, "the hub is stopping");
  });
  const encoded = new WeakMap<FramePayload, Uint8Array>();
  const bytesOf = (p: FramePayload) => {
    let b = encoded.get(p);
    if (b === undefined) encoded.set(p, b = encodeMessage("frame", p.text));
    return b;
  };
  const r = new RouteTable<HubEnv>();
  r.serve(liveSocketRoute, ({ reply }, c) => {
    const who = principalIn(c);
    if (who.admin) {
      throw new HubDenied("only a driver's token streams live frames; admin drives not", 403);
    }
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
      throw new BadRequest("GET /api/live/socket takes a WebSocket (Upgrade: websocket)");
    }
    const { socket, response } = Deno.upgradeWebSocket(c.req.raw);
    openLinkSocket(hub, who.name, socket, sockets);
    return reply.raw(response);
  });
  r.serve(onTrackRoute, async ({ reply }) => reply.json({ drivers: await hub.onTrack() }));
  r.serve(driverStreamRoute, async ({ params, reply }) => {
    if (!(await hub.knows(params.driver))) {
      throw new NotFound(`no driver ${params.driver} in this team`);
    }
    await ready;
    const body = streams.open({
      name: "engineer stream",
      limit: ENGINEER_BACKLOG,
      heartbeatMs: DEFAULT_HEARTBEAT_MS,
      attach: (send) => hub.follow(params.driver, (p) => send(bytesOf(p))),
    });
    return reply.raw(new Response(body, { headers: SSE_HEADERS }));
  });
  r.serve(
    sendMessageRoute,
    async ({ body, reply }, c) => reply.json(await hub.send(principalIn(c), body)),
  );
  return r;
}
