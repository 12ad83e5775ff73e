/**
 * The lap record: what is stored, served and exchanged for one lap. Field
 * names are the lap file's (snake_case), so the record serialises unchanged.
 *
 * @module
 */
import type { LapSamples } from "./columns.ts";
import { z } from "zod";
import { lapCoverageSchema } from "./coverage.ts";
import { eventSchema, gearingSchema } from "./lap_file_schema.ts";

/** One detected event on a lap (lockup, wheelspin, bottoming, kerb, off_track). */
export type LapEvent = z.output<typeof eventSchema>;

/** The car's gearing at the end of the lap. */
export type Gearing = z.output<typeof gearingSchema>;

/** Metrics derived from samples alone; recomputed on import. */
const lapMetricsSchema = z.strictObject({
  /** Ticks in the lap. */
  total_ticks: z.int(),
  /** max(0, fuel_start - fuel_end). */
  fuel_consumed: z.number(),
  /** Time-weighted % of ticks with throttle >= 98. */
  full_throttle_pct: z.number(),
  /** Time-weighted % of ticks with brake >= 98. */
  full_brake_pct: z.number(),
  /** Time-weighted % of coasting ticks. */
  coasting_pct: z.number(),
  /** Time-weighted % of ticks with mean wheel slip >= 1.1. */
  tire_spin_pct: z.number(),
  /** Highest speed, km/h. */
  max_speed: z.number(),
  /** Lowest body height, mm. */
  min_body_height: z.number(),
  /** Time-weighted % of ticks with traction control active. */
  tcs_active_pct: z.number(),
  /** Time-weighted % of ticks with stability management active. */
  asm_active_pct: z.number(),
  /** Excursions with 3+ wheels on loose ground for 6+ ticks; -1 when unknown. */
  off_track_count: z.int(),
  /** off_track_count == 0, or null when unknown. */
  clean_lap: z.boolean().nullable(),
});

/** Metrics derived from samples alone; recomputed on import. */
export type LapMetrics = z.output<typeof lapMetricsSchema>;

/** Per-lap engine health; carried over unchanged on import. */
const engineHealthSchema = z.strictObject({
  max_water_temp: z.number(),
  max_oil_temp: z.number(),
  /** Lowest oil pressure above 1200 rpm; -1 when unknown. */
  min_oil_pressure: z.number(),
});

/** Per-lap engine health; carried over unchanged on import. */
export type EngineHealth = z.output<typeof engineHealthSchema>;

/**
 * Everything stored about a lap except its samples: the response schema,
 * and through `z.output` the {@linkcode LapSummary} type. The coverage
 * fields ({@linkcode lapCoverageSchema}) say whether the samples hold the whole
 * lap: an incomplete lap is stored, but never counts for best.
 */
export const lapSummarySchema = z.strictObject({
  /** Lap identifier, unique in the store. */
  id: z.int().min(1),
  /** The session holding the lap. */
  session_id: z.int().min(1),
  /** Lap number within the session (the counter value the lap was driven under). */
  number: z.int(),
  /** Lap time, ms, as the game reported it. */
  time_ms: z.number(),
  /** ISO 8601 UTC time the lap was completed (or imported). */
  finished_at: z.string(),
  car_id: z.int(),
  car_category: z.string(),
  fuel_start: z.number(),
  fuel_end: z.number(),
  /** In-game time of day at the line, ms; -1 when unknown. */
  tod_ms: z.number(),
  /**
   * Whether the lap may hold the session best: it is `complete` and, for a
   * live lap, its distance span passes the span guard.
   */
  counts_for_best: z.boolean(),
  /** Track-limit excursions against the surveyed road; -1 when not judged. */
  off_survey_count: z.int(),
  /** True when the lap was recovered from an abandoned buffer. */
  salvaged: z.boolean(),
  /** Final race position carried by the lap, or -1. */
  race_position: z.int(),
  /**
   * Packets the console sent that never arrived during the lap, between its
   * first and last sample, whether their ticks were filled or not.
   */
  frames_dropped: z.int(),
  /** True when the lap came from a lap file rather than live telemetry. */
  imported: z.boolean(),
  /** Count of events per type. */
  event_counts: z.record(z.string(), z.int()),
  events: z.array(eventSchema),
  gearing: gearingSchema.nullable(),
  ...lapMetricsSchema.shape,
  ...engineHealthSchema.shape,
  ...lapCoverageSchema.shape,
}).meta({ id: "LapSummary" });

/** Everything stored about a lap except its samples. */
export type LapSummary = z.output<typeof lapSummarySchema>;

/** A lap with its samples. */
export interface Lap extends LapSummary {
  samples: LapSamples;
}
