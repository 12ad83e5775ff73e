/**
 * GET /api/events: the application's event bus as Server-Sent Events. Each
 * bus event becomes one message whose `event:` is its type (`session`,
 * `lap`, `survey`, `bundle`, ...) and whose `data:` is the event as JSON.
 *
 * A client never slows the logger: the bus hands each client's queue its
 * message synchronously, the socket drains it at its own pace, and a client
 * whose queue overflows is disconnected. Other clients lose nothing (the
 * queues are src/server/sse_clients.ts). The clients of one HTTP app are
 * held by its {@linkcode EventStreams}, made once per HTTP app (see
 * http.ts).
 *
 * @module
 */
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";
import { appEventSchema } from "../../app/events.ts";
import type { EventBus } from "../../app/bus.ts";
import type { AppEvent } from "../../app/events.ts";
import { SSE_HEADERS, SseClients, type SseStats } from "../sse_clients.ts";

/** Messages a client may have waiting before it is dropped. */
export const DEFAULT_QUEUE_LIMIT = 256;
/** Interval of heartbeat comments, ms. */
export const DEFAULT_HEARTBEAT_MS = 15_000;

/** Options of {@linkcode EventStreams}. */
export interface EventRouteOptions {
  /** Messages a client may have waiting before it is dropped (default 256). */
  queueLimit?: number;
  /** Heartbeat interval, ms (default 15 s). */
  heartbeatMs?: number;
}

/** Counters of an HTTP app's event streams. */
export type EventStreamStats = SseStats;

/** The SSE message of `event`: its type as the event name, the event as JSON data. */
export function sseMessage(event: AppEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

const encoder = new TextEncoder();

/**
 * The event streams of one HTTP app: every client connected to its
 * GET /api/events, each with its own bounded queue fed by the bus.
 */
export class EventStreams {
  readonly #bus: EventBus;
  readonly #limit: number;
  readonly #heartbeatMs: number;
  readonly #clients = new SseClients();

  /** Streams of `bus`'s events; nothing is subscribed until a client connects. */
  constructor(bus: EventBus, opts: EventRouteOptions = {}) {
    this.#bus = bus;
    this.#limit = opts.queueLimit ?? DEFAULT_QUEUE_LIMIT;
    this.#heartbeatMs = opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  }

  /** How many clients are connected now, and how many were dropped. */
  stats(): EventStreamStats {
    return this.#clients.stats();
  }

  /**
   * Ends every stream: what is queued is still sent to a client that keeps
   * up; a client that does not is cut. Call before the server shuts down,
   * which otherwise waits for the open streams.
   */
  closeAll(): void {
    this.#clients.closeAll();
  }

  /** A new client's stream: the bus's events as SSE messages, from now on. */
  open(): ReadableStream<Uint8Array> {
    return this.#clients.open({
      name: "event stream",
      limit: this.#limit,
      heartbeatMs: this.#heartbeatMs,
      attach: (send) => this.#bus.subscribe((event) => send(encoder.encode(sseMessage(event)))),
    });
  }
}

/** GET /api/events, declared once (src/server/declared_route.ts). */
export const getEvents = declareRoute({
  method: "get",
  path: "/api/events",
  tag: "live",
  summary: "Server-Sent Events of the application",
  ok: {
    type: "text/event-stream",
    schema: appEventSchema,
    description: "each message's data is one event as JSON",
  },
});

/** GET /api/events: Server-Sent Events of the application's bus, through `streams`. */
export function eventRoutes(streams: EventStreams): RouteTable {
  const r = new RouteTable();
  r.serve(
    getEvents,
    ({ reply }) => reply.raw(new Response(streams.open(), { headers: SSE_HEADERS })),
  );
  return r;
}
