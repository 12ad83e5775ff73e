/**
 * A fake PlayStation on loopback: it waits for a logger's heartbeat, then
 * streams packets to the heartbeat's sender, encrypted as the console would,
 * at 60 Hz times a speed factor.
 *
 * A logger of this project acknowledges, on loopback, what it has consumed
 * (`ack <packet id>`, and a bare `ack` before anything). Once an
 * acknowledgement has arrived the replay never has more than
 * {@linkcode ACK_WINDOW} packets in flight beyond the last one acknowledged,
 * at any speed, so the kernel never drops one and `--speed max` runs as fast
 * as the logger consumes. Without acknowledgements (another logger) it paces
 * as before.
 *
 * @module
 */
import { encryptPacket } from "../core/gt7/cipher.ts";
import { isAckDatagram } from "../core/gt7/relay_packet.ts";

/** Packets per second the console sends at real time. */
export const REAL_TIME_HZ = 60;

/** How fast to stream: a multiple of real time, or as fast as loopback keeps up. */
export type ReplaySpeed = number | "max";

/** Options for {@linkcode runFakeConsole}. */
export interface FakeConsoleOptions {
  /** Address to listen for heartbeats on (loopback). */
  hostname: string;
  /** Heartbeat port (33739; 0 picks a free one). */
  port: number;
  /** The plaintext packets to stream, in order; re-iterated when looping. */
  packets: () => Iterable<Uint8Array>;
  speed: ReplaySpeed;
  /** Start over when the packets run out, instead of exiting. */
  loop?: boolean;
  /** Called once bound, with the actual port. */
  onListen?: (port: number) => void;
  /** Called when the first heartbeat arrives. */
  onHeartbeat?: (from: Deno.NetAddr) => void;
  /** Aborts streaming. */
  signal?: AbortSignal;
  /**
   * Awaited before each packet is sent, with the count sent so far: lets an
   * in-process receiver hold the stream back while it is busy, so a loaded
   * machine slows a replay down instead of losing packets.
   */
  backpressure?: (sent: number) => Promise<void> | void;
}

/** What a replay did. */
export interface ReplayResult {
  /** Packets sent. */
  sent: number;
  /** Heartbeats received. */
  heartbeats: number;
  /** Acknowledgements received (0 from a logger that sends none). */
  acks: number;
  /** The most packets that were ever in flight beyond the last acknowledgement, once acks began. */
  maxInFlight: number;
}

/**
 * Most packets in flight beyond the last acknowledged one. The default kernel
 * receive buffer holds about 166 datagrams of this size, so the window fits
 * even while the logger's receiver is descheduled, with room for as many
 * other datagrams (garbage) interleaved.
 */
export const ACK_WINDOW = 64;

/** Silence from the logger (no heartbeat, no acknowledgement) after which it counts as gone. */
const LOGGER_GONE_MS = 5000;

/**
 * A bare `ack` (nothing consumed yet) while the window has been full this
 * long means a new logger: the old one's packets will never be acknowledged.
 */
const NEW_LOGGER_AFTER_FULL_MS = 1000;

/** Ids remembered while no acknowledgement has arrived yet (one may name any of them). */
const UNACKED_MEMORY = 1024;

/** Packets sent back to back at `max` speed before yielding to the event loop (without acks). */
const MAX_BURST = 24;

/**
 * Pause after a lap-counter change at `max` speed: a logger stores the lap it
 * just completed then, and the stream must not overrun its socket meanwhile.
 */
const LAP_PAUSE_MS = 150;

const PACKET_ID_OFFSET = 0x70;
const LAP_OFFSET = 0x74;

/**
 * Runs the fake console until the packets end (or forever with `loop`, until
 * `signal` aborts). Resolves with what was sent.
 */
export async function runFakeConsole(opts: FakeConsoleOptions): Promise<ReplayResult> {
  const conn = Deno.listenDatagram({ hostname: opts.hostname, port: opts.port, transport: "udp" });
  opts.onListen?.((conn.addr as Deno.NetAddr).port);
  const acks = new AckWindow();
  let heartbeats = 0;
  let sent = 0;
  const result = () => ({ sent, heartbeats, acks: acks.received, maxInFlight: acks.maxInFlight });
  const onAbort = () => {
    conn.close();
    acks.wake();
  };
  opts.signal?.addEventListener("abort", onAbort);
  let drain: Promise<void> | null = null;
  try {
    let target: Deno.NetAddr | null = null;
    while (target === null) {
      const [data, from] = await conn.receive();
      if (acks.take(data)) continue;
      heartbeats++;
      target = from as Deno.NetAddr;
    }
    opts.onHeartbeat?.(target);
    // Keep draining heartbeats and acknowledgements so the socket buffer never fills.
    drain = (async () => {
      try {
        for await (const [data] of conn) {
          if (!acks.take(data)) heartbeats++;
          acks.heard();
        }
      } catch {
        // Socket closed at the end of the replay.
      }
    })();
    const start = performance.now();
    let idShift = 0;
    let lastLap: number | null = null;
    do {
      let firstId: number | null = null;
      let lastId = 0;
      for (const plain of opts.packets()) {
        if (opts.signal?.aborted) return result();
        const packet = idShift ? shiftPacketId(plain, idShift) : plain;
        const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength);
        lastId = view.getInt32(PACKET_ID_OFFSET, true);
        firstId ??= lastId;
        await opts.backpressure?.(sent);
        await acks.room(opts.signal);
        if (opts.signal?.aborted) return result();
        const iv = (Math.imul(sent + 1, 2654435761) ^ 0x5bd1e995) >>> 0;
        acks.sending(lastId);
        await conn.send(encryptPacket(packet, iv), target);
        sent++;
        const lap = view.getInt16(LAP_OFFSET, true);
        const paced = acks.active;
        if (opts.speed === "max" && !paced && lastLap !== null && lap !== lastLap) {
          await sleep(LAP_PAUSE_MS);
        }
        lastLap = lap;
        if (opts.speed !== "max" || !paced) await pace(opts.speed, sent, start);
      }
      if (firstId === null) break;
      idShift = lastId + 1 - (firstId - idShift);
    } while (opts.loop && !opts.signal?.aborted);
    return result();
  } finally {
    opts.signal?.removeEventListener("abort", onAbort);
    try {
      conn.close();
    } catch {
      // Already closed by abort.
    }
    await drain;
  }
}

