/**
 * The messages between the telemetry client (main thread) and its receive
 * worker. Only plain data crosses: settings in, decrypted packets (a
 * transferred ArrayBuffer per batch) and counter snapshots out, and the main
 * thread's progress back in, which paces acknowledgements.
 *
 * @module
 */
import type { PacketFormat } from "../core/gt7/format.ts";
import type { RecordOptions, RecordStatus } from "./record_writer.ts";
import type { RelayCounters } from "./relay_hub.ts";
import type { RelayOptions } from "./relay_socket.ts";

/** Settings of the worker's socket. */
export interface StartMessage {
  readonly type: "start";
  readonly hostname: string;
  readonly port: number;
  readonly console: string | null;
  readonly consolePort: number;
  readonly format: PacketFormat;
  /** True when acknowledgements may go to the console (it is on loopback). */
  readonly acks: boolean;
  /** Receive buffer to ask the kernel for, bytes; 0 keeps the default. */
  readonly receiveBufferBytes: number;
  readonly record: RecordOptions | null;
  /** `--relay` / `--forward`: other apps to send the console's packets on to; null for none. */
  readonly relay?: RelayOptions | null;
}

/** The main thread delivered batch `seq`, the last of whose packets had id `packetId`. */
export interface ConsumedMessage {
  readonly type: "consumed";
  readonly seq: number;
  readonly packetId: number;
}

/** Stop: close the socket, flush the recording, answer `closed`. */
export interface CloseMessage {
  readonly type: "close";
}

/** What the main thread sends. */
export type ToWorker = StartMessage | ConsumedMessage | CloseMessage;

/** The worker's counters; the main thread keeps the latest. */
export interface WorkerCounters {
  received: number;
  rejectedSize: number;
  rejectedMagic: number;
  duplicates: number;
  missing: number;
  restarts: number;
  heartbeats: number;
  acks: number;
  lastFormat: PacketFormat | null;
  /** Unix ms of the last valid packet, or null. */
  lastPacketAtMs: number | null;
  packetsPerSecond: number;
  kernelDrops: number | null;
  record: RecordStatus | null;
  /** The relay's state, or null (or absent) when nothing is relayed. */
  relay?: RelayWorkerCounters | null;
}

/** The relay as the worker reports it. */
export interface RelayWorkerCounters extends RelayCounters {
  /** `IP:port` apps heartbeat, or null with `--forward` targets only. */
  readonly listen: string | null;
  /** The letter the logger now heartbeats the console with: the richest anyone needs. */
  readonly requestedFormat: PacketFormat;
  /** Format of the console's last packet before any cut, or null before the first. */
  readonly consoleFormat: PacketFormat | null;
}

/** Bound: the local address and what became of the receive buffer. */
export interface ListeningMessage {
  readonly type: "listening";
  readonly hostname: string;
  readonly port: number;
  readonly receiveBufferBytes: number | null;
  readonly receiveBufferNote: string;
  readonly counters: WorkerCounters;
}

/** Binding (or opening the record file) failed; the worker is done. */
export interface FailedMessage {
  readonly type: "failed";
  /** The error's class name, such as "AddrInUse". */
  readonly name: string;
  readonly message: string;
}

/**
 * Decrypted packets, back to back in `bytes` (transferred), `sizes[i]` bytes
 * each, in arrival order; batches are numbered from 1.
 */
export interface BatchMessage {
  readonly type: "batch";
  readonly seq: number;
  readonly bytes: ArrayBuffer;
  readonly sizes: Uint16Array;
  readonly counters: WorkerCounters;
}

/** Counters changed with no packet to hand over (garbage, heartbeats, the rate). */
export interface CountersMessage {
  readonly type: "counters";
  readonly counters: WorkerCounters;
}

/** A line to announce (record rotation, socket errors). */
export interface NoticeMessage {
  readonly type: "notice";
  readonly line: string;
}

/** The socket is closed and the recording flushed; nothing follows. */
export interface ClosedMessage {
  readonly type: "closed";
  readonly counters: WorkerCounters;
}

/** What the worker sends. */
export type FromWorker =
  | ListeningMessage
  | FailedMessage
  | BatchMessage
  | CountersMessage
  | NoticeMessage
  | ClosedMessage;
