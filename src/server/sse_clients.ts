/**
 * The plumbing every Server-Sent Events route shares: one bounded queue per
 * client, fed synchronously by whatever the route follows, and drained by
 * the socket at its own pace. A producer never waits for a client: a
 * client whose queue overflows is disconnected and counted, and the others
 * lose nothing. Comments (`: ping`) keep idle connections open through
 * proxies. GET /api/events (routes/events.ts) and GET /api/live
 * (routes/live.ts) each hold one {@linkcode SseClients}.
 *
 * @module
 */

/** Counters of one set of SSE clients. */
export interface SseStats {
  /** Clients connected now. */
  clients: number;
  /** Clients dropped because they fell behind. */
  dropped: number;
}

/** Sends one encoded message to a client; `stamp` orders it in console time (packet ids). */
export type SseSend = (message: Uint8Array, stamp?: number) => void;

/** How one client's stream behaves. */
export interface SseStreamOptions {
  /** Messages the client may have waiting before it is dropped. */
  limit: number;
  /** Interval of heartbeat comments while the queue is empty, ms. */
  heartbeatMs: number;
  /** Subscribes the client's feed; returns the function that unsubscribes it. */
  attach(send: SseSend): () => void;
  /**
   * Most stamps (packet ids: 60 a second of console time) between the
   * oldest stamped message waiting and a new one; beyond it the client is
   * dropped however short its queue. No limit when absent.
   */
  maxSpan?: number;
  /** What the stream is called in the error that cuts it ("event stream"). */
  name: string;
  /**
   * Watches the client some other way (its socket); `drop` disconnects and
   * counts it like an overflow. Returns the function that stops watching.
   */
  watch?: (drop: (why: string) => void) => () => void;
}

interface Client {
  /** Ends the stream: gracefully (what is queued is still sent) or at once. */
  end(graceful: boolean): void;
}

interface Queued {
  bytes: Uint8Array;
  stamp: number | null;
}

const encoder = new TextEncoder();

/** The headers of every Server-Sent Events response. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-store",
  "x-accel-buffering": "no",
};

/** Encodes one SSE message: `event:` then one `data:` line (the data holds no newline). */
export function encodeMessage(event: string, data: string): Uint8Array {
  return encoder.encode(`event: ${event}\ndata: ${data}\n\n`);
}

/** The clients of one route of one HTTP app, each with its bounded queue. */
export class SseClients {
  readonly #clients = new Set<Client>();
  #dropped = 0;

  /** How many clients are connected now, and how many were dropped. */
  stats(): SseStats {
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

  /** A new client's stream: what `opts.attach` sends, from now on. */
  open(opts: SseStreamOptions): ReadableStream<Uint8Array> {
    const clients = this.#clients;
    const { limit, heartbeatMs, name } = opts;
    const maxSpan = opts.maxSpan ?? Infinity;
    const onDrop = () => this.#dropped++;
    const queue: Queued[] = [{
      bytes: encoder.encode(": connected\nretry: 2000\n\n"),
      stamp: null,
    }];
    let wake: (() => void) | null = null;
    let closing = false;
    let finished = false;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let unsubscribe = () => {};
    let unwatch = () => {};
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    let why = "";

    const stop = () => {
      finished = true;
      unsubscribe();
      unwatch();
      clearInterval(heartbeat);
      clients.delete(client);
    };

    const client: Client = {
      end(graceful) {
        if (finished) return;
        stop();
        // A graceful end with an empty queue (or a pull waiting) closes cleanly;
        // a stuck client with data queued would hold the server open, so it is cut.
        if (graceful && (queue.length === 0 || wake !== null)) {
          closing = true;
          wake?.();
          if (wake === null) controller.close();
        } else {
          queue.length = 0;
          // Erroring the body is the one way to cut the connection from here.
          controller.error(
            new Error(
              why || `${name} cut: the server is stopping and the client is not reading`,
            ),
          );
          wake?.();
        }
      },
    };

    /** The stamp of the oldest stamped message waiting, or null. */
    const oldest = (): number | null => {
      for (const q of queue) if (q.stamp !== null) return q.stamp;
      return null;
    };

    const push: SseSend = (bytes, stamp) => {
      if (finished) return;
      const first = stamp === undefined ? null : oldest();
      if (queue.length >= limit) {
        why = `${name} client dropped: it fell ${limit} messages behind`;
      } else if (stamp !== undefined && first !== null && stamp - first > maxSpan) {
        why = `${name} client dropped: it fell ${stamp - first} packets of console time behind`;
      }
      if (why) {
        onDrop();
        client.end(false);
        return;
      }
      queue.push({ bytes, stamp: stamp ?? null });
      wake?.();
    };

    return new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
        clients.add(client);
        // Each hook is released at once when the client ended while it was being set up
        // (an attach that replays past the limit, a watch that reports at once): stop()
        // ran before the hook was known, so it could not release it.
        const detach = opts.attach(push);
        if (finished) return detach();
        unsubscribe = detach;
        const release = opts.watch?.((reason) => {
          if (finished) return;
          why = `${name} client dropped: ${reason}`;
          onDrop();
          client.end(false);
        }) ?? (() => {});
        if (finished) return release();
        unwatch = release;
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
          c.enqueue(parts.length === 1 ? parts[0].bytes : concat(parts));
        }
        if (closing) c.close();
      },
      cancel() {
        // The client went away.
        if (finished) return;
        stop();
        queue.length = 0;
        wake?.();
      },
    }, { highWaterMark: 0 });
  }
}

function concat(parts: Queued[]): Uint8Array {
  let size = 0;
  for (const p of parts) size += p.bytes.byteLength;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p.bytes, at);
    at += p.bytes.byteLength;
  }
  return out;
}
