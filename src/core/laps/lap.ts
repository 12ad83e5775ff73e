/**
 * The lap record: what is stored, served and exchanged for one lap. Field
 * names are the lap file's (snake_case), so the record serialises unchanged.
 *
 * @module
 */
import type { LapSamples, WheelCode } from "./columns.ts";
import type { LapCoverage } from "./coverage.ts";

/** One detected event on a lap (lockup, wheelspin, bottoming, kerb, off_track). */
export interface LapEvent {
  /** Event type, such as `lockup`. */
  type: string;
  /** Distance into the lap where it began, metres. */
  start_dist: number;
  /** Distance into the lap where it ended, metres. */
  end_dist: number;
  /** Wheels involved. */
  wheels: WheelCode[];
  /** Type-specific severity. */
  severity: number;
}

/** The car's gearing at the end of the lap. */
export interface Gearing {
  /** Non-zero gear ratios, 4 dp. */
  ratios: number[];
  /** Transmission top speed, 1 dp. */
  top_speed: number;
  /** The rev-light alert rpm. */
  rpm_alert: number;
}

/** Metrics derived from samples alone; recomputed on import. */
export interface LapMetrics {
  /** Ticks in the lap. */
  total_ticks: number;
  /** max(0, fuel_start - fuel_end). */
  fuel_consumed: number;
  /** Time-weighted % of ticks with throttle >= 98. */
  full_throttle_pct: number;
  /** Time-weighted % of ticks with brake >= 98. */
  full_brake_pct: number;
  /** Time-weighted % of coasting ticks. */
  coasting_pct: number;
  /** Time-weighted % of ticks with mean wheel slip >= 1.1. */
  tire_spin_pct: number;
  /** Highest speed, km/h. */
  max_speed: number;
  /** Lowest body height, mm. */
  min_body_height: number;
  /** Time-weighted % of ticks with traction control active. */
  tcs_active_pct: number;
  /** Time-weighted % of ticks with stability management active. */
  asm_active_pct: number;
  /** Excursions with 3+ wheels on loose ground for 6+ ticks; -1 when unknown. */
  off_track_count: number;
  /** off_track_count == 0, or null when unknown. */
  clean_lap: boolean | null;
}

/** Per-lap engine health; carried over unchanged on import. */
export interface EngineHealth {
  max_water_temp: number;
  max_oil_temp: number;
  /** Lowest oil pressure above 1200 rpm; -1 when unknown. */
  min_oil_pressure: number;
}

/**
 * Everything stored about a lap except its samples. The coverage fields
 * ({@linkcode LapCoverage}) say whether the samples hold the whole lap: an
 * incomplete lap is stored, but never counts for best.
 */
export interface LapSummary extends LapMetrics, EngineHealth, LapCoverage {
  /** Lap identifier, unique in the store. */
  id: number;
  /** The session holding the lap. */
  session_id: number;
  /** Lap number within the session (the counter value the lap was driven under). */
  number: number;
  /** Lap time, ms, as the game reported it. */
  time_ms: number;
  /** ISO 8601 UTC time the lap was completed (or imported). */
  finished_at: string;
  car_id: number;
  car_category: string;
  fuel_start: number;
  fuel_end: number;
  /** In-game time of day at the line, ms; -1 when unknown. */
  tod_ms: number;
  /**
   * Whether the lap may hold the session best: it is `complete` and, for a
   * live lap, its distance span passes the span guard.
   */
  counts_for_best: boolean;
  /** Track-limit excursions against the surveyed road; -1 when not judged. */
  off_survey_count: number;
  /** True when the lap was recovered from an abandoned buffer. */
  salvaged: boolean;
  /** Final race position carried by the lap, or -1. */
  race_position: number;
  /**
   * Packets the console sent that never arrived during the lap, between its
   * first and last sample, whether their ticks were filled or not.
   */
  frames_dropped: number;
  /** True when the lap came from a lap file rather than live telemetry. */
  imported: boolean;
  /** Count of events per type. */
  event_counts: Record<string, number>;
  events: LapEvent[];
  gearing: Gearing | null;
}

/** A lap with its samples. */
export interface Lap extends LapSummary {
  samples: LapSamples;
}
