/**
 * The receive worker: owns the telemetry socket so that nothing on the main
 * event loop (storing a lap, a bundle import, the dashboard, a collection)
 * can make the kernel drop a packet. It receives into one reused buffer,
 * records raw datagrams when asked, checks size, decrypts, checks the magic,
 * accounts for packet ids, and hands the decrypted packets to the main thread
 * in batches (one transferred ArrayBuffer each). It also sends the heartbeats
 * and, to a console on loopback only, acknowledgements of what the main
 * thread consumed, which pace a replay. Started by src/server/udp_client.ts.
 *
 * @module
 */
import { decryptPacket } from "../core/gt7/cipher.ts";
import { readPacketId } from "../core/gt7/decode.ts";
import { formatOfSize, PACKET_SIZE, type PacketFormat } from "../core/gt7/format.ts";
import { richestFormat } from "../core/gt7/relay_packet.ts";
import { collector } from "./memory_tidy.ts";
import { PacketAccounting } from "./packet_accounting.ts";
import { RecordWriter } from "./record_writer.ts";
import { openRelay, type RelaySocket } from "./relay_socket.ts";
import {
  enlargeReceiveBuffer,
  locateUdpSocket,
  openDrain,
  readKernelDrops,
} from "./socket_buffer.ts";
import type { FromWorker, StartMessage, ToWorker, WorkerCounters } from "./udp_worker_protocol.ts";

/** How often a heartbeat is sent while streaming. */
const HEARTBEAT_INTERVAL_MS = 1500;
/** Silence after which the stream counts as stalled (and heartbeats go out every 0.5 s). */
const STALL_MS = 1000;
/** Packets per batch at most; a batch this full goes out whatever the main thread is doing. */
const MAX_BATCH = 256;
/** Shortest spacing of counter-only messages (garbage, heartbeats): at most 200 a second. */
const COUNTERS_SPACING_MS = 5;
const TICK_MS = 100;
const DROPS_EVERY_MS = 1000;
/** Datagrams drained in one go before the worker looks at its messages and timers again. */
const MAX_DRAIN = 1024;
/** Larger than any UDP payload (65,507 bytes), so no datagram is cut short. */
const RECEIVE_BUFFER = 65_536;
const LARGEST_PACKET = Math.max(...Object.values(PACKET_SIZE));

interface WorkerScope {
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
  close(): void;
}

const scope = self as unknown as WorkerScope;
const post = (message: FromWorker, transfer?: Transferable[]) =>
  scope.postMessage(message, transfer);

let receiver: Receiver | null = null;

scope.onmessage = (event) => {
  const message = event.data;
  switch (message.type) {
    case "start":
      if (receiver === null) receiver = startReceiver(message);
      break;
    case "consumed":
      receiver?.consumed(message.seq, message.packetId);
      break;
    case "close":
      if (receiver === null) scope.close();
      else receiver.close();
      break;
  }
};

interface Receiver {
  consumed(seq: number, packetId: number): void;
  close(): void;
}

