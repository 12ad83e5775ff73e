/**
 * Procedural closed circuits with their ground truth: centre line, width,
 * elevation, kerbs, borders and the surface under any point. A circuit is a
 * pure function of its seed.
 *
 * @module
 */
import {
  closedLength,
  type Polyline,
  resampleClosed,
  scaleInPlace,
  smoothClosed,
} from "./polyline.ts";
import { roundCorners } from "./rounded_polygon.ts";
import { leftOf } from "../gt7/handedness.ts";
import { createRng, deriveSeed } from "./random.ts";
import { comesTooClose, selfIntersects } from "./self_overlap.ts";
import { movingAverage } from "./smoothing.ts";

/** Surface letters a synthetic circuit produces: tarmac, kerb, grass. */
export type SurfaceLetter = "T" | "C" | "G";

/** Bounds every generated circuit satisfies. */
export const CIRCUIT_BOUNDS = {
  /** Shortest lap, metres. */
  minLength: 3300,
  /** Longest lap, metres. */
  maxLength: 4700,
  /** Narrowest road, metres. */
  minWidth: 10,
  /** Widest road, metres. */
  maxWidth: 14,
  /** Tightest radius of the centre line, metres. */
  minRadius: 22,
  /** Grass kept between two stretches of road (kerbs included), metres. */
  minGrass: 8,
  /** Curvature (1/m) from which the inside of a corner gets a kerb. */
  kerbCurvature: 1 / 130,
} as const;

/** Nominal spacing of centre-line stations, metres. */
const SPACING = 2;

/** One station of the centre line. */
export interface CentreStation {
  /** Index of the station; station 0 sits on the start/finish line. */
  readonly index: number;
  /** Distance along the centre line from the start/finish line, metres. */
  readonly s: number;
  /** World x of the centre point, metres. */
  readonly x: number;
  /** Elevation of the road, metres. */
  readonly y: number;
  /** World z of the centre point, metres. */
  readonly z: number;
  /** Unit tangent (direction of travel), x component. */
  readonly tx: number;
  /** Unit tangent (direction of travel), z component. */
  readonly tz: number;
  /** Road width (tarmac, kerbs excluded), metres. */
  readonly width: number;
  /** Signed curvature, 1/m: positive turns left, negative turns right. */
  readonly curvature: number;
  /** A kerb lies beyond the left edge here. */
  readonly kerbLeft: boolean;
  /** A kerb lies beyond the right edge here. */
  readonly kerbRight: boolean;
}

/** A point of a border polyline. */
export interface BorderPoint {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

/** Where a ground point lies relative to the centre line. */
export interface Location {
  /** Index of the centre-line segment (from station `index` to the next). */
  readonly index: number;
  /** Position along that segment, 0..1. */
  readonly t: number;
  /** Distance along the centre line of the nearest centre point, metres. */
  readonly s: number;
  /** Signed distance from the centre line: positive left of the direction of travel. */
  readonly lateral: number;
  /** Road width at that point, metres. */
  readonly width: number;
}

/** The per-station arrays of a circuit (read them, never write them). */
export interface CircuitArrays {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly z: Float64Array;
  /** Cumulative distance from station 0. */
  readonly s: Float64Array;
  readonly tx: Float64Array;
  readonly tz: Float64Array;
  readonly width: Float64Array;
  readonly curvature: Float64Array;
  /** 1 where a kerb lies beyond the left edge. */
  readonly kerbLeft: Uint8Array;
  /** 1 where a kerb lies beyond the right edge. */
  readonly kerbRight: Uint8Array;
}

interface Candidate {
  readonly arrays: CircuitArrays;
  readonly length: number;
  readonly kerbWidth: number;
}

/**
 * A closed circuit. Left and right are relative to the direction of travel,
 * which is the order of the stations; the start/finish line crosses the road
 * at station 0, perpendicular to the centre line.
 */
export class Circuit {
  /** The seed the circuit was generated from. */
  readonly seed: number;
  /** Candidates generated before this one passed every check (1 = first try). */
  readonly attempts: number;
  /** Lap length along the centre line, metres. */
  readonly length: number;
  /** Number of centre-line stations. */
  readonly count: number;
  /** Width of every kerb strip, metres. */
  readonly kerbWidth: number;
  /** Per-station ground truth. */
  readonly arrays: CircuitArrays;
  readonly #reach: number;
  readonly #grid: SegmentGrid;

