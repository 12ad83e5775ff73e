/**
 * The receive worker's batching: packets are decrypted straight into one
 * staging buffer, and a batch (its bytes in one transferred ArrayBuffer)
 * goes to the main thread when the main thread has consumed the previous
 * one (so batches grow while it is busy) once the socket has nothing more
 * queued, or when it is full. Counter-only messages (garbage, heartbeats)
 * go out between batches, at most one every {@linkcode COUNTERS_SPACING_MS}.
 *
 * @module
 */
import { PACKET_SIZE } from "../core/gt7/format.ts";
import type { FromWorker, WorkerCounters } from "./udp_worker_protocol.ts";

/** Packets per batch at most; a batch this full goes out whatever the main thread is doing. */
export const MAX_BATCH = 256;
/** Shortest spacing of counter-only messages (garbage, heartbeats): at most 200 a second. */
export const COUNTERS_SPACING_MS = 5;
const LARGEST_PACKET = Math.max(...Object.values(PACKET_SIZE));

/** Posts a message to the main thread, transferring `transfer`. */
export type Post = (message: FromWorker, transfer?: Transferable[]) => void;

/** The batch being built and the pacing of what goes to the main thread. */
export class Batches {
  readonly #post: Post;
  readonly #snapshot: () => WorkerCounters;
  readonly #staging = new Uint8Array(MAX_BATCH * LARGEST_PACKET);
  readonly #sizes = new Uint16Array(MAX_BATCH);
  #count = 0;
  #bytes = 0;
  #posted = 0;
  #consumedSeq = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #lastPostAt = -Infinity;
  #closing = false;
  /** The counters changed since they last went out. */
  countersDirty = false;

  /** Batches posted through `post`, each with the counters `snapshot` gives. */
  constructor(post: Post, snapshot: () => WorkerCounters) {
    this.#post = post;
    this.#snapshot = snapshot;
  }

  /**
   * Where a packet of `length` bytes is to be decrypted: the free end of the
   * staging buffer, after posting the batch when it would not fit.
   */
  slot(length: number): Uint8Array {
    if (this.#bytes + length > this.#staging.length) this.post();
    return this.#staging.subarray(this.#bytes, this.#bytes + length);
  }

  /** Keeps the first `kept` bytes of the slot just filled as a packet; posts a full batch. */
  add(kept: number): void {
    this.#sizes[this.#count++] = kept;
    this.#bytes += kept;
    if (this.#count === MAX_BATCH) this.post();
  }

  /** Posts the batch being built now, if it holds any packet. */
  post(): void {
    if (this.#count === 0) return;
    const bytes = this.#staging.slice(0, this.#bytes).buffer;
    this.#post(
      {
        type: "batch",
        seq: ++this.#posted,
        bytes,
        sizes: this.#sizes.slice(0, this.#count),
        counters: this.#snapshot(),
      },
      [bytes],
    );
    this.#count = 0;
    this.#bytes = 0;
    this.countersDirty = false;
    this.#lastPostAt = performance.now();
  }

  /**
   * Arranges a flush: a zero timer fires once the receive loop waits on an
   * empty socket, so all that was queued is in the batch, and a lone packet
   * at 60 Hz goes at once.
   */
  schedule(): void {
    if (this.#timer === null) this.#timer = setTimeout(() => this.#flush(), 0);
  }

  /** Flushes now: nothing more is queued on the socket. */
  flushNow(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#flush();
  }

  /** The main thread consumed batch `seq`: the next one may go. */
  consumed(seq: number): void {
    this.#consumedSeq = seq;
    if (this.#count > 0 && this.#posted === this.#consumedSeq) this.post();
  }

  /** Stops the timers; a final {@linkcode post} still sends what is staged. */
  close(): void {
    this.#closing = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
  }

  #flush(): void {
    this.#timer = null;
    if (this.#closing) return;
    if (this.#count > 0) {
      if (this.#posted === this.#consumedSeq) this.post();
      // Otherwise the main thread's next `consumed` sends it.
    } else if (this.countersDirty) {
      const wait = this.#lastPostAt + COUNTERS_SPACING_MS - performance.now();
      if (wait > 0) {
        this.#timer = setTimeout(() => this.#flush(), wait);
        return;
      }
      this.countersDirty = false;
      this.#lastPostAt = performance.now();
      this.#post({ type: "counters", counters: this.#snapshot() });
    }
  }
}
