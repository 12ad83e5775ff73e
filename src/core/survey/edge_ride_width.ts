/**
 * The fallback track-width measurement: a ride out over one straight edge
 * and back (REFERENCE.md 2.2). Every wheel crossing of the edge is a point
 * on one straight line, but where that point lies depends on the track
 * width (the wheel sits half of it to one side of the car). The width that
 * makes the crossing points most nearly collinear is the measurement.
 *
 * @module
 */
import { leftOf } from "../gt7/handedness.ts";
import { SampleMedian } from "./median.ts";

/** The gates and bounds of the edge-ride solver. */
export const EDGE_RIDE = {
  /** Longest span of one ride, ticks. */
  maxTicks: 180,
  /** Smallest dot product between the headings of the crossings used. */
  minHeadingDot: 0.95,
  /** Plausible widths, metres. */
  minWidth: 0.8,
  maxWidth: 2.4,
  /** Step of the width search, metres. */
  step: 0.005,
  /** Largest RMS distance of the crossing points from their line at the solution, metres. */
  maxResidual: 0.1,
  /** How much worse (RMS, metres) the worst width must fit than the best: the ride must pin the width. */
  minContrast: 0.05,
  /** Results needed before the median is used. */
  minResults: 3,
  /** Results kept. */
  maxResults: 200,
} as const;

/** One wheel crossing from tarmac to off (out) or back (in). */
export interface WheelCrossing {
  /** 0 FL, 1 FR, 2 RL, 3 RR. */
  wheel: number;
  /** True when the wheel left the tarmac. */
  out: boolean;
  /** Tick count of the crossing. */
  tick: number;
  /** Car centre when the wheel crossed (between the two ticks), metres. */
  x: number;
  z: number;
  /** Unit heading. */
  fx: number;
  fz: number;
}

const RECENT = 16;

/** Mean squared distance of points (xs, zs) from their best-fitting line. */
function lineResidual(xs: Float64Array, zs: Float64Array): number {
  const n = xs.length;
  let mx = 0;
  let mz = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i];
    mz += zs[i];
  }
  mx /= n;
  mz /= n;
  let sxx = 0;
  let szz = 0;
  let sxz = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i] - mx;
    const dz = zs[i] - mz;
    sxx += dx * dx;
    szz += dz * dz;
    sxz += dx * dz;
  }
  sxx /= n;
  szz /= n;
  sxz /= n;
  // The smaller eigenvalue of the covariance: the variance across the best line.
  const half = (sxx + szz) / 2;
  return Math.max(0, half - Math.sqrt(((sxx - szz) / 2) ** 2 + sxz * sxz));
}

/**
 * The track width that puts every crossing of `ride` on one straight line,
 * or null when the ride does not pin it down (too few crossings, a poor
 * fit, or a fit that hardly depends on the width).
 */
export function solveEdgeRide(ride: readonly WheelCrossing[], wheelbase: number): number | null {
  const n = ride.length;
  if (n < 3) return null;
  const bx = new Float64Array(n);
  const bz = new Float64Array(n);
  const sx = new Float64Array(n);
  const sz = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = ride[i];
    const along = (c.wheel < 2 ? 0.5 : -0.5) * wheelbase;
    const [lx, lz] = leftOf(c.fx, c.fz);
    const side = (c.wheel & 1) === 0 ? 0.5 : -0.5;
    bx[i] = c.x + along * c.fx;
    bz[i] = c.z + along * c.fz;
    sx[i] = side * lx;
    sz[i] = side * lz;
  }
  const xs = new Float64Array(n);
  const zs = new Float64Array(n);
  let best = NaN;
  let bestResidual = Infinity;
  let worstResidual = 0;
  for (let tw = EDGE_RIDE.minWidth; tw <= EDGE_RIDE.maxWidth + 1e-9; tw += EDGE_RIDE.step) {
    for (let i = 0; i < n; i++) {
      xs[i] = bx[i] + tw * sx[i];
      zs[i] = bz[i] + tw * sz[i];
    }
    const r = lineResidual(xs, zs);
    if (r < bestResidual) {
      bestResidual = r;
      best = tw;
    }
    worstResidual = Math.max(worstResidual, r);
  }
  const rms = Math.sqrt(bestResidual);
  if (rms > EDGE_RIDE.maxResidual) return null;
  if (Math.sqrt(worstResidual) - rms < EDGE_RIDE.minContrast) return null;
  // A best fit at the edge of the range is the range talking, not the ride.
  if (best <= EDGE_RIDE.minWidth + EDGE_RIDE.step || best >= EDGE_RIDE.maxWidth - EDGE_RIDE.step) {
    return null;
  }
  return best;
}

/** Collects wheel crossings and solves every ride out over an edge and back. */
export class EdgeRideEstimator {
  readonly #recent: WheelCrossing[] = [];
  readonly #results = new SampleMedian(EDGE_RIDE.maxResults);

  /** Solved rides so far. */
  get samples(): number {
    return this.#results.count;
  }

  /**
   * Feeds one crossing. A wheel coming back onto the tarmac within 180
   * ticks of leaving it closes a ride: the crossings since, with headings
   * close to this one's, are solved together. Returns the width solved, if any.
   */
  observe(crossing: WheelCrossing, wheelbase: number): number | null {
    const recent = this.#recent;
    while (recent.length > 0 && crossing.tick - recent[0].tick > EDGE_RIDE.maxTicks) {
      recent.shift();
    }
    recent.push(crossing);
    if (recent.length > RECENT) recent.shift();
    if (crossing.out) return null;
    if (!recent.some((e) => e.out && e.wheel === crossing.wheel)) return null;
    const ride = recent.filter((e) =>
      e.fx * crossing.fx + e.fz * crossing.fz >= EDGE_RIDE.minHeadingDot
    );
    const width = solveEdgeRide(ride, wheelbase);
    if (width !== null) {
      this.#results.push(width);
      // Each crossing serves one ride only.
      recent.length = 0;
    }
    return width;
  }

  /** The median width, or null before 3 solved rides. */
  estimate(): number | null {
    return this.#results.median(EDGE_RIDE.minResults);
  }

  /** Forgets everything (another car). */
  reset(): void {
    this.#recent.length = 0;
    this.#results.clear();
  }
}