function startReceiver(opts: StartMessage): Receiver | null {
  let conn: Deno.DatagramConn;
  try {
    conn = Deno.listenDatagram({ hostname: opts.hostname, port: opts.port, transport: "udp" });
  } catch (err) {
    post({ type: "failed", name: (err as Error).name, message: (err as Error).message });
    scope.close();
    return null;
  }
  const local = conn.addr as Deno.NetAddr;
  const notice = (line: string) => post({ type: "notice", line });
  let recorder: RecordWriter | null = null;
  if (opts.record) {
    try {
      recorder = new RecordWriter(opts.record, Date.now(), notice);
    } catch (err) {
      conn.close();
      post({
        type: "failed",
        name: "RecordError",
        message: `cannot record to ${opts.record.path}: ${(err as Error).message}`,
      });
      scope.close();
      return null;
    }
  }
  // The relay (--relay, --forward): see relay_socket.ts; hooks below are marked "relay".
  let relay: RelaySocket | null = null;
  let relayConsoleFormat: PacketFormat | null = null;
  if (opts.relay) {
    try {
      let toldSelf = false;
      relay = openRelay(
        opts.relay,
        () => {
          if (askedFormat() !== lastAsked) sendHeartbeat();
          countersDirty = true;
          scheduleFlush();
        },
        undefined,
        {
          port: local.port,
          onSelf: () => {
            if (toldSelf) return;
            toldSelf = true;
            notice(
              "the logger's own heartbeats reach its relay port (is --console-port the --relay port?); ignored",
            );
          },
        },
      );
    } catch (err) {
      conn.close();
      recorder?.close();
      // Not "AddrInUse": that name is the telemetry port's, and the message names --relay.
      post({ type: "failed", name: "RelayError", message: (err as Error).message });
      scope.close();
      return null;
    }
  }
  const socket = locateUdpSocket(local.hostname, local.port);
  const buffer = opts.receiveBufferBytes > 0
    ? enlargeReceiveBuffer(socket, opts.receiveBufferBytes)
    : { bytes: null, note: "platform default (not asked to change it)" };

  const accounting = new PacketAccounting();
  const counters: WorkerCounters = {
    received: 0,
    rejectedSize: 0,
    rejectedMagic: 0,
    duplicates: 0,
    missing: 0,
    restarts: 0,
    heartbeats: 0,
    acks: 0,
    lastFormat: null,
    lastPacketAtMs: null,
    packetsPerSecond: 0,
    kernelDrops: socket ? readKernelDrops(socket) : null,
    record: recorder?.status() ?? null,
  };
  const snapshot = (): WorkerCounters => {
    counters.duplicates = accounting.duplicates;
    counters.missing = accounting.missing;
    counters.restarts = accounting.restarts;
    counters.record = recorder?.status() ?? null;
    if (relay !== null) {
      counters.relay = {
        ...relay.hub.counters(),
        listen: relay.listen,
        requestedFormat: lastAsked,
        consoleFormat: relayConsoleFormat,
      };
    }
    return { ...counters };
  };

  const consoleAddr: Deno.NetAddr | null = opts.console
    ? { transport: "udp", hostname: opts.console, port: opts.consolePort }
    : null;
  const encoder = new TextEncoder();
  // relay: the console is asked for the richest format the logger or any relayed app needs.
  const askedFormat = (): PacketFormat =>
    relay === null ? opts.format : richestFormat([opts.format, relay.hub.wanted() ?? "A"])!;
  let lastAsked = opts.format;
  let closing = false;

  // Batching: packets are decrypted straight into `staging`; a batch goes out
  // when the main thread has consumed the previous one (so batches grow while
  // it is busy) once the socket has nothing more queued, or when full.
  const staging = new Uint8Array(MAX_BATCH * LARGEST_PACKET);
  const sizes = new Uint16Array(MAX_BATCH);
  let stagedCount = 0;
  let stagedBytes = 0;
  let posted = 0;
  let consumedSeq = 0;
  let lastConsumedId: number | null = null;
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  let countersDirty = false;
  let lastPostAt = -Infinity;

  const postBatch = () => {
    if (stagedCount === 0) return;
    const bytes = staging.slice(0, stagedBytes).buffer;
    post(
      {
        type: "batch",
        seq: ++posted,
        bytes,
        sizes: sizes.slice(0, stagedCount),
        counters: snapshot(),
      },
      [bytes],
    );
    stagedCount = 0;
    stagedBytes = 0;
    countersDirty = false;
    lastPostAt = performance.now();
  };

  const flush = () => {
    flushTimer = null;
    if (closing) return;
    if (stagedCount > 0) {
      if (posted === consumedSeq) postBatch();
      // Otherwise the main thread's next `consumed` sends it.
    } else if (countersDirty) {
      const wait = lastPostAt + COUNTERS_SPACING_MS - performance.now();
      if (wait > 0) {
        flushTimer = setTimeout(flush, wait);
        return;
      }
      countersDirty = false;
      lastPostAt = performance.now();
      post({ type: "counters", counters: snapshot() });
    }
  };

  // A zero timer fires once the receive loop waits on an empty socket: all
  // that was queued is in the batch, and a lone packet at 60 Hz goes at once.
  const scheduleFlush = () => {
    if (flushTimer === null) flushTimer = setTimeout(flush, 0);
  };
  const flushNow = () => {
    if (flushTimer !== null) clearTimeout(flushTimer);
    flush();
  };

  const send = (bytes: Uint8Array, onSent: () => void) => {
    if (consoleAddr === null || closing) return;
    conn.send(bytes, consoleAddr).then(() => {
      onSent();
      countersDirty = true;
      scheduleFlush();
    }).catch((err) => {
      if (!closing) notice(`sending to ${opts.console}:${opts.consolePort} failed: ${err.message}`);
    });
  };

  const sendAck = () => {
    if (!opts.acks) return;
    const text = lastConsumedId === null ? "ack" : `ack ${lastConsumedId}`;
    send(encoder.encode(text), () => counters.acks++);
  };

  let lastHeartbeatAt = -Infinity;
  // No packet yet counts as a stalled stream: keep asking until one arrives.
  let lastPacketAt = -Infinity;
  const sendHeartbeat = () => {
    lastHeartbeatAt = performance.now();
    lastAsked = askedFormat();
    send(encoder.encode(lastAsked), () => {
      counters.heartbeats++;
      // An acknowledgement follows each heartbeat, so a replay started after
      // this logger learns at once that it will be paced.
      sendAck();
    });
  };

  let windowStart = performance.now();
  let windowCount = 0;
  let dropsReadAt = performance.now();
  // A fast stream grows this isolate's heap; one full collection once it
  // stops gives that back (see memory_tidy.ts), with no packet to delay.
  const collect = collector();
  let collectedSinceStall = false;
  const tick = setInterval(() => {
    const now = performance.now();
    if (now - windowStart >= 1000) {
      const rate = Math.round((windowCount * 10_000) / (now - windowStart)) / 10;
      if (rate !== counters.packetsPerSecond) countersDirty = true;
      counters.packetsPerSecond = rate;
      windowStart = now;
      windowCount = 0;
    }
    if (socket && now - dropsReadAt >= DROPS_EVERY_MS) {
      dropsReadAt = now;
      const drops = readKernelDrops(socket);
      if (drops !== counters.kernelDrops) countersDirty = true;
      counters.kernelDrops = drops;
    }
    recorder?.tick(Date.now());
    if (relay?.hub.sweep()) countersDirty = true;
    const stalled = now - lastPacketAt > STALL_MS;
    const due = now - lastHeartbeatAt >= HEARTBEAT_INTERVAL_MS;
    if (due || (stalled && now - lastHeartbeatAt >= 500)) sendHeartbeat();
    if (stalled && !collectedSinceStall) {
      collectedSinceStall = true;
      collect?.();
    }
    if (countersDirty) scheduleFlush();
  }, TICK_MS);

  const handle = (data: Uint8Array) => {
    counters.received++;
    const atMs = Date.now();
    recorder?.write(atMs, data);
    const format = formatOfSize(data.length);
    if (format === null) {
      counters.rejectedSize++;
      countersDirty = true;
      return;
    }
    if (stagedBytes + data.length > staging.length) postBatch();
    const plain = decryptPacket(
      data,
      format,
      staging.subarray(stagedBytes, stagedBytes + data.length),
    );
    if (plain === null) {
      counters.rejectedMagic++;
      countersDirty = true;
      return;
    }
    // relay: the logger keeps its own format whatever an app made it ask for.
    const kept = relay === null ? data.length : Math.min(data.length, PACKET_SIZE[opts.format]);
    accounting.see(readPacketId(plain));
    counters.lastFormat = formatOfSize(kept);
    counters.lastPacketAtMs = atMs;
    lastPacketAt = performance.now();
    collectedSinceStall = false;
    windowCount++;
    sizes[stagedCount++] = kept;
    stagedBytes += kept;
    if (relay !== null) {
      relayConsoleFormat = format;
      try {
        relay.hub.relay(data, plain);
      } catch (err) {
        notice(`relaying a packet failed: ${(err as Error).message}`);
      }
    }
    if (stagedCount === MAX_BATCH) postBatch();
  };

  const safely = (data: Uint8Array) => {
    try {
      handle(data);
    } catch (err) {
      notice(`dropping a datagram that failed: ${(err as Error).message}`);
    }
  };

  // Deno's receive waits for the next datagram; what queued up behind it is
  // then drained by plain recv(2) calls where FFI allows, much cheaper each.
  const buf = new Uint8Array(RECEIVE_BUFFER);
  const drain = openDrain(socket, buf);
  const loop = (async () => {
    while (!closing) {
      let data: Uint8Array;
      try {
        [data] = await conn.receive(buf);
      } catch (err) {
        if (closing) break;
        notice(`telemetry socket error: ${(err as Error).message}`);
        continue;
      }
      safely(data);
      let empty = false;
      for (let i = 0; drain !== null && i < MAX_DRAIN && !closing; i++) {
        const length = drain.next();
        if (length < 0) {
          empty = true;
          break;
        }
        safely(buf.subarray(0, length));
      }
      // Nothing more queued: hand the batch over now rather than a timer tick later.
      if (empty) flushNow();
      else scheduleFlush();
    }
    drain?.close();
  })();

  post({
    type: "listening",
    hostname: local.hostname,
    port: local.port,
    receiveBufferBytes: buffer.bytes,
    receiveBufferNote: buffer.note,
    counters: snapshot(),
  });
  sendHeartbeat();

  return {
    consumed(seq, packetId) {
      consumedSeq = seq;
      lastConsumedId = packetId;
      sendAck();
      if (stagedCount > 0 && posted === consumedSeq) postBatch();
    },
    close() {
      if (closing) return;
      closing = true;
      clearInterval(tick);
      if (flushTimer !== null) clearTimeout(flushTimer);
      if (socket) counters.kernelDrops = readKernelDrops(socket) ?? counters.kernelDrops;
      try {
        conn.close();
      } catch {
        // Already closed.
      }
      Promise.all([loop, relay?.close()]).then(() => {
        postBatch();
        recorder?.close();
        post({ type: "closed", counters: snapshot() });
        scope.close();
      });
    },
  };
}
