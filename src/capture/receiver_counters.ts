/**
 * The receive worker's accounting: what it received and refused, the
 * console's packet counter (repeats, losses, restarts), the packet rate
 * over one-second windows and the datagrams the kernel dropped for the
 * socket, read from /proc once a second.
 *
 * @module
 */
import type { PacketFormat } from "../core/gt7/format.ts";
import { PacketAccounting } from "./packet_accounting.ts";
import { readKernelDrops, type SocketLocation } from "./socket_buffer.ts";
import type { WorkerCounters } from "./udp_worker_protocol.ts";

const DROPS_EVERY_MS = 1000;

/** The counters the worker reports, kept current. */
export class ReceiverCounters {
  readonly #socket: SocketLocation | null;
  readonly #accounting = new PacketAccounting();
  readonly #values: WorkerCounters;
  #windowStart = performance.now();
  #windowCount = 0;
  #dropsReadAt = performance.now();

  /** Counters of the socket `socket` locates (null: kernel drops unknown). */
  constructor(socket: SocketLocation | null) {
    this.#socket = socket;
    this.#values = {
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
      record: null,
    };
  }

  /** The live values, for the parts that count into them (heartbeats, acks). */
  get values(): WorkerCounters {
    return this.#values;
  }

  /** Counts a datagram received, whatever it holds. */
  received(): void {
    this.#values.received++;
  }

  /** Counts a datagram of no packet size (`size`) or one that did not decrypt (`magic`). */
  rejected(why: "size" | "magic"): void {
    if (why === "size") this.#values.rejectedSize++;
    else this.#values.rejectedMagic++;
  }

  /** Counts a valid packet with id `packetId`, kept as `format`, received at Unix ms `atMs`. */
  packet(packetId: number, format: PacketFormat | null, atMs: number): void {
    this.#accounting.see(packetId);
    this.#values.lastFormat = format;
    this.#values.lastPacketAtMs = atMs;
    this.#windowCount++;
  }

  /** Closes the rate window and reads the kernel's drops when due; true when either changed. */
  tick(now: number): boolean {
    let changed = false;
    const values = this.#values;
    if (now - this.#windowStart >= 1000) {
      const rate = Math.round((this.#windowCount * 10_000) / (now - this.#windowStart)) / 10;
      if (rate !== values.packetsPerSecond) changed = true;
      values.packetsPerSecond = rate;
      this.#windowStart = now;
      this.#windowCount = 0;
    }
    if (this.#socket && now - this.#dropsReadAt >= DROPS_EVERY_MS) {
      this.#dropsReadAt = now;
      const drops = readKernelDrops(this.#socket);
      if (drops !== values.kernelDrops) changed = true;
      values.kernelDrops = drops;
    }
    return changed;
  }

  /** Reads the kernel's drops one last time (the socket is closing). */
  finalDrops(): void {
    if (this.#socket) {
      this.#values.kernelDrops = readKernelDrops(this.#socket) ?? this.#values.kernelDrops;
    }
  }

  /** A copy of the counters, with `extra` (the recorder's and relay's state) laid over them. */
  snapshot(extra: Partial<WorkerCounters>): WorkerCounters {
    const values = this.#values;
    values.duplicates = this.#accounting.duplicates;
    values.missing = this.#accounting.missing;
    values.restarts = this.#accounting.restarts;
    Object.assign(values, extra);
    return { ...values };
  }
}
