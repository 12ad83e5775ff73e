/**
 * The track bundle in memory: the current (v4) document and the older shapes
 * it is upgraded from. Field names are the document's own (snake_case), so a
 * value serialises unchanged. Values of these types have passed validation;
 * code inside the engine trusts them.
 *
 * @module
 */

/** The `format` constant every bundle document carries. */
export const BUNDLE_FORMAT = "sim-datalogger-track-bundle";

/** The version this build writes and the newest it reads. */
export const CURRENT_VERSION = 4;

/**
 * The five kinds of border evidence, in tie-break order: the three a driver
 * marks by hand (wall, runoff, edge), which outrank the two inferred from
 * telemetry (auto, straddle) outright.
 */
export const KINDS = ["wall", "runoff", "edge", "auto", "straddle"] as const;

/** What a metre of border is: a manual mark or inferred evidence. */
export type Kind = typeof KINDS[number];

/** Border side relative to the direction of travel. */
export type Side = "L" | "R";

/**
 * One source's evidence for one kind on one cell: it saw the kind `count`
 * times, most recently on its own run `last_run`.
 */
export type VoteEntry = [count: number, last_run: number];

/** Source id -> vote entry. */
export type SourceVotes = Record<string, VoteEntry>;

/** Kind -> source id -> vote entry (v4). Every present kind has at least one source. */
export type Votes = Partial<Record<Kind, SourceVotes>>;

/** Kind -> [count, run], without a source (v2 and v3). */
export type LegacyVotes = Partial<Record<Kind, VoteEntry>>;

/** A world position on the ground plane, metres. */
export interface Point {
  x: number;
  z: number;
}

/** What every edge since v2 records besides its kind and votes. */
export interface EdgeFields {
  x: number;
  z: number;
  /** Elevation; null when first mapped before v3. */
  y: number | null;
  /** Unit travel direction when evidenced. */
  hx: number;
  hz: number;
  side: Side;
  /** Run ordinal of the owning source that first evidenced this metre. */
  run: number;
  /** Axle track width in use when laid, metres. */
  tw: number | null;
}

/** One metre of one side of border (v4). */
export interface Edge extends EdgeFields {
  /** Resolved from `votes`; never read from a document. */
  kind: Kind;
  votes: Votes;
}

/**
 * An edge of `fields` with `kind` and `votes`, keys in document order (x,
 * z, y, hx, hz, side, kind, votes, run, tw), as JSON writes and reads them.
 */
export function edgeWith<K, V>(
  fields: EdgeFields,
  kind: K,
  votes: V,
): EdgeFields & { kind: K; votes: V } {
  return {
    x: fields.x,
    z: fields.z,
    y: fields.y,
    hx: fields.hx,
    hz: fields.hz,
    side: fields.side,
    kind,
    votes,
    run: fields.run,
    tw: fields.tw,
  };
}

/** Where the lap counter rolled over. Same shape in every version. */
export interface FinishCrossing {
  x: number;
  z: number;
  hx: number;
  hz: number;
  lap: number;
}

/** A hand-authored corner. */
export interface Corner {
  /** 1-based position in the list. */
  n: number;
  name: string;
  direction: Side | null;
  apex: Point;
  entry: Point | null;
  exit: Point | null;
  note: string;
}

/** A hand-authored named stretch of track. */
export interface Section {
  /** 1-based position in the list. */
  n: number;
  name: string;
  start: Point;
  end: Point;
}

/** The official GT7 configuration a human confirmed for this circuit. */
export interface Official {
  track: string;
  layout: string;
  official_id: string;
  official_name: string;
  turns: number;
  length_m: number;
  reverse: boolean;
}

/** Metadata of a v4 bundle. */
export interface MetaV4 {
  /** Circuit name, trimmed, 1 to 80 characters. */
  track: string;
  /** Always the sum of `source_runs`. */
  runs: number;
  /** Source id -> its run counter; keys sorted. */
  source_runs: Record<string, number>;
  updated_at: string;
  official: Official | null;
}

/** A current (v4) bundle. */
export interface BundleV4 {
  format: typeof BUNDLE_FORMAT;
  version: 4;
  meta: MetaV4;
  edges: Edge[];
  finish_crossings: FinishCrossing[];
  corners: Corner[];
  sections: Section[];
}

/** Metadata of v1 to v3 bundles. */
export interface MetaLegacy {
  track: string;
  runs: number;
  updated_at: string;
}

/** A v1 record: one per (cell, side, kind), no votes. */
export interface EdgeV1 {
  x: number;
  z: number;
  hx: number;
  hz: number;
  side: Side;
  kind: Kind;
}

/** A v2/v3 record: one per (cell, side), votes without sources. */
export interface EdgeLegacy extends EdgeFields {
  /** The stored kind when it was valid, otherwise `auto`; used only for the synthetic source id. */
  kind: Kind;
  votes: LegacyVotes;
}

/** A validated v1 bundle. */
export interface BundleV1 {
  format: typeof BUNDLE_FORMAT;
  version: 1;
  meta: MetaLegacy;
  edges: EdgeV1[];
  finish_crossings: FinishCrossing[];
}

/** A validated v2 or v3 bundle (v2 simply has no elevations). */
export interface BundleLegacy {
  format: typeof BUNDLE_FORMAT;
  version: 2 | 3;
  meta: MetaLegacy;
  edges: EdgeLegacy[];
  finish_crossings: FinishCrossing[];
}

/** The members of a v4 document other than `edges`, in document order. */
export const V4_MEMBERS = [
  "format",
  "version",
  "meta",
  "finish_crossings",
  "corners",
  "sections",
] as const;

/** Any validated bundle, before upgrade; `version` tells which. */
export type ValidatedBundle = BundleV1 | BundleLegacy | BundleV4;
