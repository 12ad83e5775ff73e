/**
 * Matching a lap against surveyed bundles (SPEC.md 4.8.2): the whole-lap
 * test, coverage of at most 600 evenly spread positions by each bundle's
 * fingerprint, and a decision that names a circuit only when one bundle
 * clearly wins and the lap goes round it the way its borders were driven
 * (the direction test over the travel directions its edges carry).
 *
 * @module
 */
import {
  addHeadings,
  type DirectionTally,
  forwardShare,
  newDirectionTally,
  type TravelDirection,
  travelDirection,
} from "./direction.ts";
import { type Fingerprint, headingNear, hitsBlock } from "./fingerprint.ts";
import type { LapTrace } from "./signature.ts";

/** Most positions of a lap tested against a fingerprint. */
export const MAX_TESTED_POSITIONS = 600;
/** Least coverage the winner needs. */
export const MIN_COVERAGE = 0.6;
/** Least lead of the winner over the runner-up, as a share of tested positions. */
export const MIN_LEAD = 0.25;
/** A move longer than this between two tested positions is a hole, not travel, metres. */
const HOLE_M = 60;
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
  /**
   * The direction test over the best bundle, when it cleared coverage and
   * lead: "forward" the way its borders were driven, "reverse" the other
   * way round, "mixed" neither, "unknown" when its edges carry no travel
   * directions (bundles surveyed before they were recorded); null when not
   * reached. Only "forward" and "unknown" name the lap.
   */
  direction: TravelDirection | null;
  /** Share of the direction evidence travelled the bundle's way, 0..1 (0 when none or not reached). */
  forward_share: number;
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
    return {
      match: null,
      runner_up: 0,
      tested: 0,
      reason: "the lap is not whole",
      scores: [],
      direction: null,
      forward_share: 0,
    };
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
  const base = {
    runner_up: runnerUp,
    tested: indexes.length,
    scores,
    direction: null,
    forward_share: 0,
  };
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
  const fp = candidates.find((c) => c.slug === best.slug)!.fingerprint;
  const tally = bundleDirection(fp, trace, indexes);
  const direction = travelDirection(tally);
  const judged = { ...base, direction, forward_share: round4(forwardShare(tally)) };
  if (direction === "reverse") {
    return {
      ...judged,
      match: null,
      reason: `the lap goes round ${best.track} the other way from its survey`,
    };
  }
  if (direction === "mixed") {
    return {
      ...judged,
      match: null,
      reason: `the lap does not go round ${best.track} one way (${
        pct(forwardShare(tally))
      } the survey's way)`,
    };
  }
  return { ...judged, match: best, reason: null };
}

/**
 * The direction evidence of a lap over bundle `fp`: for each move between
 * consecutive tested positions, its length counted with or against the
 * summed travel directions recorded around where it starts. Moves longer
 * than 60 m (holes) and places without recorded directions add nothing.
 */
export function bundleDirection(
  fp: Fingerprint,
  trace: LapTrace,
  indexes: readonly number[],
): DirectionTally {
  const tally = newDirectionTally();
  if (fp.headings.size === 0) return tally;
  for (let k = 0; k + 1 < indexes.length; k++) {
    const x = trace.pos_x[indexes[k]];
    const z = trace.pos_z[indexes[k]];
    const dx = trace.pos_x[indexes[k + 1]] - x;
    const dz = trace.pos_z[indexes[k + 1]] - z;
    const len = Math.hypot(dx, dz);
    if (!(len > 0) || len > HOLE_M) continue;
    const [rx, rz] = headingNear(fp, x, z);
    addHeadings(tally, dx / len, dz / len, rx, rz, len);
  }
  return tally;
}

function round4(v: number): number {
  return Math.round(v * 10000) / 10000;
}

function pct(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}
