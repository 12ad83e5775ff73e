/**
 * What GET /api/tracks lists: the user's signatures, as they always were
 * shown plus their source and whether their direction is known, and the
 * reference lines the project ships, with where they come from.
 *
 * @module
 */
import { REFERENCE_LINES_CREDIT, type ReferenceLine } from "../core/catalog/reference_lines.ts";
import type { TrackSignature } from "../storage/signatures.ts";

/**
 * A user signature as lists and answers show it: the stored fields without
 * the driving line it keeps, its `source`, and whether its direction is
 * known (`recorded`; `unknown` for signatures stored before lines were kept,
 * which match either way round).
 */
export interface SignatureEntry extends Omit<TrackSignature, "path"> {
  source: "user";
  direction: "recorded" | "unknown";
}

/** A reference line the project ships, as GET /api/tracks lists it. */
export interface ReferenceEntry {
  source: "reference";
  /** The configuration's official name. */
  name: string;
  official_id: string;
  track: string;
  layout: string;
  /** What a lap driven the other way round is named, or null when GT7 has no reverse layout. */
  reverse_id: string | null;
  reverse_name: string | null;
  /** Configurations that drive the same road: a lap on them is named after the circuit. */
  twin_ids: string[];
  /** How the recording ends: `closed`, `filled` (a hole inferred) or `open` (point to point). */
  closure: "closed" | "filled" | "open";
  /** Metres of the line, of it recorded, and of it inferred. */
  length_m: number;
  recorded_m: number;
  inferred_m: number;
  /** The recording it was derived from, and whom to thank. */
  recording: string;
  source_file: string;
  credit: string;
}

/** One entry of GET /api/tracks. */
export type TrackEntry = SignatureEntry | ReferenceEntry;

/** The entry of reference line `line`. */
export function referenceEntry(line: ReferenceLine): ReferenceEntry {
  const c = line.configuration;
  return {
    source: "reference",
    name: c.official_name,
    official_id: c.official_id,
    track: c.track,
    layout: c.layout,
    reverse_id: line.reverse?.official_id ?? null,
    reverse_name: line.reverse?.official_name ?? null,
    twin_ids: line.twins.map((t) => t.official_id),
    closure: line.closure,
    length_m: Math.round(line.length_m),
    recorded_m: line.recorded_m,
    inferred_m: line.inferred_m,
    recording: line.recording,
    source_file: line.source_file,
    credit: REFERENCE_LINES_CREDIT,
  };
}

/** A stored signature as lists show it (see {@linkcode SignatureEntry}). */
export function signatureEntry(s: TrackSignature): SignatureEntry {
  const { path, ...rest } = s;
  return {
    ...rest,
    source: "user",
    direction: path !== undefined && path.length >= 4 ? "recorded" : "unknown",
  };
}
