/**
 * The shape of a path given as world positions in driving order (a
 * reference line, or a lap's positions): heading and signed curvature every
 * metre of the path's own length. Unlike {@linkcode lineProfile}, which
 * reads a lap at its speed-integrated distance, this walks the positions
 * themselves, so a recorder's repeated, missing or jittery samples cannot
 * stretch or squeeze a bend: positions are thinned to one every
 * {@linkcode THIN_M} (repeats add no length), a hole is bridged by the
 * straight line across it, a single position thrown off its neighbours is
 * left out, and jitter is averaged out over a few metres of path before any
 * heading is taken.
 *
 * A loop is measured across its closing point, and its profile is rotated
 * to start on its straightest metre, so no bend is ever cut in two by the
 * start of the arrays.
 *
 * @module
 */
import {
  CURVATURE_HALF_WINDOW_M,
  HEADING_HALF_CHORD_M,
  type LineProfile,
  PROFILE_STEP_M,
} from "./curvature.ts";

/** Positions are averaged over this much path on each side before headings are taken, metres. */
export const SMOOTH_HALF_M = 4;

/**
 * A position is kept only this far from the last one kept, metres: a car
 * at rest or a repeated sample adds nothing, and jitter between close
 * samples cannot add length (0.5 m of noise on samples 1 m apart would
 * add a tenth).
 */
export const THIN_M = 3;

/**
 * A position further than this from both its neighbours, which lie closer
 * than this to each other, is a glitch and is left out, metres.
 */
export const GLITCH_M = 8;

/** Ends of a loop closer than this are one point, metres. */
const SAME_POINT_M = 0.05;

/**
 * A path's profile. Its arrays are {@linkcode LineProfile}'s, indexed from
 * `offset` metres along the path (0 for an open path); `dist` holds the
 * path distance of each point, so `dist[k]` need not grow from 0 on a loop.
 */
export interface PathProfile extends LineProfile {
  /** Index of the path's own start (distance 0) in the arrays. */
  readonly offset: number;
  /** Length of the path, metres (a loop's includes the closing segment). */
  readonly length: number;
  readonly loop: boolean;
}

/** Options of {@linkcode pathProfile}. */
export interface PathOptions {
  /**
   * The distance of each position along the path (a lap's speed-integrated
   * `dist`), used instead of the positions' own spacing: noise on the
   * positions then adds no length at all. Positions that do not move the
   * distance on (repeats) are left out.
   */
  dist?: ArrayLike<number>;
  /** Half the span positions are averaged over, metres (default {@linkcode SMOOTH_HALF_M}). */
  smoothHalfM?: number;
}

/**
 * Profiles the path through `x`, `z` (parallel, in driving order). Points
 * that are not finite are skipped. A loop (`loop`) is closed from its last
 * point back to its first. Throws an Error when fewer than two distinct
 * finite points remain.
 */