/**
 * The acknowledgement window: the ids sent and not yet acknowledged, in send
 * order. Ids may repeat or jump (a capture's duplicates, a restart), so an
 * acknowledgement releases everything up to the first entry with its id.
 *
 * A logger sends a bare `ack` only until it has consumed its first packet, so
 * a bare `ack` after a numbered one, or while the window has been full for
 * {@linkcode NEW_LOGGER_AFTER_FULL_MS}, comes from a logger restarted on the
 * same port: the window held the old one's packets, which nobody will ever
 * acknowledge, so it empties and the new logger is streamed to at once
 * (its acknowledgements keep the replay alive, so waiting for silence never
 * would). A numbered `ack` naming none of a window full for as long means
 * the window's packets were lost on the way: it empties too, so a replay
 * never waits for acknowledgements that cannot come.
 */
class AckWindow {
  /** True once a logger acknowledged: from then on the window holds the replay. */
  active = false;
  received = 0;
  maxInFlight = 0;
  #ids: number[] = [];
  /** True once a numbered `ack` arrived since the window was last emptied by a restart. */
  #numbered = false;
  /** When the window was last seen full by {@linkcode room}, or null while it has room. */
  #fullSince: number | null = null;
  #lastHeard = performance.now();
  #waiter: PromiseWithResolvers<void> | null = null;

  /** Handles `data` when it is an acknowledgement; returns false for anything else. */
  take(data: Uint8Array): boolean {
    if (!isAckDatagram(data)) return false;
    const text = new TextDecoder().decode(data);
    const match = /^ack(?: (-?\d+))?$/.exec(text);
    if (!match) return false;
    this.received++;
    this.active = true;
    this.#lastHeard = performance.now();
    if (match[1] !== undefined) {
      this.#numbered = true;
      const at = this.#ids.indexOf(Number(match[1]));
      if (at >= 0) {
        this.#ids.splice(0, at + 1);
        this.#fullSince = null;
      } else if (this.#fullFor(NEW_LOGGER_AFTER_FULL_MS)) {
        // The logger consumed everything it got and names none of the window: the window's
        // packets never reached it (its socket overflowed while the replay was not yet paced,
        // or the kernel dropped them), so nobody will acknowledge them.
        this.#ids.length = 0;
        this.#fullSince = null;
      }
    } else if (this.#restarted()) {
      this.#ids.length = 0;
      this.#numbered = false;
      this.#fullSince = null;
    }
    this.wake();
    return true;
  }

  /** True when a bare `ack` now can only come from a logger that started after the window filled. */
  #restarted(): boolean {
    if (this.#ids.length === 0) return false;
    if (this.#numbered) return true;
    return this.#fullFor(NEW_LOGGER_AFTER_FULL_MS);
  }

  /** True when the window has been full for at least `ms`. */
  #fullFor(ms: number): boolean {
    return this.#fullSince !== null && performance.now() - this.#fullSince >= ms;
  }

  /** The logger was heard from (a heartbeat): it is alive. */
  heard(): void {
    this.#lastHeard = performance.now();
  }

  /** Records a packet about to be sent. */
  sending(id: number): void {
    this.#ids.push(id);
    if (this.active) this.maxInFlight = Math.max(this.maxInFlight, this.#ids.length);
    else if (this.#ids.length > UNACKED_MEMORY) {
      this.#ids.splice(0, this.#ids.length - UNACKED_MEMORY);
    }
  }

  /**
   * Waits until one more packet fits in the window. A logger silent for
   * {@linkcode LOGGER_GONE_MS} (it stopped) ends the pacing by acknowledgement.
   */
  async room(signal?: AbortSignal): Promise<void> {
    while (this.active && this.#ids.length >= ACK_WINDOW && !signal?.aborted) {
      if (performance.now() - this.#lastHeard > LOGGER_GONE_MS) {
        this.active = false;
        this.#ids.length = 0;
        this.#numbered = false;
        this.#fullSince = null;
        return;
      }
      this.#fullSince ??= performance.now();
      this.#waiter = Promise.withResolvers<void>();
      const timer = setTimeout(() => this.wake(), 250);
      await this.#waiter.promise;
      clearTimeout(timer);
    }
  }

  /** Wakes a waiting {@linkcode room}. */
  wake(): void {
    this.#waiter?.resolve();
    this.#waiter = null;
  }
}

/** Waits until packet number `sent` is due. */
async function pace(speed: ReplaySpeed, sent: number, start: number): Promise<void> {
  if (speed === "max") {
    if (sent % MAX_BURST === 0) await sleep(1);
    return;
  }
  const due = start + (sent * 1000) / (REAL_TIME_HZ * speed);
  const wait = due - performance.now();
  if (wait >= 1) await sleep(wait);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A copy of `plain` with its packet id moved on by `shift` (so loops keep counting up). */
function shiftPacketId(plain: Uint8Array, shift: number): Uint8Array {
  const copy = plain.slice();
  const view = new DataView(copy.buffer);
  view.setInt32(PACKET_ID_OFFSET, view.getInt32(PACKET_ID_OFFSET, true) + shift, true);
  return copy;
}
