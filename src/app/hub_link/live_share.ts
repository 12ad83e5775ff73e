/**
 * `--share-live` (issue #40): this logger's live frames (the very objects
 * `GET /api/live` streams) go to the team hub over one WebSocket at most
 * {@linkcode SHARE_HZ} a second, and the hub's messages to the driver come
 * back on it.
 *
 * It follows the frames as the HTTP stream does (a subscription called in
 * the frame tap, which only keeps a reference and maybe hands a string to
 * the socket), so recording never waits for it. The latest frame wins:
 * between two sends only the newest is kept, and a frame meeting a socket
 * whose `bufferedAmount` is over the bound (the link is slow or the hub
 * stalled) or no socket at all is dropped and counted, never queued, so
 * memory stays bounded whatever the link does. After any close or error
 * it connects again with the live back-off (src/core/hub/hub_backoff.ts),
 * forever, and says hello with the last message id taken so the hub sends
 * only newer messages.
 *
 * @module
 */
import { liveBackoffMs } from "../../core/hub/hub_backoff.ts";
import type { HubSettings } from "../../core/hub/hub_settings.ts";
import { parseHubMessage } from "../../core/hub/live_message.ts";
import type { AppDeps } from "../deps.ts";
import type { LiveFrame, LiveFrameSource } from "../live/live_frame.ts";
import type { HubMessages } from "./hub_messages.ts";
import { type HubTimers, realTimers } from "./hub_sender.ts";

/** Most frames a second sent to the hub (the contract's rate). */
export const SHARE_HZ = 10;
/** Frames a second taken from the live frames: twice the send rate, so a replay at 1x still fills every slot. */
const SOURCE_HZ = 2 * SHARE_HZ;
/** Bytes the socket may hold unsent before frames are dropped: a few frames, about half a second. */
export const MAX_BUFFERED_BYTES = 16 * 1024;

/** Longest wait for the hub to answer the socket's close at shutdown, ms. */
const CLOSE_WAIT_MS = 1_000;

/** The live link's part of GET /api/status's `hub`. */
export interface LiveShareStatus {
  connected: boolean;
  frames_sent: number;
  frames_dropped: number;
}

/** Options of {@linkcode LiveShare}: the back-off's clock and the buffer bound, faked or tightened in tests. */
export interface LiveShareOptions {
  timers?: HubTimers;
  maxBufferedBytes?: number;
}

/** The socket URL of the hub at `url`: ws(s)://host/api/live/socket. */
export function liveSocketUrl(url: string): string {
  return url.replace(/^http/, "ws") + "/api/live/socket";
}

/** This logger's live frames going to the hub, and the hub's messages coming back. */
export class LiveShare {
  readonly #log: AppDeps["log"];
  readonly #frames: Pick<LiveFrameSource, "subscribe">;
  readonly #messages: HubMessages;
  readonly #settings: HubSettings;
  readonly #timers: HubTimers;
  readonly #maxBuffered: number;
  #socket: WebSocket | null = null;
  /** True once the hello went: frames go only after it. */
  #ready = false;
  #failures = 0;
  #sent = 0;
  #dropped = 0;
  #pending: LiveFrame | null = null;
  #gate: (() => void) | null = null;
  #retry: (() => void) | null = null;
  #unsubscribe: (() => void) | null = null;
  #closed = false;
  #listeners = new Set<() => void>();

  /** A link to the hub of `settings`; nothing happens before {@linkcode start}. */
  constructor(
    deps: Pick<AppDeps, "log">,
    frames: Pick<LiveFrameSource, "subscribe">,
    messages: HubMessages,
    settings: HubSettings,
    opts: LiveShareOptions = {},
  ) {
    this.#log = deps.log;
    this.#frames = frames;
    this.#messages = messages;
    this.#settings = settings;
    this.#timers = opts.timers ?? realTimers;
    this.#maxBuffered = opts.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
  }

  /** Follows the live frames and connects. */
  start(): void {
    this.#unsubscribe = this.#frames.subscribe(SOURCE_HZ, (frame) => this.#offer(frame));
    this.#connect();
  }

  /** Whether the socket is up, and the frames sent and dropped since the start. */
  status(): LiveShareStatus {
    return { connected: this.#ready, frames_sent: this.#sent, frames_dropped: this.#dropped };
  }

  /** Calls `fn` whenever the link connects or loses the hub; returns what stops it. */
  onChange(fn: () => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /** Stops following and sending; resolves once the socket is closed (or the hub left a second to answer). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#unsubscribe?.();
    this.#gate?.();
    this.#retry?.();
    const socket = this.#socket;
    this.#socket = null;
    this.#ready = false;
    if (socket === null || socket.readyState === WebSocket.CLOSED) return;
    const { promise, resolve } = Promise.withResolvers<void>();
    socket.addEventListener("close", () => resolve());
    socket.close();
    // A stalled hub never answers the closing handshake: shutting down does not wait for it.
    const id = setTimeout(resolve, CLOSE_WAIT_MS);
    await promise;
    clearTimeout(id);
  }

  /** A frame from the tap: sent now when the last send is 1/SHARE_HZ old, else kept as the latest. */
  #offer(frame: LiveFrame): void {
    if (this.#gate !== null) {
      this.#pending = frame;
      return;
    }
    this.#send(frame);
    this.#gate = this.#timers.after(1000 / SHARE_HZ, () => {
      this.#gate = null;
      const next = this.#pending;
      this.#pending = null;
      if (next !== null) this.#offer(next);
    });
  }

  #send(frame: LiveFrame): void {
    const socket = this.#socket;
    if (!this.#ready || socket === null || socket.bufferedAmount > this.#maxBuffered) {
      this.#dropped++;
      return;
    }
    socket.send(JSON.stringify({ type: "frame", frame }));
    this.#sent++;
  }

  #connect(): void {
    this.#retry = null;
    if (this.#closed) return;
    let socket: WebSocket;
    try {
      socket = new WebSocket(liveSocketUrl(this.#settings.url), {
        headers: { Authorization: `Bearer ${this.#settings.token}` },
      });
    } catch (err) {
      this.#log.warn("hub live: could not open the socket", err);
      return this.#later();
    }
    this.#socket = socket;
    socket.onopen = () => void this.#hello(socket);
    socket.onmessage = (e) => {
      if (typeof e.data === "string") this.#heard(e.data);
    };
    // A failed connect or a lost link ends in close (after error), so close alone retries.
    socket.onclose = () => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      const was = this.#ready;
      this.#ready = false;
      if (was) this.#changed();
      this.#later();
    };
  }

  async #hello(socket: WebSocket): Promise<void> {
    const last = await this.#messages.lastId();
    if (this.#socket !== socket || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ type: "hello", last_message_id: last }));
    this.#failures = 0;
    this.#ready = true;
    this.#changed();
  }

  #heard(data: string): void {
    try {
      const message = parseHubMessage(data);
      if (message === null) return;
      this.#messages.take(message).catch((err) =>
        this.#log.error(`hub live: message ${message.id} was not kept`, err)
      );
    } catch (err) {
      this.#log.warn("hub live: a message was refused", err);
    }
  }

  #later(): void {
    if (this.#closed) return;
    this.#failures++;
    const ms = liveBackoffMs(this.#failures, this.#timers.random());
    this.#retry = this.#timers.after(ms, () => this.#connect());
  }

  #changed(): void {
    for (const fn of this.#listeners) fn();
  }
}
