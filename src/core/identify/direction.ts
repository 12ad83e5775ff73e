/**
 * The direction test: does a lap travel a known line the way it was
 * recorded, or the other way round? Evidence comes as metres travelled with
 * or against the known order, either as progress along a line (reference
 * lines) or as pairs of travel directions (a bundle's edges carry the unit
 * direction of travel they were evidenced with, `hx`, `hz`). The same
 * decision rule then answers for every kind of knowledge.
 *
 * @module
 */

/** Which way a lap went round a known line. */
export type TravelDirection = "forward" | "reverse" | "mixed" | "unknown";

/** Least evidence, metres, before a direction is decided. */
export const MIN_DIRECTION_M = 50;
/** Least share of the evidence that must agree for "forward" or "reverse". */
export const DIRECTION_SHARE = 0.9;

/** Metres travelled with and against a known order. */
export interface DirectionTally {
  /** Metres travelled the way the known line goes. */
  with_m: number;
  /** Metres travelled against it. */
  against_m: number;
}

/** An empty tally. */
export function newDirectionTally(): DirectionTally {
  return { with_m: 0, against_m: 0 };
}

/**
 * Adds progress along a known line: `delta_m` metres of distance along it
 * (positive in its order, negative against it).
 */
export function addProgress(tally: DirectionTally, delta_m: number): void {
  if (!Number.isFinite(delta_m)) return;
  if (delta_m >= 0) tally.with_m += delta_m;
  else tally.against_m -= delta_m;
}

/**
 * Adds `metres` of travel in direction (hx, hz) past a known record whose
 * travel direction was (rx, rz): with it when the directions are less than
 * 90 degrees apart, against it when more. Perpendicular or zero directions
 * (and non-finite input) add nothing: they say nothing about the way round.
 */
export function addHeadings(
  tally: DirectionTally,
  hx: number,
  hz: number,
  rx: number,
  rz: number,
  metres: number,
): void {
  const dot = hx * rx + hz * rz;
  if (!Number.isFinite(dot) || !(metres > 0) || dot === 0) return;
  if (dot > 0) tally.with_m += metres;
  else tally.against_m += metres;
}

/**
 * The direction a tally shows: "unknown" with less than `min_m` metres of
 * evidence, "forward" or "reverse" when at least `share` of it agrees, and
 * "mixed" otherwise (a lap that went both ways names neither).
 */
export function travelDirection(
  tally: DirectionTally,
  min_m = MIN_DIRECTION_M,
  share = DIRECTION_SHARE,
): TravelDirection {
  const total = tally.with_m + tally.against_m;
  if (!(total >= min_m)) return "unknown";
  if (tally.with_m >= share * total) return "forward";
  if (tally.against_m >= share * total) return "reverse";
  return "mixed";
}

/** Share of the evidence travelled with the known order, 0..1 (0 when there is none). */
export function forwardShare(tally: DirectionTally): number {
  const total = tally.with_m + tally.against_m;
  return total > 0 ? tally.with_m / total : 0;
}
