/**
 * The telemetry client: receives the console's encrypted datagrams, keeps it
 * streaming with heartbeats, and hands decoded frames on. Every datagram that
 * is not a valid packet is counted and dropped; nothing here throws.
 *
 * @module
 */
import { formatOfSize, type PacketFormat } from "../core/gt7/format.ts";
import type { Frame } from "../core/gt7/frame.ts";
import { decryptPacket } from "../core/gt7/cipher.ts";
import { decodeFrame } from "../core/gt7/decode.ts";
import type { TelemetrySource, TelemetryStatus } from "../app/telemetry_source.ts";

/** How often a heartbeat is sent while streaming. */
export const HEARTBEAT_INTERVAL_MS = 1500;

/** Silence after which the stream counts as stalled (and a heartbeat goes out at once). */
export const STALL_MS = 1000;

/** Options for {@linkcode startUdpClient}. */
export interface UdpClientOptions {
  /** Local address to bind; loopback unless a console on the network is configured. */
  hostname: string;
  /** Local port for telemetry (33740; 0 picks a free one). */
  port: number;
  /** The console's address, or null to listen passively. */
  console: string | null;
  /** The console's heartbeat port (33739). */
  consolePort: number;
  /** The packet format to request. */
  format: PacketFormat;
  /** Receives every decoded frame, in arrival order. */
  onFrame: (frame: Frame) => void;
}

/** A running client. */
export interface UdpClient extends TelemetrySource {
  /** The bound local port. */
  readonly port: number;
}

/** Binds the telemetry port and starts receiving. */
export function startUdpClient(opts: UdpClientOptions): UdpClient {
  const conn = Deno.listenDatagram({ hostname: opts.hostname, port: opts.port, transport: "udp" });
  const local = conn.addr as Deno.NetAddr;
  const heartbeat = new TextEncoder().encode(opts.format);
  const counters = {
    received: 0,
    decoded: 0,
    rejectedSize: 0,
    rejectedMagic: 0,
    duplicates: 0,
    missing: 0,
    heartbeats: 0,
  };
  let lastFormat: PacketFormat | null = null;
  let lastPid: number | null = null;
  // No packet yet counts as a stalled stream: keep asking until one arrives.
  let lastPacketAt = -Infinity;
  let lastHeartbeatAt = 0;
  let windowStart = performance.now();
  let windowCount = 0;
  let rate = 0;
  let closed = false;

  const sendHeartbeat = () => {
    if (!opts.console || closed) return;
    lastHeartbeatAt = performance.now();
    conn.send(heartbeat, { transport: "udp", hostname: opts.console, port: opts.consolePort })
      .then(() => counters.heartbeats++)
      .catch((err) => console.error(`heartbeat to ${opts.console} failed: ${err.message}`));
  };

  const timer = setInterval(() => {
    const now = performance.now();
    if (now - windowStart >= 1000) {
      rate = windowCount * 1000 / (now - windowStart);
      windowStart = now;
      windowCount = 0;
    }
    const stalled = now - lastPacketAt > STALL_MS;
    const due = now - lastHeartbeatAt >= HEARTBEAT_INTERVAL_MS;
    if (due || (stalled && now - lastHeartbeatAt >= 500)) sendHeartbeat();
  }, 100);

  const handle = (data: Uint8Array) => {
    counters.received++;
    const format = formatOfSize(data.byteLength);
    if (format === null) {
      counters.rejectedSize++;
      return;
    }
    // Each received datagram is a fresh buffer, so decrypting in place saves an allocation.
    const plain = decryptPacket(data, format, data);
    if (plain === null) {
      counters.rejectedMagic++;
      return;
    }
    const frame = decodeFrame(plain);
    counters.decoded++;
    windowCount++;
    lastFormat = format;
    lastPacketAt = performance.now();
    if (lastPid !== null) {
      const gap = frame.packetId - lastPid;
      if (gap === 0) counters.duplicates++;
      else if (gap > 1 && gap <= 60) counters.missing += gap - 1;
    }
    lastPid = frame.packetId;
    opts.onFrame(frame);
  };

  const loop = (async () => {
    while (!closed) {
      let data: Uint8Array;
      try {
        [data] = await conn.receive();
      } catch (err) {
        if (closed) break;
        console.error(`telemetry socket error: ${(err as Error).message}`);
        continue;
      }
      try {
        handle(data);
      } catch (err) {
        console.error("dropping a datagram that failed to decode:", err);
      }
    }
  })();

  sendHeartbeat();

  return {
    port: local.port,
    status(): TelemetryStatus {
      const rejected = counters.rejectedSize + counters.rejectedMagic;
      return {
        connected: performance.now() - lastPacketAt < 2000,
        console: opts.console ? `${opts.console}:${opts.consolePort}` : null,
        format: opts.format,
        listen: `${local.hostname}:${local.port}`,
        packets_received: counters.received,
        decoded: counters.decoded,
        rejected_size: counters.rejectedSize,
        rejected_magic: counters.rejectedMagic,
        rejected,
        duplicates: counters.duplicates,
        missing: counters.missing,
        packet_format: lastFormat,
        packets_per_second: Math.round(rate * 10) / 10,
        heartbeats_sent: counters.heartbeats,
        last_packet_at: Number.isFinite(lastPacketAt)
          ? new Date(Date.now() - (performance.now() - lastPacketAt)).toISOString()
          : null,
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      try {
        conn.close();
      } catch {
        // Already closed.
      }
      await loop;
    },
  };
}
