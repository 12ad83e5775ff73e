/**
 * Zod schemas of the track identification answers: the signatures and
 * reference lines of `GET /api/tracks`, a new signature, the identify run
 * and a lap's explanation.
 *
 * @module
 */
import { z } from "zod";
import type {
  CreateTrackResult,
  IdentifyResult,
  ReferenceEntry,
  SignatureEntry,
} from "../../app/tracks.ts";
import type { SameType } from "./same_type.ts";

const num = z.number();
const id = z.int().min(1);

/** A user's signature as lists show it. */
export const signatureEntrySchema = z.strictObject({
  source: z.literal("user"),
  id,
  name: z.string(),
  created_at: z.string(),
  provenance: z.literal("user"),
  lap_id: id,
  session_id: id,
  direction: z.enum(["recorded", "unknown"]),
  length_m: num,
  min_x: num,
  max_x: num,
  min_z: num,
  max_z: num,
}).meta({ id: "SignatureEntry" });

/** A reference line the project ships. */
export const referenceEntrySchema = z.strictObject({
  source: z.literal("reference"),
  name: z.string(),
  official_id: z.string(),
  track: z.string(),
  layout: z.string(),
  reverse_id: z.string().nullable(),
  reverse_name: z.string().nullable(),
  twin_ids: z.array(z.string()),
  closure: z.enum(["closed", "filled", "open"]),
  length_m: num,
  recorded_m: num,
  inferred_m: num,
  recording: z.string(),
  source_file: z.string(),
  credit: z.string(),
}).meta({ id: "ReferenceEntry" });

/** One entry of `GET /api/tracks`. */
export const trackEntrySchema = z.discriminatedUnion("source", [
  signatureEntrySchema,
  referenceEntrySchema,
]);

/** What `POST /api/tracks` answers. */
export const createTrackResultSchema = z.strictObject({
  signature: signatureEntrySchema,
  named_sessions: z.array(id),
});

/** What `DELETE /api/tracks/{id}` answers. */
export const trackDeletionSchema = z.strictObject({ id, deleted: z.literal(true) });

/** What `POST /api/tracks/identify` answers. */
export const identifyResultSchema = z.strictObject({
  checked: z.int().min(0),
  identified: z.int().min(0),
  tracks: z.record(z.string(), z.int().min(1)),
});

const verdict = z.looseObject({}).meta({
  description: "a match and its scores; see docs/identification.md",
});

/**
 * What `GET /api/laps/{id}/identify` answers. The nested verdicts (the
 * identification and the reference lines' verdict) are described in
 * docs/identification.md and kept open here.
 */
export const lapIdentifySchema = z.strictObject({
  lap_id: id,
  session_id: id,
  complete: z.boolean(),
  identification: verdict.nullable(),
  reason: z.string(),
  suggestions: z.array(z.looseObject({
    official_id: z.string(),
    official_name: z.string(),
    fit: z.enum(["fits", "close"]),
  })),
  length_m: num,
  signatures: z.array(z.looseObject({
    id,
    name: z.string(),
    kept: z.boolean(),
    reason: z.string(),
  })),
  bundles: z.looseObject({
    tested: z.int().min(0),
    reason: z.string().nullable(),
    candidates: z.array(z.looseObject({ slug: z.string(), kept: z.boolean() })),
  }),
  reference: verdict,
});

const checks: {
  signatureEntry: SameType<z.output<typeof signatureEntrySchema>, SignatureEntry>;
  referenceEntry: SameType<z.output<typeof referenceEntrySchema>, ReferenceEntry>;
  createTrackResult: SameType<z.output<typeof createTrackResultSchema>, CreateTrackResult>;
  identifyResult: SameType<z.output<typeof identifyResultSchema>, IdentifyResult>;
} = { signatureEntry: true, referenceEntry: true, createTrackResult: true, identifyResult: true };
void checks;
