/**
 * The receive worker: owns the telemetry socket so that nothing on the main
 * event loop (storing a lap, a bundle import, the dashboard, a collection)
 * can make the kernel drop a packet. It receives into one reused buffer,
 * records raw datagrams when asked, checks size, decrypts, checks the magic,
 * accounts for packet ids, and hands the decrypted packets to the main thread
 * in batches (one transferred ArrayBuffer each). It also sends the heartbeats
 * and, to a console on loopback only, acknowledgements of what the main
 * thread consumed, which pace a replay. Started by src/capture/udp_client.ts.
 *
 * This file composes named parts: the socket and its drain
 * (receiver_socket.ts), accounting (receiver_counters.ts), batching
 * (receiver_batches.ts), heartbeats and acknowledgements
 * (receiver_heartbeats.ts), recording (record_writer.ts) and the relay
 * (relay_socket.ts).
 *
 * @module
 */
import { decryptPacket } from "../core/gt7/cipher.ts";
import { readPacketId } from "../core/gt7/decode.ts";
import { formatOfSize, PACKET_SIZE, type PacketFormat } from "../core/gt7/format.ts";
import { richestFormat } from "../core/gt7/relay_packet.ts";
import { collector } from "./memory_tidy.ts";
import { Batches, type Post } from "./receiver_batches.ts";
import { ReceiverCounters } from "./receiver_counters.ts";
import { Heartbeats } from "./receiver_heartbeats.ts";
import { receiveLoop, type SizedSocket, sizeSocket } from "./receiver_socket.ts";
import { RecordWriter } from "./record_writer.ts";
import { openRelay, type RelaySocket } from "./relay_socket.ts";
import type { FromWorker, StartMessage, ToWorker, WorkerCounters } from "./udp_worker_protocol.ts";

const TICK_MS = 100;

interface WorkerScope {
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
  close(): void;
}

const scope = self as unknown as WorkerScope;
const post: Post = (message, transfer) => scope.postMessage(message, transfer);

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

/** Reports a failure to start, closing what was opened, and ends the worker. */
function failed(name: string, message: string, opened: { close(): void }[]): null {
  for (const part of opened) part.close();
  post({ type: "failed", name, message });
  scope.close();
  return null;
}

/** The recorder `opts` asks for (null for none); throws when the file can not be opened. */
function openRecorder(opts: StartMessage, notice: (line: string) => void): RecordWriter | null {
  return opts.record ? new RecordWriter(opts.record, Date.now(), notice) : null;
}

/** The parts a running receiver is made of. */
interface Parts {
  readonly opts: StartMessage;
  readonly conn: Deno.DatagramConn;
  readonly recorder: RecordWriter | null;
  readonly notice: (line: string) => void;
}

/**
 * Binds the socket and opens the recorder and relay `opts` asks for, then
 * runs the receiver; null (the worker told and closed) when any fails.
 */
function startReceiver(opts: StartMessage): Receiver | null {
  let conn: Deno.DatagramConn;
  try {
    conn = Deno.listenDatagram({ hostname: opts.hostname, port: opts.port, transport: "udp" });
  } catch (err) {
    return failed((err as Error).name, (err as Error).message, []);
  }
  const notice = (line: string) => post({ type: "notice", line });
  let recorder: RecordWriter | null;
  try {
    recorder = openRecorder(opts, notice);
  } catch (err) {
    const message = `cannot record to ${opts.record!.path}: ${(err as Error).message}`;
    return failed("RecordError", message, [conn]);
  }
  const parts: Parts = { opts, conn, recorder, notice };
  // The relay (--relay, --forward): see relay_socket.ts; hooks below are marked "relay".
  const relayHook: { onChange: () => void } = { onChange: () => {} };
  let relay: RelaySocket | null = null;
  if (opts.relay) {
    try {
      relay = openRelayFor(parts, () => relayHook.onChange());
    } catch (err) {
      // Not "AddrInUse": that name is the telemetry port's, and the message names --relay.
      return failed("RelayError", (err as Error).message, [conn, {
        close: () => recorder?.close(),
      }]);
    }
  }
  return runReceiver(parts, relay, relayHook);
}

/** Opens the relay of `parts.opts`, telling `onChange` when its apps change. */
function openRelayFor(parts: Parts, onChange: () => void): RelaySocket {
  const local = parts.conn.addr as Deno.NetAddr;
  let toldSelf = false;
  return openRelay(parts.opts.relay!, onChange, undefined, {
    port: local.port,
    onSelf: () => {
      if (toldSelf) return;
      toldSelf = true;
      parts.notice(
        "the logger's own heartbeats reach its relay port (is --console-port the --relay port?); ignored",
      );
    },
  });
}

/** The running parts a datagram and a tick go through. */
interface Running {
  readonly opts: StartMessage;
  readonly recorder: RecordWriter | null;
  readonly relay: RelaySocket | null;
  readonly counters: ReceiverCounters;
  readonly batches: Batches;
  readonly heartbeats: Heartbeats;
  readonly notice: (line: string) => void;
  /** A copy of the counters, with the recorder's and relay's state. */
  readonly snapshot: () => WorkerCounters;
  /** relay: the format of the console's last packet, before any cut. */
  relayConsoleFormat: PacketFormat | null;
  /** The heap was collected since the stream last stalled. */
  collectedSinceStall: boolean;
}

