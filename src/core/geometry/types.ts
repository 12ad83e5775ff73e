/**
 * The compiled geometry document (SPEC.md 2.2, REFERENCE.md 3.8): what a
 * bundle's border evidence compiles into. Derived, never exchanged.
 *
 * @module
 */

/** The `format` constant every compiled document carries. */
export const COMPILED_FORMAT = "sim-datalogger-track-compiled";

/** The compiled format's version. */
export const COMPILED_VERSION = 1;

/** A border vertex `[x, z, y]`, 2 dp; y is null where no elevation is known. */
export type BorderVertex = [x: number, z: number, y: number | null];

/** A centerline vertex `[x, z, y, w]`, 2 dp (w, the road width, 1 dp). */
export type CenterVertex = [x: number, z: number, y: number | null, w: number];

/** A segment `[x1, z1, x2, z2]`, 1 dp. */
export type Segment = [x1: number, z1: number, x2: number, z2: number];

/**
 * A road quad `[x1, z1, x2, z2, x3, z3, x4, z4]`, 1 dp: two consecutive
 * left-border samples, then the right-border points paired with them in
 * reverse order, so the four corners go round the quad.
 */
export type Quad = [number, number, number, number, number, number, number, number];

/** Coverage of one side (REFERENCE.md 3.4). */
export interface SideCoverage {
  /** Metres of border between evidence at most 6 m apart, 1 dp. */
  surveyed_m: number;
  /** Metres the ordering bridged without evidence, 1 dp. */
  gap_m: number;
  /** surveyed_m as a percentage of surveyed_m + gap_m, 1 dp; 0 when both are 0. */
  pct: number;
  /** The side's main chain forms a loop, so the denominator is the whole lap. */
  closed: boolean;
}

/** Coverage of both sides and of the road between them. */
export interface Coverage {
  L: SideCoverage;
  R: SideCoverage;
  /** Share of left-border samples with the right border found across, 1 dp. */
  road_pct: number;
}

/** Manual kinds a border stretch can be drawn as; everything else is inferred evidence. */
export type MarkedKind = "wall" | "runoff" | "edge";

/** A stretch of drawn border whose cells settled on one manual kind: [x, z] vertices, 2 dp. */
export interface KindStretch {
  kind: MarkedKind;
  line: [x: number, z: number][];
}

/** An authored corner as the map numbers it: its number, name and apex. */
export interface MapCorner {
  n: number;
  name: string;
  x: number;
  z: number;
}

/** Provenance: what the document was compiled from. */
export interface CompiledSource {
  /** Cells in the bundle. */
  points: number;
  /** meta.runs of the bundle. */
  runs: number;
  /** Installations with a run counter. */
  sources: number;
  bundle_updated_at: string;
  app_version: string;
}

/** The compiled geometry document, version 1. */
export interface CompiledTrack {
  format: typeof COMPILED_FORMAT;
  version: typeof COMPILED_VERSION;
  track: string;
  slug: string;
  /** ISO 8601 UTC; the only field that differs between two compiles of one bundle. */
  compiled_at: string;
  source: CompiledSource;
  /** Ordered polylines per side, split at gaps, Douglas-Peucker simplified at 0.5 m. */
  borders: { L: BorderVertex[][]; R: BorderVertex[][] };
  /** Stretches of the drawn borders marked wall, runoff or edge (an addition to the reference fields). */
  border_kinds: { L: KindStretch[]; R: KindStretch[] };
  /** Stretches bridged without evidence, per side. */
  gaps: { L: Segment[]; R: Segment[] };
  /** One tick along the travel direction per wall cell. */
  walls: Segment[];
  /** Runs of the road's middle with elevation and width; each run has at least 2 vertices. */
  centerline: CenterVertex[][];
  /** The road surface as quads. */
  road: Quad[];
  /** The start/finish line, 24 m long, or null without crossings. */
  finish: Segment | null;
  coverage: Coverage;
  /** The bundle's authored corners, for numbering on maps (an addition to the reference fields). */
  corners: MapCorner[];
  /** [generation, stored JSON bytes] of the bundle compiled; [0, 0] when compiled outside the store. */
  _bundle_identity: [number, number];
}
