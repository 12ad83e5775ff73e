/**
 * The shape of the driven line: heading and signed curvature over a lap's
 * distance, from the x/z positions alone. Positive curvature is a left turn
 * (a positive yaw rate turns left in the GT7 world; see gt7/handedness.ts).
 *
 * @module
 */
import { distanceGrid } from "./distance_grid.ts";
import { type LapTrace, locate, valueAtPoint } from "./lap_trace.ts";

/** Spacing of the profile's points, metres. */
export const PROFILE_STEP_M = 1;

/** Half the chord a heading is measured over, metres: long enough to ride out position jitter. */
export const HEADING_HALF_CHORD_M = 3;

/**
 * Half the window curvature is averaged over, metres. Curvature is the
 * heading change across the window divided by its length, which smooths
 * the line without shifting a bend.
 */
export const CURVATURE_HALF_WINDOW_M = 10;

/** Chords shorter than this (a car at rest) keep the previous heading, metres. */
const MIN_CHORD_M = 0.25;

/** The driven line sampled every {@linkcode PROFILE_STEP_M} of the lap's own distance. */
export interface LineProfile {
  /** Lap distance of each point, metres; the last point is the lap's length. */
  dist: Float64Array;
  x: Float64Array;
  z: Float64Array;
  /** Direction of travel, radians, atan2(dx, dz), unwrapped so it runs continuously. */
  heading: Float64Array;
  /** Signed curvature, 1/m: heading change per metre, + left, - right. */
  curvature: Float64Array;
}

/** Heading and smoothed curvature of the lap's line. */
export function lineProfile(trace: LapTrace): LineProfile {
  const dist = distanceGrid(trace.length, PROFILE_STEP_M);
  const n = dist.length;
  const at = locate(trace, dist);
  const x = new Float64Array(n);
  const z = new Float64Array(n);
  const px = trace.samples.pos_x;
  const pz = trace.samples.pos_z;
  for (let k = 0; k < n; k++) {
    x[k] = valueAtPoint(px, at.i[k], at.w[k]);
    z[k] = valueAtPoint(pz, at.i[k], at.w[k]);
  }
  const heading = new Float64Array(n);
  const c = Math.max(1, Math.round(HEADING_HALF_CHORD_M / PROFILE_STEP_M));
  let prev = 0;
  for (let k = 0; k < n; k++) {
    const a = Math.max(0, k - c);
    const b = Math.min(n - 1, k + c);
    const dx = x[b] - x[a];
    const dz = z[b] - z[a];
    let h = Math.hypot(dx, dz) >= MIN_CHORD_M ? Math.atan2(dx, dz) : prev;
    if (k > 0) {
      // Unwrap: the step from the previous heading is the short way round.
      let step = h - prev;
      step -= 2 * Math.PI * Math.round(step / (2 * Math.PI));
      h = prev + step;
    }
    heading[k] = h;
    prev = h;
  }
  const curvature = new Float64Array(n);
  const s = Math.max(1, Math.round(CURVATURE_HALF_WINDOW_M / PROFILE_STEP_M));
  for (let k = 0; k < n; k++) {
    const a = Math.max(0, k - s);
    const b = Math.min(n - 1, k + s);
    const span = dist[b] - dist[a];
    curvature[k] = span > 0 ? (heading[b] - heading[a]) / span : 0;
  }
  return { dist, x, z, heading, curvature };
}
