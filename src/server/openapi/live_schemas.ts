/**
 * Zod schemas of the live frame stream (`GET /api/live`) and the race
 * strategy (`GET /api/strategy`), checked at compile time against the types
 * of src/app/live_frame.ts, which are the truth.
 *
 * @module
 */
import { z } from "zod";
import type { FuelStrategy, LiveDelta, LiveFrame, RaceStrategy } from "../../app/live_frame.ts";
import type { SameType } from "./same_type.ts";

const num = z.number();
const nullableNum = z.number().nullable();

const fuelStrategyShape = {
  laps_used: z.int().min(0),
  fuel_per_lap: nullableNum,
  lap_time_ms: nullableNum,
  laps_to_empty: nullableNum,
  minutes_to_empty: nullableNum,
};

/** {@linkcode FuelStrategy}: fuel figures from the session's complete green laps. */
export const fuelStrategySchema = z.strictObject(fuelStrategyShape).meta({ id: "FuelStrategy" });

/** {@linkcode LiveDelta}: the gap to the reference lap. */
export const liveDeltaSchema = z.strictObject({
  delta_ms: nullableNum,
  predicted_lap_ms: nullableNum,
  reference_lap_id: z.int().nullable(),
  reference_lap_ms: nullableNum,
}).meta({ id: "LiveDelta" });

/** {@linkcode LiveFrame}: one `frame` event of `GET /api/live`. */
export const liveFrameSchema = z.strictObject({
  packet_id: z.int(),
  at: z.string(),
  speed_kmh: num,
  gear: z.int(),
  suggested_gear: z.int().nullable(),
  rpm: num,
  rev_limit: z.boolean(),
  rpm_alert: z.strictObject({ min: num, max: num }),
  throttle_pct: num,
  brake_pct: num,
  clutch: num,
  boost_bar: num,
  fuel: num,
  fuel_capacity: num,
  fuel_laps_left: nullableNum,
  water_temp_c: num,
  oil_temp_c: num,
  oil_pressure_bar: num,
  tyre_temp_c: z.tuple([num, num, num, num]),
  aids: z.strictObject({ tcs: z.boolean(), asm: z.boolean() }),
  position: z.strictObject({ x: num, y: num, z: num }),
  distance_m: num,
  lap: z.int(),
  lap_clock_ms: num,
  race_position: z.int().nullable(),
  total_positions: z.int().nullable(),
  delta: liveDeltaSchema,
  sector: z.int().min(1).nullable(),
  strategy: fuelStrategySchema,
  next_brake: z.strictObject({ corner: z.int(), name: z.string(), distance_m: num }).nullable(),
}).meta({ id: "LiveFrame" });

/** {@linkcode RaceStrategy}: `GET /api/strategy`'s answer. */
export const raceStrategySchema = z.strictObject({
  ...fuelStrategyShape,
  race: z.strictObject({ laps: z.int().nullable(), minutes: nullableNum }),
  laps_remaining: nullableNum,
  fuel: nullableNum,
  finishes: z.boolean().nullable(),
  pit_on_lap: z.int().nullable(),
}).meta({ id: "RaceStrategy" });

// The schemas and the types of src/app/live_frame.ts cannot drift apart.
const checks: {
  fuelStrategy: SameType<z.output<typeof fuelStrategySchema>, FuelStrategy>;
  liveDelta: SameType<z.output<typeof liveDeltaSchema>, LiveDelta>;
  liveFrame: SameType<z.output<typeof liveFrameSchema>, LiveFrame>;
  raceStrategy: SameType<z.output<typeof raceStrategySchema>, RaceStrategy>;
} = {
  fuelStrategy: true,
  liveDelta: true,
  liveFrame: true,
  raceStrategy: true,
};
void checks;
