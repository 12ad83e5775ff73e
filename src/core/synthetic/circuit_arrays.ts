/**
 * The ground truth of a synthetic circuit as per-station arrays, and the
 * bounds every generated circuit satisfies: what the shape generator
 * produces and the circuit, and its spatial index, read.
 *
 * @module
 */

/** Bounds every generated circuit satisfies. */
export const CIRCUIT_BOUNDS = {
  /** Shortest lap, metres. */
  minLength: 3300,
  /** Longest lap, metres. */
  maxLength: 4700,
  /** Narrowest road, metres. */
  minWidth: 10,
  /** Widest road, metres. */
  maxWidth: 14,
  /** Tightest radius of the centre line, metres. */
  minRadius: 22,
  /** Grass kept between two stretches of road (kerbs included), metres. */
  minGrass: 8,
  /** Curvature (1/m) from which the inside of a corner gets a kerb. */
  kerbCurvature: 1 / 130,
} as const;

/** The per-station arrays of a circuit (read them, never write them). */
export interface CircuitArrays {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly z: Float64Array;
  /** Cumulative distance from station 0. */
  readonly s: Float64Array;
  readonly tx: Float64Array;
  readonly tz: Float64Array;
  readonly width: Float64Array;
  readonly curvature: Float64Array;
  /** 1 where a kerb lies beyond the left edge. */
  readonly kerbLeft: Uint8Array;
  /** 1 where a kerb lies beyond the right edge. */
  readonly kerbRight: Uint8Array;
}

/** A generated shape that passed every check: its arrays, lap length and kerb width. */
export interface CircuitCandidate {
  readonly arrays: CircuitArrays;
  readonly length: number;
  readonly kerbWidth: number;
}
