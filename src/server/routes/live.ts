/**
 * GET /api/live?hz=N: the live frames as Server-Sent Events. `hz` is a
 * whole number from 1 to 60 (default 10): `frame` events come thinned
 * evenly to that many per second of console time (see
 * src/app/live/live_frames.ts), with the bus's `lap` and `session` events in
 * between, in the order they happened. `speak=1` makes the stream claim
 * the voice of the live page's spoken cues (src/server/speaker_claims.ts).
 *
 * A client never slows the logger or the other clients: each has a queue
 * of its own (src/server/sse_clients.ts) that holds at most
 * {@linkcode LIVE_BACKLOG_S} seconds of frames, by count (that many
 * seconds at its rate, plus room for lap and session events) and by
 * console time (packet ids). A client that falls further behind than that
 * is disconnected and counted. What the operating system buffers on the
 * socket comes before this queue and is not counted in it; so a client
 * whose connection the kernel has zero-window probed for a second (it
 * stopped reading, src/server/stalled_peers.ts) is dropped the same way.
 *
 * @module
 */
import { z } from "zod";
import type { EventBus } from "../../app/bus.ts";
import type { AppEvent } from "../../app/events.ts";
import type { LiveFrame, LiveFrameSource } from "../../app/live/live_frame.ts";
import { checkFrameRate, DEFAULT_HZ, MAX_HZ, MIN_HZ } from "../../app/live/frame_rate.ts";
import { intParamSchema } from "../query_params.ts";
import { encodeMessage, SSE_HEADERS, SseClients, type SseStats } from "../sse_clients.ts";
import { type Peer, StalledPeers } from "../stalled_peers.ts";
import { SpeakerClaims } from "../speaker_claims.ts";
import { DEFAULT_HEARTBEAT_MS } from "./events.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";
import { liveFrameSchema } from "../../app/live/live_frame.ts";

/** Seconds of console time a client may fall behind before it is dropped. */
export const LIVE_BACKLOG_S = 5;
/** Lap and session events a queue holds room for beyond its frames. */
const EVENT_ROOM = 16;
/** Packets the console sends in a second. */
const PACKETS_PER_SECOND = 60;

/** Options of {@linkcode LiveStreams}. */
export interface LiveRouteOptions {
  /** Heartbeat interval while no frame flows, ms (default 15 s). */
  heartbeatMs?: number;
  /** What watches clients' connections for a stop in reading (a new one by default). */
  stalled?: StalledPeers;
}

/**
 * The live streams of one HTTP app: every client of its GET /api/live.
 * Each frame and each event is encoded once, however many clients get it.
 */
export class LiveStreams {
  readonly #frames: LiveFrameSource;
  readonly #bus: EventBus;
  readonly #heartbeatMs: number;
  readonly #clients = new SseClients();
  readonly #stalled: StalledPeers;
  /** Which of the streams that asked for the voice (`speak=1`) speaks the cues. */
  readonly speakers = new SpeakerClaims();
  #lastFrame: LiveFrame | null = null;
  #frameBytes: Uint8Array = new Uint8Array();
  #lastEvent: AppEvent | null = null;
  #eventBytes: Uint8Array = new Uint8Array();

  /** Streams of `frames`, with `bus`'s lap and session events; nothing runs until a client connects. */
  constructor(frames: LiveFrameSource, bus: EventBus, opts: LiveRouteOptions = {}) {
    this.#frames = frames;
    this.#bus = bus;
    this.#heartbeatMs = opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    this.#stalled = opts.stalled ?? new StalledPeers();
  }

  /** How many clients are connected now, and how many were dropped. */
  stats(): SseStats {
    return this.#clients.stats();
  }

  /** Ends every stream (see {@linkcode SseClients.closeAll}); call before the server shuts down. */
  closeAll(): void {
    this.#clients.closeAll();
  }

  /**
   * A new client's stream of frames at `hz` (1 to 60) and lap and session
   * events, from now on; when `peer` (its connection) is given, the client
   * is also dropped once it stops reading. With `speak`, the stream claims
   * the voice ({@linkcode SpeakerClaims}) while it lasts and gets `speaker`
   * events (`{"speaking": true|false}`) as it gains or loses it. Throws
   * BadRequest on path `hz` for a bad rate.
   */
  open(hz: number, peer?: Peer, speak = false): ReadableStream<Uint8Array> {
    // Checked before the response starts, so a bad rate is a 400, not a broken stream.
    checkFrameRate(hz);
    return this.#clients.open({
      name: "live stream",
      limit: LIVE_BACKLOG_S * hz + EVENT_ROOM,
      maxSpan: LIVE_BACKLOG_S * PACKETS_PER_SECOND,
      heartbeatMs: this.#heartbeatMs,
      watch: peer &&
        ((drop) =>
          this.#stalled.watch(peer, () => drop("it stopped reading (zero-window probed for 1 s)"))),
      attach: (send) => {
        const offFrames = this.#frames.subscribe(
          hz,
          (f) => send(this.#encodeFrame(f), f.packet_id),
        );
        const offBus = this.#bus.subscribe((e) => {
          if (e.type === "lap" || e.type === "session") send(this.#encodeEvent(e));
        });
        const release = speak
          ? this.speakers.claim((speaking) =>
            send(encodeMessage("speaker", JSON.stringify({ speaking })))
          )
          : null;
        return () => {
          offFrames();
          offBus();
          release?.();
        };
      },
    });
  }

  #encodeFrame(frame: LiveFrame): Uint8Array {
    if (frame !== this.#lastFrame) {
      this.#lastFrame = frame;
      this.#frameBytes = encodeMessage("frame", JSON.stringify(frame));
    }
    return this.#frameBytes;
  }

  #encodeEvent(event: AppEvent): Uint8Array {
    if (event !== this.#lastEvent) {
      this.#lastEvent = event;
      this.#eventBytes = encodeMessage(event.type, JSON.stringify(event));
    }
    return this.#eventBytes;
  }
}

/** What Deno.serve hands Hono: the client's address and the server's port. */
type LiveEnv = { Bindings: { remoteAddr?: Deno.NetAddr; localPort?: number } };

/** GET /api/live: its query, stream and event data, declared once (src/server/declared_route.ts). */
export const getLive = declareRoute({
  method: "get",
  path: "/api/live",
  tag: "live",
  summary: "Live frames as Server-Sent Events",
  query: z.object({
    hz: intParamSchema(MIN_HZ, MAX_HZ).prefault(String(DEFAULT_HZ)),
    speak: intParamSchema(0, 1).prefault("0").meta({
      description: "1: this stream claims the voice of the spoken cues (newest claim speaks)",
    }),
  }),
  ok: {
    type: "text/event-stream",
    schema: liveFrameSchema,
    description:
      "`frame` events, each a LiveFrame as JSON; `lap` and `session` events interleave; with speak=1, `speaker` events ({speaking})",
  },
});

/** GET /api/live?hz=N: the live frames as Server-Sent Events, through `streams`. */
export function liveRoutes(streams: LiveStreams): RouteTable<LiveEnv> {
  const r = new RouteTable<LiveEnv>();
  r.serve(getLive, ({ query, reply }, c) => {
    const remote = c.env?.remoteAddr;
    const localPort = c.env?.localPort;
    const peer = remote?.transport === "tcp" && localPort !== undefined
      ? { localPort, hostname: remote.hostname, port: remote.port }
      : undefined;
    return reply.raw(
      new Response(streams.open(query.hz, peer, query.speak === 1), { headers: SSE_HEADERS }),
    );
  });
  return r;
}
