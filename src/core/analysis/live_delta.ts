/**
 * The running gap to a reference lap: where the car is now is matched to the
 * nearest point of the reference lap's path, and the time the reference took
 * to get there is subtracted from the time into the current lap. Pure; the
 * live frames (src/app/live/live_frames.ts) and the terminal view both use it, so
 * every face shows the same gap.
 *
 * @module
 */

/** A reference lap's path and clock: parallel arrays, one entry per sample. */
export interface ReferencePath {
  /** Seconds into the lap. */
  readonly t: ArrayLike<number>;
  /** World x, metres. */
  readonly x: ArrayLike<number>;
  /** World z, metres. */
  readonly z: ArrayLike<number>;
}

/** A gap and where on the reference it was measured. */
export interface TraceDelta {
  /** Current elapsed minus the reference's time at this point, ms (negative = ahead). */
  deltaMs: number;
  /** The reference sample nearest the car; pass it back as the next `hint`. */
  index: number;
}

/** Farther than this from the reference path, the car is not on the same line (metres). */
export const MAX_OFF_LINE_M = 40;

/** Samples searched behind the hint (2 s at 60 Hz). */
const BEHIND = 120;
/** Samples searched ahead of the hint (10 s at 60 Hz). */
const AHEAD = 600;

/**
 * The gap to `trace` for a car at (`x`, `z`) that is `elapsedMs` into its
 * lap. Only the window from 2 s behind to 10 s ahead of `hint` is searched,
 * so a car just past the line is never matched to the reference's last
 * metres; without a hint the window is centred on the reference sample at
 * `elapsedMs`. Returns null when the trace is empty or the car is more than
 * {@linkcode MAX_OFF_LINE_M} from the searched stretch of path.
 */
export function deltaToTrace(
  trace: ReferencePath,
  x: number,
  z: number,
  elapsedMs: number,
  hint: number | null,
): TraceDelta | null {
  const n = trace.t.length;
  if (n === 0 || !Number.isFinite(x) || !Number.isFinite(z)) return null;
  const centre = hint ?? indexAtTime(trace, elapsedMs / 1000);
  const from = Math.max(0, centre - BEHIND);
  const to = Math.min(n - 1, centre + AHEAD);
  let best = -1;
  let bestD2 = MAX_OFF_LINE_M * MAX_OFF_LINE_M;
  for (let i = from; i <= to; i++) {
    const dx = trace.x[i] - x;
    const dz = trace.z[i] - z;
    const d2 = dx * dx + dz * dz;
    if (d2 <= bestD2) {
      bestD2 = d2;
      best = i;
    }
  }
  if (best < 0) return null;
  const refSeconds = timeAlong(trace, best, x, z);
  return { deltaMs: elapsedMs - refSeconds * 1000, index: best };
}

/** The first sample at or after `seconds` (the last one when the lap is shorter). */
function indexAtTime(trace: ReferencePath, seconds: number): number {
  let lo = 0;
  let hi = trace.t.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (trace.t[mid] < seconds) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The reference time at the car's projection onto the path next to sample
 * `i`: samples are ~1.5 m apart at speed, so interpolating keeps the gap
 * steady instead of stepping by a sample period.
 */
function timeAlong(trace: ReferencePath, i: number, x: number, z: number): number {
  let bestT = trace.t[i];
  let bestD2 = Infinity;
  for (const [a, b] of [[i - 1, i], [i, i + 1]]) {
    if (a < 0 || b >= trace.t.length) continue;
    const sx = trace.x[b] - trace.x[a];
    const sz = trace.z[b] - trace.z[a];
    const len2 = sx * sx + sz * sz;
    const u = len2 > 0
      ? Math.min(1, Math.max(0, ((x - trace.x[a]) * sx + (z - trace.z[a]) * sz) / len2))
      : 0;
    const px = trace.x[a] + u * sx - x;
    const pz = trace.z[a] + u * sz - z;
    const d2 = px * px + pz * pz;
    if (d2 < bestD2) {
      bestD2 = d2;
      bestT = trace.t[a] + u * (trace.t[b] - trace.t[a]);
    }
  }
  return bestT;
}
