/**
 * GET /api/events: the application's event bus as Server-Sent Events. Each
 * bus event becomes one message whose `event:` is its type (`session`,
 * `lap`, `survey`, `bundle`, ...) and whose `data:` is the event as JSON.
 *
 * A client never slows the logger: the bus hands each client's queue its
 * message synchronously, the socket drains it at its own pace, and a client
 * whose queue overflows is disconnected. Other clients lose nothing.
 * Comments (`: ping`) keep idle connections open through proxies. The
 * clients of one HTTP app are held by its {@linkcode EventStreams}, made
 * once per HTTP app (see http.ts).
 *
 * @module
 */
import { Hono } from "hono";
import type { EventBus } from "../../app/bus.ts";
import type { AppEvent } from "../../app/events.ts";

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
export interface EventStreamStats {
  /** Clients connected now. */
  clients: number;
  /** Clients dropped because their queue overflowed. */
  dropped: number;
}

interface Client {
  /** Ends the stream: gracefully (what is queued is still sent) or at once. */
  end(graceful: boolean): void;
}

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
  readonly #clients = new Set<Client>();
  #dropped = 0;

  /** Streams of `bus`'s events; nothing is subscribed until a client connects. */
  constructor(bus: EventBus, opts: EventRouteOptions = {}) {
    this.#bus = bus;
    this.#limit = opts.queueLimit ?? DEFAULT_QUEUE_LIMIT;
    this.#heartbeatMs = opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  }

  /** How many clients are connected now, and how many were dropped. */
  stats(): EventStreamStats {
    return { clients: this.#clients.size, dropped: this.#dropped };
  }

  /**
   * Ends every stream: what is queued is still sent to a client that keeps
   * up; a client that does not is cut. Call before the server shuts down,
   * which otherwise waits for the open streams.
   */
  closeAll(): void {
    for (const client of [...this.#clients]) client.end(true);
  }

  /** A new client's stream: the bus's events as SSE messages, from now on. */
  open(): ReadableStream<Uint8Array> {
    const clients = this.#clients;
    const limit = this.#limit;
    const heartbeatMs = this.#heartbeatMs;
    const bus = this.#bus;
    const onDrop = () => this.#dropped++;
    const queue: Uint8Array[] = [encoder.encode(": connected\nretry: 2000\n\n")];
    let wake: (() => void) | null = null;
    let closing = false;
    let finished = false;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let unsubscribe = () => {};
    let heartbeat: ReturnType<typeof setInterval> | undefined;

    const client: Client = {
      end(graceful) {
        if (finished) return;
        finished = true;
        unsubscribe();
        clearInterval(heartbeat);
        clients.delete(client);
        // A graceful end with an empty queue (or a pull waiting) closes cleanly;
        // a stuck client with data queued would hold the server open, so it is cut.
        if (graceful && (queue.length === 0 || wake !== null)) {
          closing = true;
          wake?.();
          if (wake === null) controller.close();
        } else {
          // Erroring the body is the one way to cut the connection from here.
          const dropped = queue.length >= limit;
          queue.length = 0;
          controller.error(
            new Error(
              dropped
                ? `event stream client dropped: it fell ${limit} messages behind`
                : "event stream cut: the server is stopping and the client is not reading",
            ),
          );
          wake?.();
        }
      },
    };

    const push = (chunk: Uint8Array) => {
      if (finished) return;
      if (queue.length >= limit) {
        onDrop();
        client.end(false);
        return;
      }
      queue.push(chunk);
      wake?.();
    };

    return new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
        clients.add(client);
        unsubscribe = bus.subscribe((event) => push(encoder.encode(sseMessage(event))));
        heartbeat = setInterval(() => {
          // Only an idle stream needs keeping alive; a busy one proves it is open.
          if (queue.length === 0) push(encoder.encode(": ping\n\n"));
        }, heartbeatMs);
      },
      async pull(c) {
        while (queue.length === 0 && !closing && !finished) {
          await new Promise<void>((resolve) => wake = resolve);
          wake = null;
        }
        if (queue.length > 0) {
          const parts = queue.splice(0);
          c.enqueue(parts.length === 1 ? parts[0] : concat(parts));
        }
        if (closing) c.close();
      },
      cancel() {
        // The client went away.
        if (finished) return;
        finished = true;
        unsubscribe();
        clearInterval(heartbeat);
        clients.delete(client);
        queue.length = 0;
        wake?.();
      },
    }, { highWaterMark: 0 });
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  let size = 0;
  for (const p of parts) size += p.byteLength;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** GET /api/events: Server-Sent Events of the application's bus, through `streams`. */
export function eventRoutes(streams: EventStreams): Hono {
  const r = new Hono();
  r.get("/events", () =>
    new Response(streams.open(), {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
      },
    }));
  return r;
}
