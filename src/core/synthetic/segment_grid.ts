/**
 * A spatial index of a circuit's centre line: every segment bucketed by
 * each grid cell its road (kerbs included) can reach, so the segment
 * nearest a ground point is found among a handful.
 *
 * @module
 */
import { leftOf } from "../gt7/handedness.ts";
import type { CircuitArrays } from "./circuit_arrays.ts";

/** The centre-line segment nearest a point, where along it, and how far to which side. */
export interface Nearest {
  index: number;
  t: number;
  distance: number;
  lateral: number;
}

/** Centre-line segments bucketed by every grid cell their road can reach. */
export class SegmentGrid {
  readonly #a: CircuitArrays;
  readonly #size: number;
  readonly #x0: number;
  readonly #z0: number;
  readonly #nx: number;
  readonly #nz: number;
  readonly #start: Int32Array;
  readonly #items: Int32Array;

  /** Indexes the segments of `a` for points within `reach` metres of the centre line. */
  constructor(a: CircuitArrays, reach: number) {
    this.#a = a;
    const n = a.x.length;
    const size = 12;
    let minX = Infinity;
    let minZ = Infinity;
    let maxX = -Infinity;
    let maxZ = -Infinity;
    for (let i = 0; i < n; i++) {
      minX = Math.min(minX, a.x[i]);
      maxX = Math.max(maxX, a.x[i]);
      minZ = Math.min(minZ, a.z[i]);
      maxZ = Math.max(maxZ, a.z[i]);
    }
    this.#size = size;
    this.#x0 = minX - reach - size;
    this.#z0 = minZ - reach - size;
    this.#nx = Math.ceil((maxX - minX + 2 * reach + 2 * size) / size) + 1;
    this.#nz = Math.ceil((maxZ - minZ + 2 * reach + 2 * size) / size) + 1;
    const counts = new Int32Array(this.#nx * this.#nz + 1);
    const visit = (fn: (cell: number, seg: number) => void) => {
      for (let i = 0; i < n; i++) {
        const j = (i + 1) % n;
        const cx0 = Math.floor((Math.min(a.x[i], a.x[j]) - reach - this.#x0) / size);
        const cx1 = Math.floor((Math.max(a.x[i], a.x[j]) + reach - this.#x0) / size);
        const cz0 = Math.floor((Math.min(a.z[i], a.z[j]) - reach - this.#z0) / size);
        const cz1 = Math.floor((Math.max(a.z[i], a.z[j]) + reach - this.#z0) / size);
        for (let cx = cx0; cx <= cx1; cx++) {
          for (let cz = cz0; cz <= cz1; cz++) fn(cx * this.#nz + cz, i);
        }
      }
    };
    visit((cell) => counts[cell + 1]++);
    for (let c = 0; c < counts.length - 1; c++) counts[c + 1] += counts[c];
    this.#start = counts;
    this.#items = new Int32Array(counts[counts.length - 1]);
    const fill = counts.slice(0, counts.length - 1);
    visit((cell, seg) => {
      this.#items[fill[cell]++] = seg;
    });
  }

  /** The segment nearest (x, z) within `reach` metres, or null when none is that close. */
  nearest(x: number, z: number, reach: number): Nearest | null {
    const cx = Math.floor((x - this.#x0) / this.#size);
    const cz = Math.floor((z - this.#z0) / this.#size);
    if (cx < 0 || cz < 0 || cx >= this.#nx || cz >= this.#nz) return null;
    const cell = cx * this.#nz + cz;
    const a = this.#a;
    const n = a.x.length;
    let best = -1;
    let bestD2 = reach * reach;
    let bestT = 0;
    for (let k = this.#start[cell]; k < this.#start[cell + 1]; k++) {
      const i = this.#items[k];
      const j = i + 1 === n ? 0 : i + 1;
      const ax = a.x[i];
      const az = a.z[i];
      const dx = a.x[j] - ax;
      const dz = a.z[j] - az;
      const len2 = dx * dx + dz * dz;
      let t = len2 > 0 ? ((x - ax) * dx + (z - az) * dz) / len2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const ex = x - (ax + dx * t);
      const ez = z - (az + dz * t);
      const d2 = ex * ex + ez * ez;
      if (d2 < bestD2) {
        bestD2 = d2;
        best = i;
        bestT = t;
      }
    }
    if (best < 0) return null;
    const j = best + 1 === n ? 0 : best + 1;
    const dx = a.x[j] - a.x[best];
    const dz = a.z[j] - a.z[best];
    const len = Math.sqrt(dx * dx + dz * dz) || 1;
    const [lx, lz] = leftOf(dx / len, dz / len);
    const distance = Math.sqrt(bestD2);
    const side = (x - a.x[best]) * lx + (z - a.z[best]) * lz;
    return { index: best, t: bestT, distance, lateral: side >= 0 ? distance : -distance };
  }
}