export function pathProfile(
  x: ArrayLike<number>,
  z: ArrayLike<number>,
  loop: boolean,
  opts: PathOptions = {},
): PathProfile {
  const along = opts.dist;
  const px: number[] = [];
  const pz: number[] = [];
  const ps: number[] = [];
  const n0 = Math.min(x.length, z.length);
  const ok = (i: number) => i >= 0 && i < n0 && Number.isFinite(x[i]) && Number.isFinite(z[i]);
  const gap = (i: number, j: number) => Math.hypot(x[i] - x[j], z[i] - z[j]);
  for (let i = 0; i < n0; i++) {
    const a = x[i];
    const b = z[i];
    if (!ok(i)) continue;
    // A glitch: one position thrown off from neighbours that lie close together.
    if (
      ok(i - 1) && ok(i + 1) && gap(i - 1, i + 1) < GLITCH_M &&
      Math.min(gap(i, i - 1), gap(i, i + 1)) > GLITCH_M
    ) continue;
    const k = px.length;
    if (along) {
      const d = along[i];
      if (!Number.isFinite(d) || (k > 0 && d < ps[k - 1] + SAME_POINT_M)) continue;
      ps.push(d);
    } else if (k > 0 && Math.hypot(a - px[k - 1], b - pz[k - 1]) < THIN_M) continue;
    px.push(a);
    pz.push(b);
  }
  if (loop && px.length > 1 && Math.hypot(px[0] - px.at(-1)!, pz[0] - pz.at(-1)!) < SAME_POINT_M) {
    px.pop();
    pz.pop();
    ps.pop();
  }
  if (px.length < 2) throw new Error("path: needs at least 2 distinct finite positions");
  if (loop) {
    const closing = Math.hypot(px[0] - px.at(-1)!, pz[0] - pz.at(-1)!);
    px.push(px[0]);
    pz.push(pz[0]);
    if (along) ps.push(ps.at(-1)! + closing);
  }
  // Cumulative length (or the distances given, from 0), then resampled every PROFILE_STEP_M.
  const cum = new Float64Array(px.length);
  for (let i = 1; i < px.length; i++) {
    cum[i] = along ? ps[i] - ps[0] : cum[i - 1] + Math.hypot(px[i] - px[i - 1], pz[i] - pz[i - 1]);
  }
  const length = cum[cum.length - 1];
  const n = loop
    ? Math.max(3, Math.round(length / PROFILE_STEP_M))
    : Math.floor(length / PROFILE_STEP_M) + 1;
  const step = loop ? length / n : PROFILE_STEP_M;
  const rx = new Float64Array(n);
  const rz = new Float64Array(n);
  let j = 1;
  for (let k = 0; k < n; k++) {
    const s = k * step;
    while (j < cum.length - 1 && cum[j] < s) j++;
    const seg = cum[j] - cum[j - 1];
    const f = seg > 0 ? (s - cum[j - 1]) / seg : 0;
    rx[k] = px[j - 1] + (px[j] - px[j - 1]) * f;
    rz[k] = pz[j - 1] + (pz[j] - pz[j - 1]) * f;
  }
  const at = loop
    ? (k: number) => ((k % n) + n) % n
    : (k: number) => Math.min(n - 1, Math.max(0, k));
  const half = Math.round((opts.smoothHalfM ?? SMOOTH_HALF_M) / step);
  const sx = smooth(rx, at, half);
  const sz = smooth(rz, at, half);
  // Heading by chords, and curvature as the heading change across a window, both wrapping on a loop.
  const c = Math.max(1, Math.round(HEADING_HALF_CHORD_M / step));
  const raw = new Float64Array(n);
  let prev = 0;
  for (let k = 0; k < n; k++) {
    const a = at(k - c);
    const b = at(k + c);
    const dx = sx[b] - sx[a];
    const dz = sz[b] - sz[a];
    raw[k] = Math.hypot(dx, dz) > 0 ? Math.atan2(dx, dz) : prev;
    prev = raw[k];
  }
  const w = Math.max(1, Math.round(CURVATURE_HALF_WINDOW_M / step));
  const curv = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const a = at(k - w);
    const b = at(k + w);
    const span = loop ? 2 * w * step : (b - a) * step;
    curv[k] = span > 0 ? angleStep(raw[a], raw[b]) / span : 0;
  }
  const offset = loop ? quietest(curv) : 0;
  const dist = new Float64Array(n);
  const ox = new Float64Array(n);
  const oz = new Float64Array(n);
  const heading = new Float64Array(n);
  const curvature = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const src = (k + offset) % n;
    dist[k] = src * step;
    ox[k] = sx[src];
    oz[k] = sz[src];
    curvature[k] = curv[src];
    heading[k] = k === 0 ? raw[src] : heading[k - 1] + angleStep(raw[(src - 1 + n) % n], raw[src]);
  }
  return {
    dist,
    x: ox,
    z: oz,
    heading,
    curvature,
    offset: loop ? (n - offset) % n : 0,
    length,
    loop,
  };
}

/** The signed short way from heading `a` to heading `b`, radians. */
function angleStep(a: number, b: number): number {
  let d = b - a;
  d -= 2 * Math.PI * Math.round(d / (2 * Math.PI));
  return d;
}

/** Moving average over `half` points each side (indices mapped by `at`). */
function smooth(v: Float64Array, at: (k: number) => number, half: number): Float64Array {
  if (half < 1) return v;
  const out = new Float64Array(v.length);
  for (let k = 0; k < v.length; k++) {
    let sum = 0;
    for (let d = -half; d <= half; d++) sum += v[at(k + d)];
    out[k] = sum / (2 * half + 1);
  }
  return out;
}

/**
 * The index the rotated profile starts at: the straightest point of the
 * loop (the first of equals from the line), so no bend is cut in two.
 */
function quietest(curv: Float64Array): number {
  let best = 0;
  for (let k = 1; k < curv.length; k++) if (Math.abs(curv[k]) < Math.abs(curv[best])) best = k;
  return best;
}
