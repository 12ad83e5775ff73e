/**
 * Which axle track width new evidence is laid with (REFERENCE.md 2.2): the
 * first available of the cornering measurement, the width remembered for
 * the car, the edge-ride measurement and the width assumed at start.
 *
 * @module
 */

/** Where the width in use comes from. */
export type WidthSource = "cornering" | "memory" | "edge_ride" | "assumed";

/** The width assumed when nothing better is known, metres. */
export const DEFAULT_TRACK_WIDTH = 1.6;

/** Bounds (exclusive) of a width a driver may assume at start, metres. */
export const ASSUMED_WIDTH_BOUNDS = { min: 0.5, max: 3.0 } as const;

/** A width measured for one car, as remembered between surveys. */
export interface RememberedWidth {
  /** Axle track width, metres. */
  tw_m: number;
  /** Samples behind the measurement; a measurement with more replaces one with fewer. */
  samples: number;
  /** How it was measured. */
  source: "cornering" | "edge_ride";
}

/** The width in use and where it comes from. */
export interface WidthInUse {
  tw_m: number;
  source: WidthSource;
}

/**
 * Picks the width in use: cornering, else memory, else edge ride, else the
 * assumed width.
 */
export function widthInUse(
  cornering: number | null,
  memory: RememberedWidth | null,
  edgeRide: number | null,
  assumed: number,
): WidthInUse {
  if (cornering !== null) return { tw_m: cornering, source: "cornering" };
  if (memory !== null) return { tw_m: memory.tw_m, source: "memory" };
  if (edgeRide !== null) return { tw_m: edgeRide, source: "edge_ride" };
  return { tw_m: assumed, source: "assumed" };
}

/**
 * The measurement worth remembering for a car: the one with more samples
 * (the prior one on a tie), or null when there is none.
 */
export function betterMemory(
  prior: RememberedWidth | null,
  measured: RememberedWidth | null,
): RememberedWidth | null {
  if (measured === null) return prior;
  if (prior === null || measured.samples > prior.samples) return measured;
  return prior;
}
