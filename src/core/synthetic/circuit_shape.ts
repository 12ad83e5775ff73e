/**
 * The shape of a synthetic circuit drawn from a seed: a rounded, smoothed
 * polygon resampled into stations, the start/finish line moved to the
 * straightest stretch, widths, hills and kerbs laid along it, and the
 * checks (tightest radius, grass between stretches, no crossing) that make
 * a candidate acceptable.
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
import { CIRCUIT_BOUNDS, type CircuitArrays, type CircuitCandidate } from "./circuit_arrays.ts";

/** Nominal spacing of centre-line stations, metres. */
const SPACING = 2;

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

/**
 * Where the line goes: the middle of the straightest stretch (+-80 m), the
 * sample whose window of curvature `k` has the lowest peak (the first such).
 */
function straightestStart(k: ArrayLike<number>): number {
  const win = 40;
  const count = k.length;
  const absK = Array.from(k, Math.abs);
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
  return startIdx;
}

/** The distance along closed `line` of each sample, and the whole lap. */
function arcLengths(line: Polyline): { s: Float64Array; length: number } {
  const count = line.x.length;
  const s = new Float64Array(count);
  for (let i = 1; i < count; i++) {
    s[i] = s[i - 1] + Math.hypot(line.x[i] - line.x[i - 1], line.z[i] - line.z[i - 1]);
  }
  const length = s[count - 1] +
    Math.hypot(line.x[0] - line.x[count - 1], line.z[0] - line.z[count - 1]);
  return { s, length };
}

/**
 * Candidate `attempt` (0, 1, ...) of `seed`'s circuit, or null when it fails
 * a check. Later attempts draw calmer shapes; from attempt 40 on, a regular
 * polygon with wide rounded corners, which always passes.
 */
export function buildCandidate(seed: number, attempt: number): CircuitCandidate | null {
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

  const startIdx = straightestStart(diff.k);
  line = { x: rotate(line.x, startIdx), z: rotate(line.z, startIdx) };
  diff = differentiate(line);
  const { s, length } = arcLengths(line);

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
