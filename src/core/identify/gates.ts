/**
 * The four gates a lap's signature must pass to match a stored one
 * (SPEC.md 4.8.1, REFERENCE.md 5.2).
 *
 * @module
 */
import type { SignatureShape } from "./signature.ts";

/** Gate 2: the lengths may differ by at most this share of the stored length. */
export const LENGTH_TOLERANCE = 0.04;
/** Gate 3: the bounding-box centres may differ by at most this on each axis, metres. */
export const CENTRE_TOLERANCE_M = 120;
/** Gate 4: each extent may differ by at most this share of the stored extent. */
export const EXTENT_TOLERANCE = 0.2;

/** Which gate refused a match: 1 lengths, 2 length, 3 centre, 4 extents. */
export type Gate = 1 | 2 | 3 | 4;

/** The verdict of {@linkcode checkGates}. */
export type GateVerdict = { match: true } | { match: false; gate: Gate; reason: string };

// Bounds are inclusive ("at most"); the slack absorbs the rounding of values
// computed from centimetre figures, so a value on the boundary passes.
const SLACK = 1e-9;

function within(diff: number, limit: number): boolean {
  return diff <= limit * (1 + SLACK) + SLACK;
}

/**
 * Checks the four gates in order and reports the first that fails:
 * 1. both lengths are greater than zero;
 * 2. |lap - stored| / stored <= {@linkcode LENGTH_TOLERANCE};
 * 3. the box centres differ by at most {@linkcode CENTRE_TOLERANCE_M} on x and on z;
 * 4. width and depth each differ by at most {@linkcode EXTENT_TOLERANCE} of the
 *    stored one (skipped for a stored extent of 0, which has no scale).
 */
export function checkGates(lap: SignatureShape, stored: SignatureShape): GateVerdict {
  if (!(lap.length_m > 0) || !(stored.length_m > 0)) {
    return { match: false, gate: 1, reason: "a length is not greater than zero" };
  }
  const lengthShare = Math.abs(lap.length_m - stored.length_m) / stored.length_m;
  if (!within(lengthShare, LENGTH_TOLERANCE)) {
    return {
      match: false,
      gate: 2,
      reason: `lengths differ by ${(lengthShare * 100).toFixed(2)} %`,
    };
  }
  const dx = Math.abs(centre(lap.min_x, lap.max_x) - centre(stored.min_x, stored.max_x));
  const dz = Math.abs(centre(lap.min_z, lap.max_z) - centre(stored.min_z, stored.max_z));
  if (!within(dx, CENTRE_TOLERANCE_M) || !within(dz, CENTRE_TOLERANCE_M)) {
    return {
      match: false,
      gate: 3,
      reason: `centres differ by ${dx.toFixed(1)} m on x and ${dz.toFixed(1)} m on z`,
    };
  }
  for (
    const [axis, mine, theirs] of [
      ["width", lap.max_x - lap.min_x, stored.max_x - stored.min_x],
      ["depth", lap.max_z - lap.min_z, stored.max_z - stored.min_z],
    ] as const
  ) {
    if (theirs === 0) continue;
    const share = Math.abs(mine - theirs) / theirs;
    if (!within(share, EXTENT_TOLERANCE)) {
      return { match: false, gate: 4, reason: `${axis} differs by ${(share * 100).toFixed(2)} %` };
    }
  }
  return { match: true };
}

/** True when `lap` passes all four gates against `stored`. */
export function signaturesMatch(lap: SignatureShape, stored: SignatureShape): boolean {
  return checkGates(lap, stored).match;
}

function centre(min: number, max: number): number {
  return (min + max) / 2;
}

/** How far a lap's signature is from a stored one on each gate's measure. */
export interface GateScores {
  /** |lap - stored| / stored length (gate 2 allows 0.04). */
  length_share: number;
  /** Distance between the box centres on x and on z, metres (gate 3 allows 120). */
  centre_dx_m: number;
  centre_dz_m: number;
  /** |lap - stored| / stored width and depth (gate 4 allows 0.2; null for a stored extent of 0). */
  width_share: number | null;
  depth_share: number | null;
}

/**
 * The measures the gates compare, rounded (shares to 4 decimals, metres to
 * decimetres), for explaining a verdict. A stored length of 0 gives a
 * length share of 1 (gate 1 refuses it anyway).
 */
export function gateScores(lap: SignatureShape, stored: SignatureShape): GateScores {
  const share = (mine: number, theirs: number): number | null =>
    theirs === 0 ? null : round(Math.abs(mine - theirs) / theirs, 4);
  return {
    length_share: share(lap.length_m, stored.length_m) ?? 1,
    centre_dx_m: round(
      Math.abs(centre(lap.min_x, lap.max_x) - centre(stored.min_x, stored.max_x)),
      1,
    ),
    centre_dz_m: round(
      Math.abs(centre(lap.min_z, lap.max_z) - centre(stored.min_z, stored.max_z)),
      1,
    ),
    width_share: share(lap.max_x - lap.min_x, stored.max_x - stored.min_x),
    depth_share: share(lap.max_z - lap.min_z, stored.max_z - stored.min_z),
  };
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f + 0;
}
