/**
 * Procedural closed circuits with their ground truth: centre line, width,
 * elevation, kerbs, borders and the surface under any point. A circuit is a
 * pure function of its seed; its shape is drawn in circuit_shape.ts.
 *
 * @module
 */
import { leftOf } from "../gt7/handedness.ts";
import type { CircuitArrays, CircuitCandidate } from "./circuit_arrays.ts";
import { buildCandidate } from "./circuit_shape.ts";
import { SegmentGrid } from "./segment_grid.ts";

/** Surface letters a synthetic circuit produces: tarmac, kerb, grass. */
export type SurfaceLetter = "T" | "C" | "G";

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
  constructor(seed: number, attempts: number, candidate: CircuitCandidate) {
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
