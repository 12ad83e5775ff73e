/**
 * The telemetry client: receives the console's encrypted datagrams, keeps it
 * streaming with heartbeats, and hands decoded frames on. Every datagram that
 * is not a valid packet is counted and dropped; nothing here throws once
 * started.
 *
 * The socket lives in a worker (src/capture/udp_receive_worker.ts) so that a
 * busy main event loop never makes the kernel drop a packet: the worker
 * receives, decrypts and accounts; this side decodes the batches it hands
 * over and calls `onFrame` in arrival order. See docs/architecture.md,
 * "Capture".
 *
 * @module
 */
import { isLoopback } from "../core/loopback.ts";
import type { PacketFormat } from "../core/gt7/format.ts";
import type { Frame } from "../core/gt7/frame.ts";
import { decodeFrame } from "../core/gt7/decode.ts";
import type { TelemetrySource, TelemetryStatus } from "../app/live/telemetry_source.ts";
import type { RecordOptions } from "./record_writer.ts";
import type { RelayOptions } from "./relay_socket.ts";
import { relayStatus } from "./relay_status.ts";
import { WANTED_RECEIVE_BUFFER_BYTES } from "./socket_buffer.ts";
import type {
  BatchMessage,
  FromWorker,
  ListeningMessage,
  ToWorker,
  WorkerCounters,
} from "./udp_worker_protocol.ts";

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
  /** Writes every datagram received, raw, to this record file (`--record`). */
  record?: RecordOptions | null;
  /** Receive buffer to ask the kernel for, bytes; 0 keeps the platform's. Default 8 MiB. */
  receiveBufferBytes?: number;
  /** Where announcements go (a record file rotated, a socket error); default stderr. */
  onNotice?: (line: string) => void;
  /** Apps to relay the console's packets to (`--relay`, `--forward`); null for none. */
  relay?: RelayOptions | null;
}

/** A running client. */
export interface UdpClient extends TelemetrySource {
  /** The bound local port. */
  readonly port: number;
}

/** Longest `close()` waits for the worker to flush before ending it anyway. */
const CLOSE_TIMEOUT_MS = 5000;

/**
 * True when acknowledgements may go to the console at `consoleHost`: only on
 * loopback, where the console is a replay. A real PlayStation only ever gets heartbeats.
 */
export function acksAllowed(consoleHost: string | null): boolean {
  return consoleHost !== null && isLoopback(consoleHost);
}

/**
 * Decodes the packets of `batch` in order and hands each frame to
 * `onFrame`; a packet that fails to decode is dropped with a notice, and a
 * consumer that throws is logged and does not stop the rest. Returns how
 * many decoded and the last packet id (0 when none).
 */
function deliverBatch(
  batch: BatchMessage,
  onFrame: (frame: Frame) => void,
  notice: (line: string) => void,
): { decoded: number; lastId: number } {
  const bytes = new Uint8Array(batch.bytes);
  let offset = 0;
  let lastId = 0;
  let decoded = 0;
  for (const size of batch.sizes) {
    const packet = bytes.subarray(offset, offset + size);
    offset += size;
    let frame: Frame;
    try {
      frame = decodeFrame(packet);
    } catch (err) {
      notice(`dropping a packet that failed to decode: ${(err as Error).message}`);
      continue;
    }
    decoded++;
    lastId = frame.packetId;
    try {
      onFrame(frame);
    } catch (err) {
      console.error("a frame's consumer failed:", err);
    }
  }
  return { decoded, lastId };
}

/** What the receive worker is told to start with. */
function startMessage(opts: UdpClientOptions): ToWorker {
  return {
    type: "start",
    hostname: opts.hostname,
    port: opts.port,
    console: opts.console,
    consolePort: opts.consolePort,
    format: opts.format,
    acks: acksAllowed(opts.console),
    receiveBufferBytes: opts.receiveBufferBytes ?? WANTED_RECEIVE_BUFFER_BYTES,
    record: opts.record ?? null,
    relay: opts.relay ?? null,
  };
}

