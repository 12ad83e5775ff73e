/**
 * Zod schemas of the track answers that no service type defines: a
 * signature's deletion and a lap's explanation (the signatures, reference
 * lines, a new signature and the identify run are defined beside their
 * types in src/app/tracks/track_entries.ts and src/app/tracks/tracks.ts).
 *
 * @module
 */
import { z } from "zod";

const num = z.number();
const id = z.int().min(1);

/** What `DELETE /api/tracks/{id}` answers. */
export const trackDeletionSchema = z.strictObject({ id, deleted: z.literal(true) });

/** What `POST /api/tracks/identify` answers. */
export const identifyResultSchema = z.strictObject({
  checked: z.int().min(0),
  identified: z.int().min(0),
  tracks: z.record(z.string(), z.int().min(1)),
});

/**
 * An object of `shape`'s fields that may carry more (the document says so),
 * typed by the fields it names: the answers are interfaces of src/app/tracks,
 * which TypeScript never lets stand for an index signature, and the route's
 * reply is typed by this schema.
 */
function openObject<S extends z.core.$ZodLooseShape>(
  shape: S,
): z.ZodType<z.output<z.ZodObject<S, z.core.$strip>>> {
  return z.looseObject(shape);
}

/** A verdict: any object, as docs/identification.md describes (typed so, for the same reason). */
const verdict: z.ZodType<object> = z.looseObject({}).meta({
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
  suggestions: z.array(openObject({
    official_id: z.string(),
    official_name: z.string(),
    fit: z.enum(["fits", "close"]),
  })),
  length_m: num,
  signatures: z.array(openObject({
    id,
    name: z.string(),
    kept: z.boolean(),
    reason: z.string(),
  })),
  bundles: openObject({
    tested: z.int().min(0),
    reason: z.string().nullable(),
    candidates: z.array(openObject({ slug: z.string(), kept: z.boolean() })),
  }),
  reference: verdict,
});
