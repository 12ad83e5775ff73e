/**
 * A fake PlayStation on loopback: it waits for a logger's heartbeat, then
 * streams packets to the heartbeat's sender, encrypted as the console would,
 * at 60 Hz times a speed factor.
 *
 * @module
 */
import { encryptPacket } from "../core/gt7/cipher.ts";

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
}

/** Packets sent back to back at `max` speed before yielding to the event loop. */
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
  let heartbeats = 0;
  let sent = 0;
  const onAbort = () => conn.close();
  opts.signal?.addEventListener("abort", onAbort);
  try {
    const [, from] = await conn.receive();
    heartbeats++;
    const target = from as Deno.NetAddr;
    opts.onHeartbeat?.(target);
    // Keep draining heartbeats so the socket buffer never fills.
    (async () => {
      try {
        for await (const _ of conn) heartbeats++;
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
        if (opts.signal?.aborted) return { sent, heartbeats };
        const packet = idShift ? shiftPacketId(plain, idShift) : plain;
        const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength);
        lastId = view.getInt32(PACKET_ID_OFFSET, true);
        firstId ??= lastId;
        await opts.backpressure?.(sent);
        const iv = (Math.imul(sent + 1, 2654435761) ^ 0x5bd1e995) >>> 0;
        await conn.send(encryptPacket(packet, iv), target);
        sent++;
        const lap = view.getInt16(LAP_OFFSET, true);
        if (opts.speed === "max" && lastLap !== null && lap !== lastLap) await sleep(LAP_PAUSE_MS);
        lastLap = lap;
        await pace(opts.speed, sent, start);
      }
      if (firstId === null) break;
      idShift = lastId + 1 - (firstId - idShift);
    } while (opts.loop && !opts.signal?.aborted);
    return { sent, heartbeats };
  } finally {
    opts.signal?.removeEventListener("abort", onAbort);
    try {
      conn.close();
    } catch {
      // Already closed by abort.
    }
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
