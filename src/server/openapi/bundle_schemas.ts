/**
 * The zod schema of the one track bundle answer no service type defines: a
 * deletion. The other answers' schemas are src/app/bundles/bundle_answers.ts;
 * bundle and compiled documents use the schemas that validate them
 * (src/core/bundle/schema.ts, src/core/geometry/schema.ts).
 *
 * @module
 */
import { z } from "zod";

/** What `DELETE /api/track-bundles/{slug}` answers. */
export const bundleDeletionSchema = z.strictObject({
  status: z.literal("deleted"),
  slug: z.string(),
});
