/**
 * Matching a lap against surveyed bundles (SPEC.md 4.8.2): the whole-lap
 * test, coverage of at most 600 evenly spread positions by each bundle's
 * fingerprint, and a decision that names a circuit only when one bundle
 * clearly wins.
 *
 * @module
 */
import { type Fingerprint, hitsBlock } from "./fingerprint.ts";
import type { LapTrace } from "./signature.ts";

/** Most positions of a lap tested against a fingerprint. */
export const MAX_TESTED_POSITIONS = 600;
/** Least coverage the winner needs. */
export const MIN_COVERAGE = 0.6;
/** Least lead of the winner over the runner-up, as a share of tested positions. */
export const MIN_LEAD = 0.25;
/** A lap closes when its end is within this of its start, metres ... */
export const CLOSE_M = 60;
/** ... or within this share of its own length, whichever is larger. */
export const CLOSE_SHARE = 0.05;
/** A lap shorter than this is a parked or crawling car, not a lap, metres. */
export const MIN_LAP_M = 400;

/** A bundle as the matcher sees it. */
export interface BundleCandidate {
  readonly slug: string;
  /** The circuit name a match gives the session (the bundle's meta.track). */
  readonly track: string;
  readonly fingerprint: Fingerprint;
}

/** One bundle's score. */
export interface BundleScore {
  slug: string;
  track: string;
  /** Share of tested positions that hit, 0..1. */
  coverage: number;
}

/** The verdict of {@linkcode matchBundles}. */
export interface BundleVerdict {
  /** The winner, or null when the lap is not whole or no bundle wins clearly. */
  match: BundleScore | null;
  /** Runner-up coverage (0 with a single bundle). */
  runner_up: number;
  /** Positions tested (0 when the lap was refused before testing). */
  tested: number;
  /** Why nothing matched, or null on a match. */
  reason: string | null;
  /** Every bundle's score, best first. */
  scores: BundleScore[];
}

/**
 * True when the lap is whole: it has at least two positions, covered at
 * least {@linkcode MIN_LAP_M}, and ends within max({@linkcode CLOSE_M},
 * {@linkcode CLOSE_SHARE} x length) of where it started.
 */
export function isWholeLap(trace: LapTrace, length: number): boolean {
  const n = Math.min(trace.pos_x.length, trace.pos_z.length);
  if (n < 2 || !(length >= MIN_LAP_M)) return false;
  const gap = Math.hypot(trace.pos_x[n - 1] - trace.pos_x[0], trace.pos_z[n - 1] - trace.pos_z[0]);
  return gap <= Math.max(CLOSE_M, CLOSE_SHARE * length);
}

/**
 * The sample indexes tested for `n` positions: all of them up to
 * {@linkcode MAX_TESTED_POSITIONS}, otherwise exactly that many, evenly
 * spread from the first sample (index floor(i * n / 600)).
 */
export function testedIndexes(n: number): number[] {
  if (n <= MAX_TESTED_POSITIONS) return Array.from({ length: Math.max(0, n) }, (_, i) => i);
  return Array.from(
    { length: MAX_TESTED_POSITIONS },
    (_, i) => Math.floor(i * n / MAX_TESTED_POSITIONS),
  );
}

/** Share of the tested positions whose 3x3 block in `fp` holds an occupied cell. */
export function coverage(
  fp: Fingerprint,
  xs: ArrayLike<number>,
  zs: ArrayLike<number>,
  indexes: readonly number[],
): number {
  if (indexes.length === 0) return 0;
  let hits = 0;
  for (const i of indexes) if (hitsBlock(fp, xs[i], zs[i])) hits++;
  return hits / indexes.length;
}

/**
 * Scores a whole lap against every candidate. The best wins only with at
 * least {@linkcode MIN_COVERAGE} coverage and a lead of at least
 * {@linkcode MIN_LEAD} over the runner-up, so two bundles of the same place
 * (or none) name nothing. `length` is the lap's length in metres.
 */
export function matchBundles(
  trace: LapTrace,
  length: number,
  candidates: readonly BundleCandidate[],
): BundleVerdict {
  if (!isWholeLap(trace, length)) {
    return { match: null, runner_up: 0, tested: 0, reason: "the lap is not whole", scores: [] };
  }
  const n = Math.min(trace.pos_x.length, trace.pos_z.length);
  const indexes = testedIndexes(n);
  const scores = candidates.map((c) => ({
    slug: c.slug,
    track: c.track,
    coverage: coverage(c.fingerprint, trace.pos_x, trace.pos_z, indexes),
  })).sort((a, b) => b.coverage - a.coverage || (a.slug < b.slug ? -1 : 1));
  const best = scores[0];
  const runnerUp = scores[1]?.coverage ?? 0;
  const base = { runner_up: runnerUp, tested: indexes.length, scores };
  if (!best) return { ...base, match: null, reason: "no bundle to match against" };
  if (best.coverage < MIN_COVERAGE) {
    return { ...base, match: null, reason: `best coverage ${pct(best.coverage)} is under 60 %` };
  }
  // Compared in whole positions so that a lead of exactly 25 points is not lost to rounding.
  const lead = Math.round((best.coverage - runnerUp) * indexes.length);
  if (lead < Math.ceil(MIN_LEAD * indexes.length - 1e-9)) {
    return {
      ...base,
      match: null,
      reason: `best coverage ${pct(best.coverage)} leads the runner-up by less than 25 points`,
    };
  }
  return { ...base, match: best, reason: null };
}

function pct(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}
