/**
 * The receive worker's messages to the console: heartbeats (the format
 * letter that keeps the console streaming) every
 * {@linkcode HEARTBEAT_INTERVAL_MS}, every 0.5 s while the stream is
 * stalled, and, to a console on loopback only, acknowledgements of what the
 * main thread consumed, which pace a replay.
 *
 * @module
 */
import type { PacketFormat } from "../core/gt7/format.ts";
import { ACK_WORD } from "../core/gt7/relay_packet.ts";
import type { WorkerCounters } from "./udp_worker_protocol.ts";

/** How often a heartbeat is sent while streaming. */
export const HEARTBEAT_INTERVAL_MS = 1500;
/** Silence after which the stream counts as stalled (and heartbeats go out every 0.5 s). */
export const STALL_MS = 1000;
const STALLED_HEARTBEAT_MS = 500;

/** Where and how the console is told. */
export interface HeartbeatOptions {
  /** The telemetry socket, which sends them. */
  readonly conn: Deno.DatagramConn;
  /** The console's address, or null when none is to be told. */
  readonly console: string | null;
  readonly consolePort: number;
  /** Whether acknowledgements are sent (a console on loopback). */
  readonly acks: boolean;
  /** The format letter to ask for now. */
  readonly asked: () => PacketFormat;
  /** The counters heartbeats and acknowledgements are counted in. */
  readonly counters: WorkerCounters;
  /** Told after each send is done (the counters changed). */
  readonly onSent: () => void;
  /** Told of a failed send. */
  readonly notice: (line: string) => void;
}

/** Heartbeats and acknowledgements to the console. */
export class Heartbeats {
  readonly #opts: HeartbeatOptions;
  readonly #to: Deno.NetAddr | null;
  readonly #encoder = new TextEncoder();
  #lastHeartbeatAt = -Infinity;
  // No packet yet counts as a stalled stream: keep asking until one arrives.
  #lastPacketAt = -Infinity;
  #lastConsumedId: number | null = null;
  #closing = false;
  /** The format letter last asked for. */
  lastAsked: PacketFormat;

  /** Messages to `opts.console`, asking first for `initial`. */
  constructor(opts: HeartbeatOptions, initial: PacketFormat) {
    this.#opts = opts;
    this.#to = opts.console
      ? { transport: "udp", hostname: opts.console, port: opts.consolePort }
      : null;
    this.lastAsked = initial;
  }

  /** A valid packet arrived: the stream is not stalled. */
  packetArrived(): void {
    this.#lastPacketAt = performance.now();
  }

  /** True when no valid packet came for {@linkcode STALL_MS} (or none ever). */
  stalled(now: number): boolean {
    return now - this.#lastPacketAt > STALL_MS;
  }

  /** Sends a heartbeat when one is due at `now`. */
  tick(now: number): void {
    const since = now - this.#lastHeartbeatAt;
    if (since >= HEARTBEAT_INTERVAL_MS || (this.stalled(now) && since >= STALLED_HEARTBEAT_MS)) {
      this.heartbeat();
    }
  }

  /** Sends a heartbeat now, asking for the format needed now. */
  heartbeat(): void {
    this.#lastHeartbeatAt = performance.now();
    this.lastAsked = this.#opts.asked();
    this.#send(this.#encoder.encode(this.lastAsked), () => {
      this.#opts.counters.heartbeats++;
      // An acknowledgement follows each heartbeat, so a replay started after
      // this logger learns at once that it will be paced.
      this.ack();
    });
  }

  /** The main thread consumed up to packet id `packetId`: acknowledges it. */
  consumed(packetId: number): void {
    this.#lastConsumedId = packetId;
    this.ack();
  }

  /** Sends an acknowledgement of the last packet consumed, when acknowledgements are on. */
  ack(): void {
    if (!this.#opts.acks) return;
    const id = this.#lastConsumedId;
    this.#send(this.#encoder.encode(id === null ? ACK_WORD : `${ACK_WORD} ${id}`), () => {
      this.#opts.counters.acks++;
    });
  }

  /** Sends nothing more. */
  close(): void {
    this.#closing = true;
  }

  #send(bytes: Uint8Array, onSent: () => void): void {
    if (this.#to === null || this.#closing) return;
    const opts = this.#opts;
    opts.conn.send(bytes, this.#to).then(() => {
      onSent();
      opts.onSent();
    }).catch((err) => {
      if (!this.#closing) {
        opts.notice(`sending to ${opts.console}:${opts.consolePort} failed: ${err.message}`);
      }
    });
  }
}
