/**
 * The zod schema of a lap with its samples (`GET /api/laps/{id}`). The other
 * session and lap answers' schemas live beside the types they define
 * (src/core/laps, src/app).
 *
 * @module
 */
import { lapSummarySchema } from "../../core/laps/lap.ts";
import { samplesSchema } from "../../core/laps/lap_file_schema.ts";

/** A lap with its samples: one array per channel (the lap file's channels). */
export const lapSchema = lapSummarySchema.extend({ samples: samplesSchema }).meta({ id: "Lap" });
