/**
 * Corners found from the driven line alone: stretches where the line bends
 * one way, found on the signed curvature with hysteresis, and split where a
 * long bend has two distinct apexes.
 *
 * @module
 */
import type { Side } from "../bundle/types.ts";
import { type LineProfile, lineProfile } from "./curvature.ts";
import type { LapTrace } from "./lap_trace.ts";
import type { LapCorner } from "./types.ts";

/** Tuning of corner detection. */
export interface DetectOptions {
  /** Curvature a bend must reach to be a corner, 1/m (the inverse of its tightest radius). */
  enterCurvature: number;
  /** Curvature below which a corner has ended, 1/m. */
  exitCurvature: number;
  /** Heading change a corner must make, degrees: a straight's drift never holds one. */
  minTurnDeg: number;
  /**
   * A bend whose curvature sinks between two apexes to at most this share
   * of the lesser apex's is two corners (a double apex, or a chicane
   * whose halves turn the same way).
   */
  splitRatio: number;
  /** Heading change each half of a split must make, degrees. */
  splitMinTurnDeg: number;
}

/**
 * The defaults, chosen on real laps (docs/analysis.md has the survey): a
 * radius of 300 m or tighter makes a corner, which lasts until the radius
 * opens past 500 m or the bend turns the other way; a corner turns at least
 * 10 degrees; a bend whose curvature dips to 85 % of its lesser apex is two
 * corners when each half turns 20 degrees or more.
 */
export const DETECT_DEFAULTS: Readonly<DetectOptions> = Object.freeze({
  enterCurvature: 1 / 300,
  exitCurvature: 1 / 500,
  minTurnDeg: 10,
  splitRatio: 0.85,
  splitMinTurnDeg: 20,
});

/** One bend found on a profile, by profile index. */
export interface Bend {
  /** First and last profile index of the bend, and its apex (tightest point). */
  start: number;
  end: number;
  apex: number;
  /** +1 left, -1 right. */
  sign: 1 | -1;
  /** Heading change over the bend, degrees, signed like the bend. */
  turnDeg: number;
}

const DEG = 180 / Math.PI;

/** The bends of a profile that qualify as corners, in lap order. */
export function findBends(profile: LineProfile, opts: Partial<DetectOptions> = {}): Bend[] {
  const o = { ...DETECT_DEFAULTS, ...opts };
  const k = profile.curvature;
  const n = k.length;
  const bends: Bend[] = [];
  let i = 0;
  while (i < n) {
    const sign = Math.sign(k[i]);
    if (sign === 0 || Math.abs(k[i]) < o.exitCurvature) {
      i++;
      continue;
    }
    // A run of one sign above the exit threshold; it is a bend if it reaches the entry one.
    let j = i;
    while (j + 1 < n && Math.sign(k[j + 1]) === sign && Math.abs(k[j + 1]) >= o.exitCurvature) j++;
    split(profile, i, j, sign as 1 | -1, o, bends);
    i = j + 1;
  }
  return bends;
}

function peakOf(k: Float64Array, a: number, b: number): number {
  let best = a;
  for (let i = a + 1; i <= b; i++) if (Math.abs(k[i]) > Math.abs(k[best])) best = i;
  return best;
}

function turnOf(p: LineProfile, a: number, b: number): number {
  return (p.heading[b] - p.heading[a]) * DEG;
}

function qualifies(p: LineProfile, a: number, b: number, sign: number, o: DetectOptions): boolean {
  return Math.abs(p.curvature[peakOf(p.curvature, a, b)]) >= o.enterCurvature &&
    turnOf(p, a, b) * sign >= o.minTurnDeg;
}

/** Adds the bend [a, b], or its two halves when a deep valley parts two qualifying apexes. */
function split(
  p: LineProfile,
  a: number,
  b: number,
  sign: 1 | -1,
  o: DetectOptions,
  out: Bend[],
): void {
  if (!qualifies(p, a, b, sign, o)) return;
  const k = p.curvature;
  // Left and right running peaks, so each valley knows the apex on either side.
  const len = b - a + 1;
  const left = new Float64Array(len);
  const right = new Float64Array(len);
  for (let i = 0; i < len; i++) {
    left[i] = Math.max(i > 0 ? left[i - 1] : 0, Math.abs(k[a + i]));
    const r = len - 1 - i;
    right[r] = Math.max(r < len - 1 ? right[r + 1] : 0, Math.abs(k[a + r]));
  }
  let cut = -1;
  let deepest = o.splitRatio;
  for (let i = 1; i < len - 1; i++) {
    const ratio = Math.abs(k[a + i]) / Math.min(left[i], right[i]);
    const m = a + i;
    // Both halves must reach a corner's curvature and turn far enough on their own.
    if (
      ratio <= deepest &&
      left[i] >= o.enterCurvature && right[i] >= o.enterCurvature &&
      turnOf(p, a, m) * sign >= o.splitMinTurnDeg && turnOf(p, m, b) * sign >= o.splitMinTurnDeg
    ) {
      deepest = ratio;
      cut = m;
    }
  }
  if (cut < 0) {
    out.push({ start: a, end: b, apex: peakOf(k, a, b), sign, turnDeg: turnOf(p, a, b) });
    return;
  }
  split(p, a, cut, sign, o, out);
  split(p, cut, b, sign, o, out);
}

/**
 * The corners of a lap from its line alone, numbered 1.. from the start
 * line, named "Turn n". Each turns one way by at least
 * {@linkcode DetectOptions.minTurnDeg} and reaches
 * {@linkcode DetectOptions.enterCurvature}; entry and exit are where its
 * curvature rose above and fell below the exit threshold (or where it was
 * split from its neighbour), the apex its tightest point.
 */
export function detectCorners(trace: LapTrace, opts: Partial<DetectOptions> = {}): LapCorner[] {
  const profile = lineProfile(trace);
  return cornersOfBends(profile, findBends(profile, opts));
}

/** Turns bends of `profile` into numbered corners. */
export function cornersOfBends(profile: LineProfile, bends: readonly Bend[]): LapCorner[] {
  const at = (i: number) => ({ x: profile.x[i], z: profile.z[i] });
  return bends.map((b, idx) => ({
    n: idx + 1,
    name: `Turn ${idx + 1}`,
    direction: (b.sign > 0 ? "L" : "R") as Side,
    apex_m: profile.dist[b.apex],
    entry_m: profile.dist[b.start],
    exit_m: profile.dist[b.end],
    entry: at(b.start),
    apex: at(b.apex),
    exit: at(b.end),
  }));
}
