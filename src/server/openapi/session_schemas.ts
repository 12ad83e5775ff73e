/**
 * Zod schemas of the session and lap answers: sessions, lap summaries,
 * laps with samples, the lap list and bests, deletions and lap imports.
 * Each is checked at compile time against the type its service answers.
 *
 * @module
 */
import { z } from "zod";
import { lapSummarySchema } from "../../core/laps/lap.ts";
import { sessionSchema } from "../../core/laps/session.ts";
import { samplesSchema } from "../../core/laps/lap_file_schema.ts";
import type { LapDeletion } from "../../app/sessions.ts";
import type { LapImportResult } from "../../app/lap_exchange.ts";
import type { SameType } from "./same_type.ts";

const id = z.int().min(1);

/** A lap with its samples: one array per channel (the lap file's channels). */
export const lapSchema = lapSummarySchema.extend({ samples: samplesSchema }).meta({ id: "Lap" });

/** What `DELETE /api/laps/{id}` answers. */
export const lapDeletionSchema = z.strictObject({
  id,
  deleted: z.literal(true),
  session: sessionSchema,
});

/** What `POST /api/laps/import` answers. */
export const lapImportResultSchema = z.strictObject({
  lap: lapSummarySchema,
  session: sessionSchema,
  created_session: z.literal(true),
});

const checks: {
  lapDeletion: SameType<z.output<typeof lapDeletionSchema>, LapDeletion>;
  lapImportResult: SameType<z.output<typeof lapImportResultSchema>, LapImportResult>;
} = {
  lapDeletion: true,
  lapImportResult: true,
};
void checks;
