/**
 * One live frame as every face shows it: the HTTP stream (`GET /api/live`)
 * and the terminal dashboard read the same object, so both show the same
 * numbers. Field names are the API's (snake_case). A leaf module of the
 * frame's schema and the types derived from it; the strategy's shapes are
 * core's (src/core/analysis/strategy_schema.ts).
 *
 * @module
 */
import { z } from "zod";
import type { NextBrake } from "../../core/analysis/next_brake.ts";
import {
  type FuelStrategy,
  fuelStrategySchema,
  type RaceStrategy,
} from "../../core/analysis/strategy_schema.ts";
import { liveMessageSchema } from "../../core/hub/live_message.ts";

export type { FuelStrategy, NextBrake, RaceStrategy };

const num = z.number();
const nullableNum = z.number().nullable();

/** The gap to the reference lap and what it predicts. */
export const liveDeltaSchema = z.strictObject({
  /** Current elapsed minus the reference's time at this point, ms (negative = ahead); null off the line. */
  delta_ms: nullableNum,
  /** Reference lap time plus the delta, ms; null without a delta. */
  predicted_lap_ms: nullableNum,
  /** The reference lap's id, or null without one. */
  reference_lap_id: z.int().nullable(),
  /** The reference lap's time, ms, or null without one. */
  reference_lap_ms: nullableNum,
}).meta({ id: "LiveDelta" });

/** The cue for the corner ahead where the last lap lost most (src/app/live/live_cue.ts). */
export const liveCueSchema = z.strictObject({
  /** The short cue: "Turn 4: brake later". */
  text: z.string().meta({ description: 'the short cue: "Turn 4: brake later"' }),
  /** The corner's stable number and name. */
  n: z.int(),
  name: z.string(),
  /** Time the last lap lost there, s. */
  loss_s: num,
  /** The lap whose note it is. */
  lap_id: z.int(),
  /** Where the cue is for, metres into the lap (the reference's braking point). */
  at_m: num.meta({ description: "where the cue is for, metres into the lap" }),
});

/**
 * One frame of the live stream (one `frame` event of `GET /api/live`): the
 * published schema, and through `z.output` the {@linkcode LiveFrame} type.
 */
export const liveFrameSchema = z.strictObject({
  /** Console packet id of the frame. */
  packet_id: z.int(),
  /** Wall-clock time the frame was taken, ISO 8601. */
  at: z.string(),
  speed_kmh: num,
  /** Gear, 0 = neutral, -1 = reverse (GT7 sends 0 for both; reverse unknown). */
  gear: z.int(),
  /** Gear the game suggests, null when it suggests none (raw 15). */
  suggested_gear: z.int().nullable(),
  rpm: num,
  /** True while the rev-limiter flag is set. */
  rev_limit: z.boolean(),
  /** The packet's own rev-alert range (the shift light's first and last light), rpm. */
  rpm_alert: z.strictObject({ min: num, max: num }),
  /** 0..100 %. */
  throttle_pct: num,
  /** 0..100 %. */
  brake_pct: num,
  /** Clutch pedal 0..1. */
  clutch: num,
  /** Boost, bar above atmospheric (raw minus 1). */
  boost_bar: num,
  fuel: num,
  fuel_capacity: num,
  /** Laps the fuel lasts at the strategy's median use; null without laps. */
  fuel_laps_left: nullableNum,
  water_temp_c: num,
  oil_temp_c: num,
  oil_pressure_bar: num,
  /** FL, FR, RL, RR, °C. */
  tyre_temp_c: z.tuple([num, num, num, num]),
  aids: z.strictObject({ tcs: z.boolean(), asm: z.boolean() }),
  /** World position, metres. */
  position: z.strictObject({ x: num, y: num, z: num }),
  /** Metres into the current lap along the driven path. */
  distance_m: num,
  lap: z.int(),
  /** Time into the current lap, ms. */
  lap_clock_ms: num,
  /** Race position, null outside races (raw -1). */
  race_position: z.int().nullable(),
  total_positions: z.int().nullable(),
  /** Gap to the best complete lap ever at this circuit in this car. */
  delta: liveDeltaSchema,
  /** 1-based index of the sector the car is in, null without a sector plan. */
  sector: z.int().min(1).nullable(),
  /** The fuel strategy as of the last stored lap. */
  strategy: fuelStrategySchema,
  /**
   * The cue for the corner ahead where the last lap lost most, from a few
   * hundred metres before its braking point (src/app/live/live_cue.ts); null
   * elsewhere. Absent from a source that gives no cues.
   */
  cue: liveCueSchema.nullable().optional().meta({
    description: "the corner ahead where the last lap lost most, from 300 m before the " +
      "reference's braking point until the car reaches it; null elsewhere",
  }),
  /**
   * The next corner's braking point on the reference lap, from the car's
   * matched place on it; null without a reference, off its line, or when the
   * reference braked nowhere.
   */
  next_brake: z.strictObject({ corner: z.int(), name: z.string(), distance_m: num }).nullable(),
  /** The team hub's newest message to the driver for 30 s after it arrived (`--share-live`); null otherwise. */
  message: liveMessageSchema.nullable().optional(),
}).meta({ id: "LiveFrame" });

/** The gap to the reference lap and what it predicts. */
export type LiveDelta = z.output<typeof liveDeltaSchema>;

/** One frame of the live stream. */
export type LiveFrame = z.output<typeof liveFrameSchema>;

/**
 * Where faces get live frames. The app builds one over its live session
 * (src/app/live/live_frames.ts); the HTTP stream and the dashboard both read it.
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
