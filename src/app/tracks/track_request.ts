/**
 * The request that makes a track signature from a lap (POST /api/tracks,
 * the dashboard's name prompt): one schema, which the route validates with,
 * the OpenAPI document publishes and the use case's input type derives from.
 *
 * @module
 */
import { z } from "zod";
import { trackNameSchema } from "../../core/track_name.ts";

const POSITIVE = "must be a positive integer";

/** `{name, lap_id}`: a circuit name (trimmed, the one rule of track_name.ts) and a lap id. */
export const createTrackSchema = z.object({
  name: trackNameSchema,
  lap_id: z.int({ error: POSITIVE }).min(1, POSITIVE).max(Number.MAX_SAFE_INTEGER, POSITIVE),
}, { error: "must be an object with name and lap_id" });

/** What a caller sends to make a signature (the name as typed). */
export type CreateTrackInput = z.input<typeof createTrackSchema>;
