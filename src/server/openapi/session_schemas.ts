/**
 * Zod schemas of the session and lap answers: sessions, lap summaries,
 * laps with samples, the lap list and bests, deletions and lap imports.
 * Each is checked at compile time against the type its service answers.
 *
 * @module
 */
import { z } from "zod";
import type { LapSummary } from "../../core/laps/lap.ts";
import type { Session } from "../../core/laps/session.ts";
import { eventSchema, gearingSchema, samplesSchema } from "../../core/laps/lap_file_schema.ts";
import type { BestItem, LapListItem } from "../../app/lap_listing.ts";
import type { LapDeletion, SessionDeletion } from "../../app/sessions.ts";
import type { LapImportResult } from "../../app/lap_exchange.ts";
import type { SameType } from "./same_type.ts";

const id = z.int().min(1);

/** A stored session. */
export const sessionSchema = z.strictObject({
  id,
  kind: z.enum(["live", "imported"]),
  started_at: z.string(),
  updated_at: z.string(),
  car_id: z.int(),
  car_name: z.string(),
  track_name: z.string(),
  track_source: z.enum(["", "user", "signature", "bundle", "reference"]),
  lap_count: z.int().min(0),
  best_lap_time_ms: z.number().nullable(),
  bests_excluded: z.boolean().optional(),
  notes: z.string().optional(),
}).meta({ id: "Session" });

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

/** One row of `GET /api/laps`. */
export const lapListItemSchema = z.strictObject({
  id,
  session_id: id,
  number: z.int(),
  track: z.string(),
  circuit: z.string().nullable(),
  car_id: z.int(),
  car_name: z.string(),
  time_ms: z.number(),
  complete: z.boolean(),
  counts_for_best: z.boolean(),
  bests_excluded: z.boolean(),
  imported: z.boolean(),
  finished_at: z.string(),
}).meta({ id: "LapListItem" });

/** One row of `GET /api/laps/bests`. */
export const bestItemSchema = z.strictObject({
  track: z.string(),
  circuit: z.string(),
  car_id: z.int(),
  car_name: z.string(),
  lap_id: id,
  session_id: id,
  time_ms: z.number(),
  gap_ms: z.number(),
  laps_behind: z.int().min(0),
  sessions: z.int().min(1),
}).meta({ id: "BestItem" });

/** What `DELETE /api/laps/{id}` answers. */
export const lapDeletionSchema = z.strictObject({
  id,
  deleted: z.literal(true),
  session: sessionSchema,
});

/** What `DELETE /api/sessions/{id}` answers. */
export const sessionDeletionSchema = z.strictObject({
  id,
  deleted: z.literal(true),
  laps: z.int().min(0),
});

/** What `POST /api/laps/import` answers. */
export const lapImportResultSchema = z.strictObject({
  lap: lapSummarySchema,
  session: sessionSchema,
  created_session: z.literal(true),
});

const checks: {
  session: SameType<z.output<typeof sessionSchema>, Session>;
  lapSummary: SameType<z.output<typeof lapSummarySchema>, LapSummary>;
  lapListItem: SameType<z.output<typeof lapListItemSchema>, LapListItem>;
  bestItem: SameType<z.output<typeof bestItemSchema>, BestItem>;
  lapDeletion: SameType<z.output<typeof lapDeletionSchema>, LapDeletion>;
  sessionDeletion: SameType<z.output<typeof sessionDeletionSchema>, SessionDeletion>;
  lapImportResult: SameType<z.output<typeof lapImportResultSchema>, LapImportResult>;
} = {
  session: true,
  lapSummary: true,
  lapListItem: true,
  bestItem: true,
  lapDeletion: true,
  sessionDeletion: true,
  lapImportResult: true,
};
void checks;