  /** Wraps checked candidate data; use {@linkcode generateCircuit}. */
  constructor(seed: number, attempts: number, candidate: Candidate) {
    this.seed = seed;
    this.attempts = attempts;
    this.length = candidate.length;
    this.arrays = candidate.arrays;
    this.count = candidate.arrays.x.length;
    this.kerbWidth = candidate.kerbWidth;
    let widest = 0;
    for (const w of this.arrays.width) widest = Math.max(widest, w);
    this.#reach = widest / 2 + this.kerbWidth + 0.5;
    this.#grid = new SegmentGrid(this.arrays, this.#reach);
  }

  /** Station `i` (taken modulo the station count). */
  station(i: number): CentreStation {
    const n = this.count;
    const k = ((i % n) + n) % n;
    const a = this.arrays;
    return {
      index: k,
      s: a.s[k],
      x: a.x[k],
      y: a.y[k],
      z: a.z[k],
      tx: a.tx[k],
      tz: a.tz[k],
      width: a.width[k],
      curvature: a.curvature[k],
      kerbLeft: a.kerbLeft[k] === 1,
      kerbRight: a.kerbRight[k] === 1,
    };
  }

  /** Every station of the centre line, in driving order from the line. */
  centreLine(): CentreStation[] {
    return Array.from({ length: this.count }, (_, i) => this.station(i));
  }

  /** The left road edge, one point per station (closed: the last joins the first). */
  leftBorder(): BorderPoint[] {
    return this.#border(1);
  }

  /** The right road edge, one point per station (closed: the last joins the first). */
  rightBorder(): BorderPoint[] {
    return this.#border(-1);
  }

  #border(side: number): BorderPoint[] {
    const a = this.arrays;
    const out: BorderPoint[] = [];
    for (let i = 0; i < this.count; i++) {
      const [lx, lz] = leftOf(a.tx[i], a.tz[i]);
      const half = side * a.width[i] / 2;
      out.push({ x: a.x[i] + lx * half, y: a.y[i], z: a.z[i] + lz * half });
    }
    return out;
  }

  /**
   * The centre-line point `s` metres from the line (any real `s`, wrapped to
   * the lap), linearly interpolated between stations.
   */
  pointAt(s: number): BorderPoint & { width: number; tx: number; tz: number } {
    const a = this.arrays;
    const L = this.length;
    const u = ((s % L) + L) % L;
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (a.s[mid] <= u) lo = mid;
      else hi = mid - 1;
    }
    const j = (lo + 1) % this.count;
    const segLen = (j === 0 ? L : a.s[j]) - a.s[lo];
    const t = segLen > 0 ? (u - a.s[lo]) / segLen : 0;
    const tx = a.tx[lo] + (a.tx[j] - a.tx[lo]) * t;
    const tz = a.tz[lo] + (a.tz[j] - a.tz[lo]) * t;
    const norm = Math.hypot(tx, tz) || 1;
    return {
      x: a.x[lo] + (a.x[j] - a.x[lo]) * t,
      y: a.y[lo] + (a.y[j] - a.y[lo]) * t,
      z: a.z[lo] + (a.z[j] - a.z[lo]) * t,
      width: a.width[lo] + (a.width[j] - a.width[lo]) * t,
      tx: tx / norm,
      tz: tz / norm,
    };
  }

  /**
   * Where (x, z) lies relative to the centre line, or null when it is farther
   * from the road than the kerbs reach (it is then on grass).
   */
  locate(x: number, z: number): Location | null {
    const hit = this.#grid.nearest(x, z, this.#reach);
    if (hit === null) return null;
    const a = this.arrays;
    const i = hit.index;
    const j = (i + 1) % this.count;
    const segLen = (j === 0 ? this.length : a.s[j]) - a.s[i];
    return {
      index: i,
      t: hit.t,
      s: a.s[i] + segLen * hit.t,
      lateral: hit.lateral,
      width: a.width[i] + (a.width[j] - a.width[i]) * hit.t,
    };
  }

  /**
   * The surface under ground point (x, z): "T" within the road, "C" on a
   * kerb strip (beyond an edge, at most `kerbWidth` from it, where that side
   * has a kerb), "G" everywhere else.
   */
  surfaceAt(x: number, z: number): SurfaceLetter {
    const hit = this.#grid.nearest(x, z, this.#reach);
    if (hit === null) return "G";
    const a = this.arrays;
    const i = hit.index;
    const j = (i + 1) % this.count;
    const half = (a.width[i] + (a.width[j] - a.width[i]) * hit.t) / 2;
    const d = hit.distance;
    if (d <= half) return "T";
    if (d > half + this.kerbWidth) return "G";
    const k = hit.t < 0.5 ? i : j;
    const kerb = hit.lateral >= 0 ? a.kerbLeft[k] : a.kerbRight[k];
    return kerb === 1 ? "C" : "G";
  }
}

interface Nearest {
  index: number;
  t: number;
  distance: number;
  lateral: number;
}

