/**
 * The shapes of the fuel and race strategy (field names are the API's): one
 * zod schema each, and the types as their `z.output`, so the published
 * schemas of `GET /api/strategy` and the live frame's `strategy` cannot
 * drift from what src/core/analysis/strategy.ts computes.
 *
 * @module
 */
import { z } from "zod";

const nullableNum = z.number().nullable();

const fuelStrategyShape = {
  /** Green laps the figures come from. */
  laps_used: z.int().min(0),
  /** Median fuel per lap, 3 dp; null without laps. */
  fuel_per_lap: nullableNum,
  /** Median lap time, ms (whole); null without laps. */
  lap_time_ms: nullableNum,
  /** Laps the fuel lasts, 2 dp; null without laps, without fuel, or when no fuel is used. */
  laps_to_empty: nullableNum,
  /** Minutes the fuel lasts, 2 dp; null when `laps_to_empty` is. */
  minutes_to_empty: nullableNum,
};

/** How far the fuel on board goes: fuel figures from the session's complete green laps. */
export const fuelStrategySchema = z.strictObject(fuelStrategyShape).meta({ id: "FuelStrategy" });

/** A race plan: `GET /api/strategy`'s answer. */
export const raceStrategySchema = z.strictObject({
  ...fuelStrategyShape,
  /** The race length asked for. */
  race: z.strictObject({ laps: z.int().nullable(), minutes: nullableNum }),
  /** Laps still to drive from where the car is now, 2 dp; null without laps. */
  laps_remaining: nullableNum,
  /** The fuel on board now. */
  fuel: nullableNum,
  /** True when the fuel on board lasts the race; null without laps or fuel. */
  finishes: z.boolean().nullable(),
  /** The lap at the end of which to pit: the last lap the fuel completes; null when no stop is needed or unknown. */
  pit_on_lap: z.int().nullable(),
}).meta({ id: "RaceStrategy" });

/** How far the fuel on board goes. */
export type FuelStrategy = z.output<typeof fuelStrategySchema>;

/** A race plan. */
export type RaceStrategy = z.output<typeof raceStrategySchema>;
