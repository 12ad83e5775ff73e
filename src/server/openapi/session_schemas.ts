/**
 * Zod schemas of the session and lap answers: sessions, lap summaries,
 * laps with samples, the lap list and bests, deletions and lap imports.
 * Each is checked at compile time against the type its service answers.
 *
 * @module
 */
import { z } from "zod";
import type { LapSummary } from "../../core/laps/lap.ts";
import { sessionSchema } from "../../core/laps/session.ts";
import { eventSchema, gearingSchema, samplesSchema } from "../../core/laps/lap_file_schema.ts";
import type { LapDeletion } from "../../app/sessions.ts";
import type { LapImportResult } from "../../app/lap_exchange.ts";
import type { SameType } from "./same_type.ts";

const id = z.int().min(1);

/** A lap without its samples. */
export const lapSummarySchema = z.strictObject({
  id,
  session_id: id,
  number: z.int(),
  time_ms: z.number(),
  finished_at: z.string(),
  car_id: z.int(),
  car_category: z.string(),
  fuel_start: z.number(),
  fuel_end: z.number(),
  tod_ms: z.number(),
  counts_for_best: z.boolean(),
  off_survey_count: z.int(),
  salvaged: z.boolean(),
  race_position: z.int(),
  frames_dropped: z.int(),
  imported: z.boolean(),
  event_counts: z.record(z.string(), z.int()),
  events: z.array(eventSchema),
  gearing: gearingSchema.nullable(),
  // LapMetrics
  total_ticks: z.int(),
  fuel_consumed: z.number(),
  full_throttle_pct: z.number(),
  full_brake_pct: z.number(),
  coasting_pct: z.number(),
  tire_spin_pct: z.number(),
  max_speed: z.number(),
  min_body_height: z.number(),
  tcs_active_pct: z.number(),
  asm_active_pct: z.number(),
  off_track_count: z.int(),
  clean_lap: z.boolean().nullable(),
  // EngineHealth
  max_water_temp: z.number(),
  max_oil_temp: z.number(),
  min_oil_pressure: z.number(),
  // LapCoverage
  samples_expected: z.int(),
  samples_received: z.int(),
  samples_filled: z.int(),
  samples_missing: z.int(),
  longest_gap_packets: z.int(),
  complete: z.boolean(),
}).meta({ id: "LapSummary" });

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
  lapSummary: SameType<z.output<typeof lapSummarySchema>, LapSummary>;
  lapDeletion: SameType<z.output<typeof lapDeletionSchema>, LapDeletion>;
  lapImportResult: SameType<z.output<typeof lapImportResultSchema>, LapImportResult>;
} = {
  lapSummary: true,
  lapDeletion: true,
  lapImportResult: true,
};
void checks;
