/**
 * A reference line driven as a lap: positions 60 times a second at a
 * plausible racing speed (limited by the line's curvature, by acceleration
 * and by braking), so tests and benchmarks can feed the matchers what a car
 * on that line would send. Deterministic: the same line gives the same lap.
 *
 * @module
 */
import type { ReferenceLine } from "../catalog/reference_lines.ts";

/** Top speed of the replay, m/s (288 km/h). */
export const TOP_SPEED = 80;
/** Slowest speed of the replay, m/s. */
export const MIN_SPEED = 10;
/** Cornering grip, m/s² (about 1.2 g). */
export const LATERAL_ACCEL = 12;
/** Acceleration and braking, m/s². */
export const ACCEL = 5;
export const BRAKE = 9;
/** Half the window over which curvature is measured, metres. */
const CURVE_WINDOW_M = 15;

/** Options of {@linkcode replayLine}. */
export interface ReplayOptions {
  /** Samples per second (default 60). */
  hz?: number;
  /** Drive the line against its order (default false). */
  reverse?: boolean;
  /** Share of the line driven, from its start in the direction driven (default 1). */
  fraction?: number;
}

/** A replayed lap: time (s), speed (km/h) and ground positions (m), parallel arrays. */
export interface ReplayedLap {
  t: Float64Array;
  speed: Float64Array;
  pos_x: Float64Array;
  pos_z: Float64Array;
}

/**
 * Drives `line` once (or the first `fraction` of it) and returns the
 * samples. A loop is driven from its first point back to it; a
 * point-to-point line from end to end. The first sample is at the start;
 * the last is the last whole tick before the end.
 */
export function replayLine(line: ReferenceLine, opts: ReplayOptions = {}): ReplayedLap {
  const hz = opts.hz ?? 60;
  const fraction = Math.min(1, Math.max(0, opts.fraction ?? 1));
  const n = line.x.length;
  const xs = opts.reverse ? Array.from(line.x).reverse() : Array.from(line.x);
  const zs = opts.reverse ? Array.from(line.z).reverse() : Array.from(line.z);
  const s = new Float64Array(n);
  for (let i = 1; i < n; i++) s[i] = s[i - 1] + Math.hypot(xs[i] - xs[i - 1], zs[i] - zs[i - 1]);
  const total = s[n - 1];
  const limit = new Float64Array(n);
  for (let i = 0; i < n; i++) limit[i] = cornerSpeed(xs, zs, s, i, line.loop);
  // Braking backwards and accelerating forwards; a loop wraps, so run each twice.
  const passes = line.loop ? 2 : 1;
  for (let p = 0; p < passes; p++) {
    for (let i = n - 2; i >= 0; i--) {
      const ds = s[i + 1] - s[i];
      limit[i] = Math.min(limit[i], Math.sqrt(limit[i + 1] ** 2 + 2 * BRAKE * ds));
    }
    if (line.loop) limit[n - 1] = Math.min(limit[n - 1], limit[0]);
  }
  for (let p = 0; p < passes; p++) {
    for (let i = 1; i < n; i++) {
      const ds = s[i] - s[i - 1];
      limit[i] = Math.min(limit[i], Math.sqrt(limit[i - 1] ** 2 + 2 * ACCEL * ds));
    }
    if (line.loop) limit[0] = Math.min(limit[0], limit[n - 1]);
  }
  const end = total * fraction;
  const t: number[] = [];
  const speed: number[] = [];
  const px: number[] = [];
  const pz: number[] = [];
  let at = 0;
  let i = 0;
  const dt = 1 / hz;
  while (at < end) {
    while (i + 1 < n - 1 && s[i + 1] <= at) i++;
    const seg = s[i + 1] - s[i];
    const f = seg > 0 ? (at - s[i]) / seg : 0;
    const v = limit[i] + (limit[i + 1] - limit[i]) * f;
    t.push(t.length * dt);
    speed.push(v * 3.6);
    px.push(xs[i] + (xs[i + 1] - xs[i]) * f);
    pz.push(zs[i] + (zs[i + 1] - zs[i]) * f);
    at += v * dt;
  }
  return {
    t: Float64Array.from(t),
    speed: Float64Array.from(speed),
    pos_x: Float64Array.from(px),
    pos_z: Float64Array.from(pz),
  };
}

/** The fastest speed through point i: grip over the curvature measured across ±15 m. */
function cornerSpeed(
  xs: readonly number[],
  zs: readonly number[],
  s: Float64Array,
  i: number,
  loop: boolean,
): number {
  const n = xs.length;
  const total = s[n - 1];
  const at = (k: number): number => {
    if (!loop) return Math.min(n - 1, Math.max(0, k));
    // The loop's last point repeats its first: step over it.
    return ((k % (n - 1)) + (n - 1)) % (n - 1);
  };
  let a = i;
  let back = 0;
  while (back < CURVE_WINDOW_M && (loop || a > 0) && back < total / 4) {
    const prev = at(a - 1);
    back += Math.hypot(xs[a] - xs[prev], zs[a] - zs[prev]);
    a = prev;
  }
  let b = i;
  let ahead = 0;
  while (ahead < CURVE_WINDOW_M && (loop || b < n - 1) && ahead < total / 4) {
    const next = at(b + 1);
    ahead += Math.hypot(xs[next] - xs[b], zs[next] - zs[b]);
    b = next;
  }
  const h1 = Math.atan2(xs[i] - xs[a], zs[i] - zs[a]);
  const h2 = Math.atan2(xs[b] - xs[i], zs[b] - zs[i]);
  let turn = Math.abs(h2 - h1);
  if (turn > Math.PI) turn = 2 * Math.PI - turn;
  const span = back + ahead;
  if (span === 0 || turn === 0) return TOP_SPEED;
  const radius = span / turn;
  return Math.min(TOP_SPEED, Math.max(MIN_SPEED, Math.sqrt(LATERAL_ACCEL * radius)));
}
