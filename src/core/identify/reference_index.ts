/**
 * A spatial index over every reference line's points, so that "which lines
 * pass within {@linkcode NEAR_M} of this position, and where along each?"
 * costs a few table reads whatever the number of lines. Built once per set of
 * lines and shared by the whole-lap matcher and the live one.
 *
 * @module
 */
import { type ReferenceLine, referenceLines } from "../catalog/reference_lines.ts";

/**
 * A lap position within this of one of a line's points is on the line,
 * metres. Lines keep a point at least every 5 m, so a position up to about
 * 9.7 m from the line itself is always on it.
 */
export const NEAR_M = 10;

/**
 * The points of a set of reference lines, flattened into typed arrays, and
 * an open-addressing hash of square cells of {@linkcode NEAR_M} listing the
 * points in each cell: every point within NEAR_M of a position lies in one
 * of the 3 x 3 cells around it. Immutable once built; the arrays are
 * exposed for the followers' inner loop and must not be written.
 */
export class ReferenceIndex {
  /** The lines, in the order their numbers (0..n-1) refer to. */
  readonly lines: readonly ReferenceLine[];
  /** Side of a cell, metres. */
  readonly cell_m: number;
  /** First point of each line in the flat arrays, and one past the last (length lines + 1). */
  readonly lineStart: Int32Array;
  /** Recorded (not inferred) metres of each line: what a whole lap must pass. */
  readonly recordedM: Float64Array;
  /** Per line: 1 for a loop, 0 for a point-to-point line; and its length, metres. */
  readonly loop: Uint8Array;
  readonly lengthM: Float64Array;
  /** Per point: its line, position and distance along its line. */
  readonly pointLine: Uint16Array;
  readonly px: Float64Array;
  readonly pz: Float64Array;
  readonly ps: Float64Array;
  /** Per point: length of the segment to the next point (0 for a line's last), and 1 if inferred. */
  readonly segLen: Float64Array;
  readonly segInferred: Uint8Array;
  /**
   * The hash of cells: a cell (cx, cz) sits in the first slot from
   * `cellHash(cx, cz) & mask` onwards whose keys match, before any empty slot
   * (count -1). Its points are `entries[start[slot] .. start[slot] + count[slot])`.
   */
  readonly mask: number;
  readonly keyX: Int32Array;
  readonly keyZ: Int32Array;
  readonly start: Int32Array;
  readonly count: Int32Array;
  /** Point ids listed cell by cell. */
  readonly entries: Int32Array;

  /** Indexes `lines` with cells of `cell_m` metres. */
  constructor(lines: readonly ReferenceLine[], cell_m = NEAR_M) {
    if (lines.length > 0xffff) throw new Error("lines: at most 65,535 reference lines");
    if (!(cell_m > 0)) throw new Error("cell_m must be greater than 0");
    this.lines = lines;
    this.cell_m = cell_m;
    const n = lines.length;
    this.lineStart = new Int32Array(n + 1);
    let points = 0;
    for (let k = 0; k < n; k++) {
      this.lineStart[k] = points;
      points += lines[k].x.length;
    }
    this.lineStart[n] = points;
    this.recordedM = new Float64Array(n);
    this.loop = new Uint8Array(n);
    this.lengthM = new Float64Array(n);
    this.pointLine = new Uint16Array(points);
    this.px = new Float64Array(points);
    this.pz = new Float64Array(points);
    this.ps = new Float64Array(points);
    this.segLen = new Float64Array(points);
    this.segInferred = new Uint8Array(points);
    const cellX = new Int32Array(points);
    const cellZ = new Int32Array(points);
    for (let k = 0; k < n; k++) {
      const line = lines[k];
      this.loop[k] = line.loop ? 1 : 0;
      this.lengthM[k] = line.length_m;
      const first = this.lineStart[k];
      for (let i = 0; i < line.x.length; i++) {
        const g = first + i;
        this.pointLine[g] = k;
        this.px[g] = line.x[i];
        this.pz[g] = line.z[i];
        this.ps[g] = line.s[i];
        cellX[g] = Math.floor(line.x[i] / cell_m);
        cellZ[g] = Math.floor(line.z[i] / cell_m);
        if (i + 1 < line.x.length) {
          this.segLen[g] = line.s[i + 1] - line.s[i];
          this.segInferred[g] = line.inferred[i];
          if (line.inferred[i] === 0) this.recordedM[k] += this.segLen[g];
        }
      }
    }
    let size = 1024;
    while (size < points * 2) size *= 2;
    const mask = size - 1;
    const keyX = new Int32Array(size);
    const keyZ = new Int32Array(size);
    const start = new Int32Array(size);
    const count = new Int32Array(size).fill(-1);
    const slotOf = new Int32Array(points);
    for (let g = 0; g < points; g++) {
      const x = cellX[g];
      const z = cellZ[g];
      let slot = cellHash(x, z) & mask;
      while (count[slot] !== -1 && (keyX[slot] !== x || keyZ[slot] !== z)) slot = (slot + 1) & mask;
      if (count[slot] === -1) {
        count[slot] = 0;
        keyX[slot] = x;
        keyZ[slot] = z;
      }
      count[slot]++;
      slotOf[g] = slot;
    }
    let offset = 0;
    for (let slot = 0; slot < size; slot++) {
      if (count[slot] <= 0) continue;
      start[slot] = offset;
      offset += count[slot];
    }
    const entries = new Int32Array(points);
    const filled = new Int32Array(size);
    for (let g = 0; g < points; g++) {
      const slot = slotOf[g];
      entries[start[slot] + filled[slot]++] = g;
    }
    this.mask = mask;
    this.keyX = keyX;
    this.keyZ = keyZ;
    this.start = start;
    this.count = count;
    this.entries = entries;
  }

  /** Number of points over all lines. */
  get points(): number {
    return this.pointLine.length;
  }
}

/** The hash of cell (cx, cz), before masking with {@linkcode ReferenceIndex.mask}. */
export function cellHash(cx: number, cz: number): number {
  return Math.imul(cx, 73856093) ^ Math.imul(cz, 19349663);
}

let shared: ReferenceIndex | null = null;

/** The index over every reference line the project ships, built on first use and then shared. */
export function defaultReferenceIndex(): ReferenceIndex {
  shared ??= new ReferenceIndex(referenceLines());
  return shared;
}