/** Centre-line segments bucketed by every grid cell their road can reach. */
class SegmentGrid {
  readonly #a: CircuitArrays;
  readonly #size: number;
  readonly #x0: number;
  readonly #z0: number;
  readonly #nx: number;
  readonly #nz: number;
  readonly #start: Int32Array;
  readonly #items: Int32Array;

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

function wrapAngle(a: number): number {
  return a - 2 * Math.PI * Math.round(a / (2 * Math.PI));
}

function rotate(arr: Float64Array, by: number): Float64Array {
  const n = arr.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = arr[(i + by) % n];
  return out;
}

/** Tangents and signed curvature of a closed, evenly spaced polyline. */
function differentiate(line: Polyline): { tx: Float64Array; tz: Float64Array; k: Float64Array } {
  const n = line.x.length;
  const tx = new Float64Array(n);
  const tz = new Float64Array(n);
  const h = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = (i - 1 + n) % n;
    const q = (i + 1) % n;
    const dx = line.x[q] - line.x[p];
    const dz = line.z[q] - line.z[p];
    const len = Math.hypot(dx, dz) || 1;
    tx[i] = dx / len;
    tz[i] = dz / len;
    h[i] = Math.atan2(tx[i], tz[i]);
  }
  const raw = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = (i - 1 + n) % n;
    const q = (i + 1) % n;
    const ds = Math.hypot(line.x[i] - line.x[p], line.z[i] - line.z[p]) +
      Math.hypot(line.x[q] - line.x[i], line.z[q] - line.z[i]);
    // Heading grows when turning left (see handedness.ts), so dh/ds is the left-positive curvature.
    raw[i] = wrapAngle(h[q] - h[p]) / (ds || 1);
  }
  return { tx, tz, k: movingAverage(raw, 2, true) };
}

/**
 * Kerb flags for one side: where that side is the inside of a tight enough
 * corner (by the smoothed curvature `bend`), stretched a few metres either
 * way but never into a bend the other way (by the raw curvature `k`).
 */
function kerbFlags(bend: Float64Array, k: Float64Array, sign: number): Uint8Array {
  const n = bend.length;
  const raw = new Uint8Array(n);
  for (let i = 0; i < n; i++) raw[i] = sign * bend[i] >= CIRCUIT_BOUNDS.kerbCurvature ? 1 : 0;
  const grow = 4;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (raw[i] !== 1) continue;
    for (let d = -grow; d <= grow; d++) {
      const m = (i + d + n) % n;
      if (sign * k[m] > -5e-4) out[m] = 1;
    }
  }
  // Drop kerb strips too short to be real (a brief curvature blip).
  const minRun = 8;
  if (out.every((v) => v === 1)) return out;
  let start = 0;
  while (out[start] === 1) start++;
  let i = 0;
  while (i < n) {
    const k0 = (start + i) % n;
    if (out[k0] === 0) {
      i++;
      continue;
    }
    let len = 0;
    while (len < n && out[(start + i + len) % n] === 1) len++;
    if (len < minRun) {
      for (let d = 0; d < len; d++) out[(start + i + d) % n] = 0;
    }
    i += len;
  }
  return out;
}

