/**
 * One live frame as every face shows it: the HTTP stream (`GET /api/live`)
 * and the terminal dashboard read the same object, so both show the same
 * numbers. Field names are the API's (snake_case). A leaf module of types;
 * the strategy's shapes are core's (src/core/analysis/strategy.ts).
 *
 * @module
 */
import type { FuelStrategy, RaceStrategy } from "../core/analysis/strategy.ts";
import type { NextBrake } from "../core/analysis/next_brake.ts";

export type { FuelStrategy, NextBrake, RaceStrategy };

/** The gap to the reference lap and what it predicts. */
export interface LiveDelta {
  /** Current elapsed minus the reference's time at this point, ms (negative = ahead); null off the line. */
  delta_ms: number | null;
  /** Reference lap time plus the delta, ms; null without a delta. */
  predicted_lap_ms: number | null;
  /** The reference lap's id, or null without one. */
  reference_lap_id: number | null;
  /** The reference lap's time, ms, or null without one. */
  reference_lap_ms: number | null;
}

/** One frame of the live stream. */
export interface LiveFrame {
  /** Console packet id of the frame. */
  packet_id: number;
  /** Wall-clock time the frame was taken, ISO 8601. */
  at: string;
  speed_kmh: number;
  /** Gear, 0 = neutral, -1 = reverse (GT7 sends 0 for both; reverse unknown). */
  gear: number;
  /** Gear the game suggests, null when it suggests none (raw 15). */
  suggested_gear: number | null;
  rpm: number;
  /** True while the rev-limiter flag is set. */
  rev_limit: boolean;
  /** The packet's own rev-alert range (the shift light's first and last light), rpm. */
  rpm_alert: { min: number; max: number };
  /** 0..100 %. */
  throttle_pct: number;
  /** 0..100 %. */
  brake_pct: number;
  /** Clutch pedal 0..1. */
  clutch: number;
  /** Boost, bar above atmospheric (raw minus 1). */
  boost_bar: number;
  fuel: number;
  fuel_capacity: number;
  /** Laps the fuel lasts at the strategy's median use; null without laps. */
  fuel_laps_left: number | null;
  water_temp_c: number;
  oil_temp_c: number;
  oil_pressure_bar: number;
  /** FL, FR, RL, RR, °C. */
  tyre_temp_c: [number, number, number, number];
  aids: { tcs: boolean; asm: boolean };
  /** World position, metres. */
  position: { x: number; y: number; z: number };
  /** Metres into the current lap along the driven path. */
  distance_m: number;
  lap: number;
  /** Time into the current lap, ms. */
  lap_clock_ms: number;
  /** Race position, null outside races (raw -1). */
  race_position: number | null;
  total_positions: number | null;
  /** Gap to the best complete lap ever at this circuit in this car. */
  delta: LiveDelta;
  /** 1-based index of the sector the car is in, null without a sector plan. */
  sector: number | null;
  /** The fuel strategy as of the last stored lap. */
  strategy: FuelStrategy;
  /**
   * The next corner's braking point on the reference lap, from the car's
   * matched place on it; null without a reference, off its line, or when the
   * reference braked nowhere.
   */
  next_brake: NextBrake | null;
}

/**
 * Where faces get live frames. The app builds one over its live session
 * (src/app/live_frames.ts); the HTTP stream and the dashboard both read it.
 */
export interface LiveFrameSource {
  /** The newest frame, or null before any telemetry in this process. */
  latest(): LiveFrame | null;
  /**
   * Calls `fn` with frames thinned evenly to `hz` per second of console time
   * (60 Hz in, so every 60/hz-th frame); `hz` is 1..60. Synchronous with
   * ingestion: `fn` must not block. Returns the function that unsubscribes.
   */
  subscribe(hz: number, fn: (frame: LiveFrame) => void): () => void;
  /** The strategy for a race of `race_laps` laps or `race_minutes` minutes, from the live session. */
  strategy(race: { race_laps?: number; race_minutes?: number }): Promise<RaceStrategy>;
}
