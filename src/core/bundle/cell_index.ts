/**
 * A table from cell (rounded x, rounded z, side) to a number, for the merge.
 * `cellKey` (cell.ts) packs a cell into one number past 2^31, which a `Map`
 * hashes as a boxed double: at 100,000 lookups a merge spent more time
 * there than anywhere else. This table keeps the two rounded coordinates as
 * 32-bit integers in typed arrays (open addressing, linear probing), so a
 * lookup allocates nothing.
 *
 * @module
 */
import { roundHalfEven } from "./cell.ts";
import type { Side } from "./types.ts";

const EMPTY = -1;

/**
 * Cell -> non-negative integer. Two positions share an entry exactly when
 * `cellKey` (cell.ts) says they are one cell, for coordinates within the
 * bundle's +-10,000,000 m limit (every validated document's).
 */
export class CellIndex {
  #mask: number;
  #xs: Int32Array;
  #zs: Int32Array;
  #values: Int32Array;
  #size = 0;

  /** An empty table sized for about `expected` cells (it grows past that). */
  constructor(expected = 16) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.#mask = capacity - 1;
    this.#xs = new Int32Array(capacity);
    this.#zs = new Int32Array(capacity);
    this.#values = new Int32Array(capacity).fill(EMPTY);
  }

  /** Cells held. */
  get size(): number {
    return this.#size;
  }

  /** The value of the cell of (x, z, side), or -1 when it holds none. */
  get(x: number, z: number, side: Side): number {
    const rx = roundHalfEven(x);
    // Side rides in the low bit: |z| <= 10^7 leaves room in 32 bits.
    const rz = roundHalfEven(z) * 2 + (side === "R" ? 1 : 0);
    return this.#values[this.#slot(rx, rz)];
  }

  /**
   * Sets the value of the cell of (x, z, side) when it holds none and
   * returns -1; otherwise leaves it and returns the value it holds.
   */
  setIfAbsent(x: number, z: number, side: Side, value: number): number {
    const rx = roundHalfEven(x);
    const rz = roundHalfEven(z) * 2 + (side === "R" ? 1 : 0);
    const slot = this.#slot(rx, rz);
    const held = this.#values[slot];
    if (held !== EMPTY) return held;
    this.#xs[slot] = rx;
    this.#zs[slot] = rz;
    this.#values[slot] = value;
    if (++this.#size * 2 > this.#mask) this.#grow();
    return EMPTY;
  }

  /** The slot holding (rx, rz), or the empty slot where it would go. */
  #slot(rx: number, rz: number): number {
    // Both coordinates through murmur3's finaliser, so neighbouring cells scatter.
    let h = Math.imul(rx, 0x9e3779b1) ^ rz;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    let slot = (h ^ (h >>> 16)) & this.#mask;
    for (;;) {
      const held = this.#values[slot];
      if (held === EMPTY || (this.#xs[slot] === rx && this.#zs[slot] === rz)) return slot;
      slot = (slot + 1) & this.#mask;
    }
  }

  #grow(): void {
    const xs = this.#xs;
    const zs = this.#zs;
    const values = this.#values;
    const capacity = (this.#mask + 1) * 2;
    this.#mask = capacity - 1;
    this.#xs = new Int32Array(capacity);
    this.#zs = new Int32Array(capacity);
    this.#values = new Int32Array(capacity).fill(EMPTY);
    for (let i = 0; i < values.length; i++) {
      if (values[i] === EMPTY) continue;
      const slot = this.#slot(xs[i], zs[i]);
      this.#xs[slot] = xs[i];
      this.#zs[slot] = zs[i];
      this.#values[slot] = values[i];
    }
  }
}