function buildCandidate(seed: number, attempt: number): Candidate | null {
  const rng = createRng(deriveSeed(seed, attempt + 1));
  // Repeated failures calm the shape down; at calm = 0 it is a
  // regular polygon with wide rounded corners, which always passes.
  const calm = Math.max(0, 1 - attempt / 40);
  const n = 8 + rng.int(7);
  const a2 = rng.range(0.05, 0.3) * calm;
  const p2 = rng.range(0, 2 * Math.PI);
  const jitter = 0.3 * calm;
  const pinch = rng.next() < 0.5 ? rng.int(n) : -1;
  const px: number[] = [];
  const pz: number[] = [];
  for (let k = 0; k < n; k++) {
    const th = 2 * Math.PI * (k + rng.range(-0.35, 0.35) * calm) / n;
    let r = 1 + a2 * Math.cos(2 * th + p2) + rng.range(-jitter, jitter);
    if (k === pinch) r *= 1 - 0.5 * calm;
    r = Math.max(0.3, r);
    px.push(r * Math.sin(th));
    pz.push(r * Math.cos(th));
  }
  const target = rng.range(CIRCUIT_BOUNDS.minLength + 100, CIRCUIT_BOUNDS.maxLength - 100);
  let perimeter = 0;
  for (let k = 0; k < n; k++) {
    const q = (k + 1) % n;
    perimeter += Math.hypot(px[q] - px[k], pz[q] - pz[k]);
  }
  for (let k = 0; k < n; k++) {
    px[k] *= target / perimeter;
    pz[k] *= target / perimeter;
  }
  // Mostly tight-to-medium corners, an occasional fast sweeper.
  const radii = px.map(() => {
    const u = rng.next();
    return 26 + (calm > 0 ? 150 * u * u : 400);
  });
  const rounded = roundCorners(px, pz, radii, 1);
  if (rounded === null) return null;
  const smooth = smoothClosed(rounded, 6);
  scaleInPlace(smooth, target / closedLength(smooth));
  const count = Math.round(target / SPACING);
  let line: Polyline = resampleClosed(smooth, count);
  if (rng.next() < 0.5) line = { x: line.x.slice().reverse(), z: line.z.slice().reverse() };

  let diff = differentiate(line);
  let maxK = 0;
  for (const v of diff.k) maxK = Math.max(maxK, Math.abs(v));
  if (maxK > 1 / CIRCUIT_BOUNDS.minRadius) return null;

  // The line goes in the middle of the straightest stretch (+-80 m).
  const win = 40;
  const absK = diff.k.map(Math.abs);
  let startIdx = 0;
  let bestPeak = Infinity;
  for (let i = 0; i < count; i++) {
    let peak = 0;
    for (let d = -win; d <= win; d++) peak = Math.max(peak, absK[(i + d + count) % count]);
    if (peak < bestPeak) {
      bestPeak = peak;
      startIdx = i;
    }
  }
  line = { x: rotate(line.x, startIdx), z: rotate(line.z, startIdx) };
  diff = differentiate(line);

  const s = new Float64Array(count);
  for (let i = 1; i < count; i++) {
    s[i] = s[i - 1] + Math.hypot(line.x[i] - line.x[i - 1], line.z[i] - line.z[i - 1]);
  }
  const length = s[count - 1] +
    Math.hypot(line.x[0] - line.x[count - 1], line.z[0] - line.z[count - 1]);

  const w0 = rng.range(10.8, 13.2);
  const wa = rng.range(0.2, 0.7);
  const wf = 1 + rng.int(3);
  const wp = rng.range(0, 2 * Math.PI);
  const y0 = rng.range(5, 60);
  const hills = [1, 2, 3].map((f, idx) => ({
    f,
    amp: rng.range(0, [7, 3.5, 1.5][idx]),
    phase: rng.range(0, 2 * Math.PI),
  }));
  const kerbWidth = rng.range(1.0, 1.5);
  const width = new Float64Array(count);
  const y = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const frac = s[i] / length;
    width[i] = Math.min(
      CIRCUIT_BOUNDS.maxWidth - 0.05,
      Math.max(CIRCUIT_BOUNDS.minWidth + 0.05, w0 + wa * Math.sin(2 * Math.PI * wf * frac + wp)),
    );
    let h = y0;
    for (const hill of hills) h += hill.amp * Math.sin(2 * Math.PI * hill.f * frac + hill.phase);
    y[i] = h;
  }
  const bend = movingAverage(diff.k, 4, true);
  const arrays: CircuitArrays = {
    x: line.x,
    y,
    z: line.z,
    s,
    tx: diff.tx,
    tz: diff.tz,
    width,
    curvature: diff.k,
    kerbLeft: kerbFlags(bend, diff.k, 1),
    kerbRight: kerbFlags(bend, diff.k, -1),
  };

  let widest = 0;
  for (const w of width) widest = Math.max(widest, w);
  const clearance = widest + 2 * kerbWidth + CIRCUIT_BOUNDS.minGrass;
  if (comesTooClose(line, length / count, clearance, 2 * clearance)) return null;
  if (selfIntersects(line, true)) return null;
  for (const side of [1, -1]) {
    const bx = new Float64Array(count);
    const bz = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      const [lx, lz] = leftOf(diff.tx[i], diff.tz[i]);
      const off = side * (width[i] / 2 + kerbWidth);
      bx[i] = line.x[i] + lx * off;
      bz[i] = line.z[i] + lz * off;
    }
    if (selfIntersects({ x: bx, z: bz }, true)) return null;
  }
  return { arrays, length, kerbWidth };
}

/**
 * Generates the circuit of `seed`: closed, 3.3-4.7 km long, 10-14 m wide,
 * no tighter than 22 m in radius, never crossing or touching itself (at
 * least 8 m of grass between separate stretches, kerbs included), with
 * kerbs on the inside of tight corners and gentle hills. The same seed
 * always gives the same circuit; a rejected candidate is retried from a
 * seed derived from the same seed.
 */
export function generateCircuit(seed: number): Circuit {
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  for (let attempt = 0;; attempt++) {
    const candidate = buildCandidate(seed, attempt);
    if (candidate !== null) return new Circuit(seed, attempt + 1, candidate);
  }
}
