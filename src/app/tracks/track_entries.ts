/**
 * What GET /api/tracks lists: the user's signatures, as they always were
 * shown plus their source and whether their direction is known, and the
 * reference lines the project ships, with where they come from.
 *
 * @module
 */
import { z } from "zod";
import { type ReferenceLine, referenceLineInfo } from "../../core/catalog/reference_lines.ts";
import type { TrackSignature } from "../../storage/signatures.ts";

const num = z.number();
const id = z.int().min(1);

/**
 * A user signature as lists and answers show it: the stored fields without
 * the driving line it keeps, its `source`, and whether its direction is
 * known (`recorded`; `unknown` for signatures stored before lines were kept,
 * which match either way round).
 */
export const signatureEntrySchema = z.strictObject({
  source: z.literal("user"),
  /** Signature identifier, unique in the store. */
  id,
  /** The circuit name a match gives a session. */
  name: z.string(),
  /** ISO 8601 UTC time the signature was made. */
  created_at: z.string(),
  /** Who made it: a driver naming a lap. */
  provenance: z.literal("user"),
  /** The lap it was computed from (it may since have been deleted), and its session. */
  lap_id: id,
  session_id: id,
  direction: z.enum(["recorded", "unknown"]),
  /** Lap distance integrated from speed, and the line's bounding box, metres. */
  length_m: num,
  min_x: num,
  max_x: num,
  min_z: num,
  max_z: num,
}).meta({ id: "SignatureEntry" });

/** A reference line the project ships, as GET /api/tracks lists it. */
export const referenceEntrySchema = z.strictObject({
  source: z.literal("reference"),
  /** The configuration's official name. */
  name: z.string(),
  official_id: z.string(),
  track: z.string(),
  layout: z.string(),
  /** What a lap driven the other way round is named, or null when GT7 has no reverse layout. */
  reverse_id: z.string().nullable(),
  reverse_name: z.string().nullable(),
  /** Configurations that drive the same road: a lap on them is named after the circuit. */
  twin_ids: z.array(z.string()),
  /** How the recording ends: `closed`, `filled` (a hole inferred) or `open` (point to point). */
  closure: z.enum(["closed", "filled", "open"]),
  /** Metres of the line, of it recorded, and of it inferred. */
  length_m: num,
  recorded_m: num,
  inferred_m: num,
  /** The recording it was derived from, and whom to thank. */
  recording: z.string(),
  source_file: z.string(),
  credit: z.string(),
}).meta({ id: "ReferenceEntry" });

/** One entry of GET /api/tracks. */
export const trackEntrySchema = z.discriminatedUnion("source", [
  signatureEntrySchema,
  referenceEntrySchema,
]);

/** A user signature as lists and answers show it. */
export type SignatureEntry = z.output<typeof signatureEntrySchema>;

/** A reference line the project ships, as GET /api/tracks lists it. */
export type ReferenceEntry = z.output<typeof referenceEntrySchema>;

/** One entry of GET /api/tracks. */
export type TrackEntry = z.output<typeof trackEntrySchema>;

/** The entry of reference line `line`: its list summary (one mapping), named and flattened. */
export function referenceEntry(line: ReferenceLine): ReferenceEntry {
  const { official_name, provenance, ...info } = referenceLineInfo(line);
  return {
    source: "reference",
    name: official_name,
    official_id: info.official_id,
    track: info.track,
    layout: info.layout,
    reverse_id: info.reverse_id,
    reverse_name: line.reverse?.official_name ?? null,
    twin_ids: info.twin_ids,
    closure: info.closure,
    length_m: info.length_m,
    recorded_m: info.recorded_m,
    inferred_m: info.inferred_m,
    recording: provenance.recording,
    source_file: provenance.source_file,
    credit: provenance.credit,
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