/** Builds the accounting, batching and heartbeat parts over opened `parts`. */
function running(parts: Parts, relay: RelaySocket | null, sized: SizedSocket): Running {
  const { opts, conn, recorder, notice } = parts;
  const counters = new ReceiverCounters(sized.location);
  const snapshot = (): WorkerCounters => {
    const extra: Partial<WorkerCounters> = { record: recorder?.status() ?? null };
    if (relay !== null) {
      extra.relay = {
        ...relay.hub.counters(),
        listen: relay.listen,
        requestedFormat: heartbeats.lastAsked,
        consoleFormat: run.relayConsoleFormat,
      };
    }
    return counters.snapshot(extra);
  };
  const batches = new Batches(post, snapshot);
  const heartbeats = new Heartbeats({
    conn,
    console: opts.console,
    consolePort: opts.consolePort,
    acks: opts.acks,
    // relay: the console is asked for the richest format the logger or any relayed app needs.
    asked: () => askedFormat(opts, relay),
    counters: counters.values,
    onSent: () => countersChanged(batches),
    notice,
  }, opts.format);
  const run: Running = {
    opts,
    recorder,
    relay,
    counters,
    batches,
    heartbeats,
    notice,
    snapshot,
    relayConsoleFormat: null,
    collectedSinceStall: false,
  };
  return run;
}

/** The format the console is asked for: the logger's, or the richest a relayed app needs. */
function askedFormat(opts: StartMessage, relay: RelaySocket | null): PacketFormat {
  return relay === null ? opts.format : richestFormat([opts.format, relay.hub.wanted() ?? "A"])!;
}

/** The counters changed: they go out with the next batch, or on their own soon. */
function countersChanged(batches: Batches): void {
  batches.countersDirty = true;
  batches.schedule();
}

/** One datagram: recorded, checked, decrypted into the batch, accounted for and relayed. */
function handleDatagram(run: Running, data: Uint8Array): void {
  const { counters, batches, relay } = run;
  counters.received();
  const atMs = Date.now();
  run.recorder?.write(atMs, data);
  const format = formatOfSize(data.length);
  if (format === null) {
    counters.rejected("size");
    batches.countersDirty = true;
    return;
  }
  const plain = decryptPacket(data, format, batches.slot(data.length));
  if (plain === null) {
    counters.rejected("magic");
    batches.countersDirty = true;
    return;
  }
  // relay: the logger keeps its own format whatever an app made it ask for.
  const kept = relay === null ? data.length : Math.min(data.length, PACKET_SIZE[run.opts.format]);
  counters.packet(readPacketId(plain), formatOfSize(kept), atMs);
  run.heartbeats.packetArrived();
  run.collectedSinceStall = false;
  if (relay !== null) {
    run.relayConsoleFormat = format;
    try {
      relay.hub.relay(data, plain);
    } catch (err) {
      run.notice(`relaying a packet failed: ${(err as Error).message}`);
    }
  }
  batches.add(kept);
}

/**
 * Every {@linkcode TICK_MS}: the rate and kernel drops, the recorder's and
 * relay's housekeeping, heartbeats, and one heap collection per stall (a
 * fast stream grows this isolate's heap; a collection once it stops gives
 * that back, see memory_tidy.ts, with no packet to delay).
 */
function startTicking(run: Running): ReturnType<typeof setInterval> {
  const collect = collector();
  return setInterval(() => {
    const now = performance.now();
    const { batches, heartbeats } = run;
    if (run.counters.tick(now)) batches.countersDirty = true;
    run.recorder?.tick(Date.now());
    if (run.relay?.hub.sweep()) batches.countersDirty = true;
    heartbeats.tick(now);
    if (heartbeats.stalled(now) && !run.collectedSinceStall) {
      run.collectedSinceStall = true;
      collect?.();
    }
    if (batches.countersDirty) batches.schedule();
  }, TICK_MS);
}

/** Runs the receiver over opened parts: accounting, batching, heartbeats, the receive loop. */
function runReceiver(
  parts: Parts,
  relay: RelaySocket | null,
  relayHook: { onChange: () => void },
): Receiver {
  const { opts, conn, recorder, notice } = parts;
  const local = conn.addr as Deno.NetAddr;
  const sized = sizeSocket(local, opts.receiveBufferBytes);
  const run = running(parts, relay, sized);
  const { counters, batches, heartbeats, snapshot } = run;
  let closing = false;
  relayHook.onChange = () => {
    if (askedFormat(opts, relay) !== heartbeats.lastAsked) heartbeats.heartbeat();
    countersChanged(batches);
  };
  const tick = startTicking(run);
  const loop = receiveLoop(conn, sized.location, {
    datagram(data) {
      try {
        handleDatagram(run, data);
      } catch (err) {
        notice(`dropping a datagram that failed: ${(err as Error).message}`);
      }
    },
    // Nothing more queued: hand the batch over now rather than a timer tick later.
    drained: (empty) => empty ? batches.flushNow() : batches.schedule(),
    closing: () => closing,
    notice,
  });

  post({
    type: "listening",
    hostname: local.hostname,
    port: local.port,
    receiveBufferBytes: sized.buffer.bytes,
    receiveBufferNote: sized.buffer.note,
    counters: snapshot(),
  });
  heartbeats.heartbeat();

  return {
    consumed(seq, packetId) {
      heartbeats.consumed(packetId);
      batches.consumed(seq);
    },
    close() {
      if (closing) return;
      closing = true;
      clearInterval(tick);
      batches.close();
      heartbeats.close();
      counters.finalDrops();
      try {
        conn.close();
      } catch {
        // Already closed.
      }
      Promise.all([loop, relay?.close()]).then(() => {
        batches.post();
        recorder?.close();
        post({ type: "closed", counters: snapshot() });
        scope.close();
      });
    },
  };
}
