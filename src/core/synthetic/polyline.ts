/**
 * Closed planar polylines: length, even resampling into stations, and
 * positional smoothing (which turns abrupt curvature changes into gradual
 * ones, as transition curves do on real roads).
 *
 * @module
 */
import { movingAverage } from "./smoothing.ts";

/** A planar polyline as two parallel coordinate arrays (x and z). */
export interface Polyline {
  readonly x: Float64Array;
  readonly z: Float64Array;
}

/** Length of a closed polyline, including the closing segment. */
export function closedLength(line: Polyline): number {
  const n = line.x.length;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    total += Math.hypot(line.x[j] - line.x[i], line.z[j] - line.z[i]);
  }
  return total;
}

/**
 * Resamples a closed polyline into `count` points spaced evenly along its
 * length, the first at the polyline's first point.
 */
export function resampleClosed(line: Polyline, count: number): Polyline {
  const n = line.x.length;
  const total = closedLength(line);
  const step = total / count;
  const x = new Float64Array(count);
  const z = new Float64Array(count);
  let seg = 0;
  let segStart = 0;
  let segLen = Math.hypot(line.x[1 % n] - line.x[0], line.z[1 % n] - line.z[0]);
  for (let k = 0; k < count; k++) {
    const target = k * step;
    while (segStart + segLen < target && seg < n - 1) {
      segStart += segLen;
      seg++;
      const nxt = (seg + 1) % n;
      segLen = Math.hypot(line.x[nxt] - line.x[seg], line.z[nxt] - line.z[seg]);
    }
    const t = segLen > 0 ? Math.min(1, (target - segStart) / segLen) : 0;
    const nxt = (seg + 1) % n;
    x[k] = line.x[seg] + (line.x[nxt] - line.x[seg]) * t;
    z[k] = line.z[seg] + (line.z[nxt] - line.z[seg]) * t;
  }
  return { x, z };
}

/** Averages each point of a closed polyline with its `half` neighbours on either side. */
export function smoothClosed(line: Polyline, half: number): Polyline {
  return { x: movingAverage(line.x, half, true), z: movingAverage(line.z, half, true) };
}

/** Scales every coordinate of the polyline in place by `factor` about the origin. */
export function scaleInPlace(line: Polyline, factor: number): void {
  for (let i = 0; i < line.x.length; i++) {
    line.x[i] *= factor;
    line.z[i] *= factor;
  }
}