/**
 * Binds the telemetry port (in the receive worker) and starts receiving.
 * Rejects with `Deno.errors.AddrInUse` when the port is taken, and with an
 * Error naming the file when `record` can not be created.
 */
export async function startUdpClient(opts: UdpClientOptions): Promise<UdpClient> {
  const notice = opts.onNotice ?? ((line: string) => console.error(line));
  const worker = new Worker(new URL("./udp_receive_worker.ts", import.meta.url), {
    type: "module",
  });
  const send = (message: ToWorker) => worker.postMessage(message);
  const listening = Promise.withResolvers<ListeningMessage>();
  const ended = Promise.withResolvers<void>();
  let counters: WorkerCounters | null = null;
  let decoded = 0;
  let ending = false;

  const deliver = (batch: BatchMessage) => {
    const done = deliverBatch(batch, opts.onFrame, notice);
    decoded += done.decoded;
    if (!ending) send({ type: "consumed", seq: batch.seq, packetId: done.lastId });
  };

  worker.onmessage = (event: MessageEvent<FromWorker>) => {
    const message = event.data;
    switch (message.type) {
      case "listening":
        counters = message.counters;
        listening.resolve(message);
        break;
      case "failed": {
        const err = message.name === "AddrInUse"
          ? new Deno.errors.AddrInUse(message.message)
          : new Error(message.message);
        listening.reject(err);
        ended.resolve();
        break;
      }
      case "batch":
        deliver(message);
        counters = message.counters;
        break;
      case "counters":
        counters = message.counters;
        break;
      case "notice":
        notice(message.line);
        break;
      case "closed":
        counters = message.counters;
        ended.resolve();
        break;
    }
  };
  worker.onerror = (event) => {
    // Kept from crashing the process: the logger goes on without telemetry.
    event.preventDefault();
    notice(`telemetry receiver failed: ${event.message}`);
    listening.reject(new Error(`telemetry receiver failed: ${event.message}`));
    ended.resolve();
  };

  send(startMessage(opts));
  let info: ListeningMessage;
  try {
    info = await listening.promise;
  } catch (err) {
    worker.terminate();
    throw err;
  }

  let closing: Promise<void> | null = null;
  return {
    port: info.port,
    status(): TelemetryStatus {
      const c = counters!;
      const rejected = c.rejectedSize + c.rejectedMagic;
      return {
        connected: c.lastPacketAtMs !== null && Date.now() - c.lastPacketAtMs < 2000,
        console: opts.console ? `${opts.console}:${opts.consolePort}` : null,
        format: opts.format,
        listen: `${info.hostname}:${info.port}`,
        packets_received: c.received,
        decoded,
        rejected_size: c.rejectedSize,
        rejected_magic: c.rejectedMagic,
        rejected,
        duplicates: c.duplicates,
        missing: c.missing,
        packet_format: c.lastFormat,
        packets_per_second: c.packetsPerSecond,
        heartbeats_sent: c.heartbeats,
        last_packet_at: c.lastPacketAtMs === null ? null : new Date(c.lastPacketAtMs).toISOString(),
        restarts: c.restarts,
        acks_sent: c.acks,
        receive_buffer_bytes: info.receiveBufferBytes,
        receive_buffer_note: info.receiveBufferNote,
        kernel_drops: c.kernelDrops,
        record: c.record,
        relay: relayStatus(c.relay ?? null),
      };
    },
    close() {
      closing ??= (async () => {
        ending = true;
        send({ type: "close" });
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            notice("telemetry receiver did not stop in time; ending it");
            resolve();
          }, CLOSE_TIMEOUT_MS);
        });
        await Promise.race([ended.promise, timeout]);
        clearTimeout(timer);
        worker.terminate();
      })();
      return closing;
    },
  };
}
