/**
 * Accounting of the console's packet counter: repeats, packets that never
 * arrived, and stream restarts. The receive worker keeps the one instance;
 * nothing else counts them.
 *
 * @module
 */

/**
 * The largest forward jump of the packet id still counted as lost packets:
 * ten minutes at 60 Hz. A larger jump (or any backwards one) is a new stream
 * (the game restarted, another console), not a loss.
 */
export const MAX_COUNTED_GAP = 10 * 60 * 60;

/** Counts over every packet id seen. */
export interface PacketCounts {
  /** Packets whose id repeated the previous one. */
  duplicates: number;
  /** Packet ids skipped by a forward jump of at most {@linkcode MAX_COUNTED_GAP}. */
  missing: number;
  /** Backwards jumps and forward jumps beyond {@linkcode MAX_COUNTED_GAP}. */
  restarts: number;
}

/** Accounting of one stream of packet ids, in arrival order. */
export class PacketAccounting implements PacketCounts {
  duplicates = 0;
  missing = 0;
  restarts = 0;
  #last: number | null = null;

  /**
   * Accounts for the next packet id: a repeat adds a duplicate, a forward
   * gap of `g` adds `g - 1` missing, a restart adds a restart. Returns true
   * for a duplicate.
   */
  see(packetId: number): boolean {
    const last = this.#last;
    this.#last = packetId;
    if (last === null) return false;
    const gap = packetId - last;
    if (gap === 0) {
      this.duplicates++;
      return true;
    }
    if (gap < 0 || gap > MAX_COUNTED_GAP) this.restarts++;
    else if (gap > 1) this.missing += gap - 1;
    return false;
  }
}
