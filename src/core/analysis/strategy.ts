/**
 * Fuel and race strategy from a session's laps: how much a green lap uses,
 * how far the fuel on board goes, and on which lap to pit for a race of so
 * many laps or minutes. Pure arithmetic; the live frames and
 * `GET /api/strategy` answer with it (src/app/live/live_frames.ts).
 *
 * Which laps count (the "green" laps): complete laps with a time, in the
 * car being driven, that are neither a pit lap nor an out-lap. A pit lap is
 * one during which fuel was added (it ends with more than it started), or
 * the last lap before fuel was added at the line (the next lap starts with
 * more than it ended); the lap after a pit lap is its out-lap. The lap
 * counter's lap 0 (the first out-lap) is never stored as a lap.
 *
 * @module
 */
import { median } from "../median.ts";
import type { FuelStrategy, RaceStrategy } from "./strategy_schema.ts";

export type { FuelStrategy, RaceStrategy } from "./strategy_schema.ts";

/** What strategy reads of a stored lap (a `LapSummary` satisfies it). */
export interface StrategyLap {
  /** The lap counter value the lap was driven under. */
  number: number;
  /** The game's lap time, ms; 0 or less when unknown. */
  time_ms: number;
  /** Nothing beyond the filled short gaps was lost. */
  complete: boolean;
  fuel_start: number;
  fuel_end: number;
  car_id: number;
}

/** The medians strategy is built from. */
export interface LapStats {
  /** Green laps the medians come from. */
  laps_used: number;
  /** Median fuel used per green lap (unrounded); null without laps. */
  fuel_per_lap: number | null;
  /** Median time of the green laps, ms (unrounded); null without laps. */
  lap_time_ms: number | null;
}

/** A race: exactly one of its length in laps or in minutes. */
export interface RaceLength {
  laps?: number;
  minutes?: number;
}

/** Where the car stands now. */
export interface RaceState {
  /** The lap counter (1 = the first racing lap; 0 before the line); null when unknown. */
  lap: number | null;
  /** Time into that lap, ms; null when unknown (taken as 0). */
  lap_clock_ms: number | null;
  /** Fuel on board now; null when unknown. */
  fuel: number | null;
}

/** Slack for comparing fuel figures: fuel that finishes the race exactly finishes it. */
const EPSILON = 1e-9;

/**
 * The green laps of `laps` (see the module) in car `carId`, in their order.
 * `laps` must be one session's laps, in lap order: pit and out-laps are
 * found from each lap's neighbours by number.
 */
export function greenLaps<T extends StrategyLap>(laps: readonly T[], carId: number): T[] {
  const byNumber = new Map(laps.map((l) => [l.number, l]));
  const refuelledAtEnd = (l: StrategyLap) => {
    const next = byNumber.get(l.number + 1);
    return next !== undefined && next.fuel_start > l.fuel_end + EPSILON;
  };
  const pitLap = (l: StrategyLap | undefined) =>
    l !== undefined && (l.fuel_end > l.fuel_start + EPSILON || refuelledAtEnd(l));
  return laps.filter((l) =>
    l.car_id === carId && l.complete && l.time_ms > 0 && l.number >= 1 &&
    !pitLap(l) && !pitLap(byNumber.get(l.number - 1))
  );
}

/** The medians of the green laps of `laps` in car `carId` (see {@linkcode greenLaps}). */
export function lapStats(laps: readonly StrategyLap[], carId: number): LapStats {
  const green = greenLaps(laps, carId);
  return {
    laps_used: green.length,
    fuel_per_lap: median(green.map((l) => l.fuel_start - l.fuel_end)),
    lap_time_ms: median(green.map((l) => l.time_ms)),
  };
}

/** `v` to `dp` places, never -0. */
function round(v: number, dp: number): number {
  const f = 10 ** dp;
  return Math.round(v * f) / f + 0;
}

/** Laps the fuel lasts, unrounded; null without a median, without fuel, or when no fuel is used. */
function lapsToEmpty(stats: LapStats, fuel: number | null): number | null {
  const per = stats.fuel_per_lap;
  if (per === null || fuel === null || !(per > 0)) return null;
  return Math.max(0, fuel) / per;
}

/**
 * How far `fuel` goes at the median use of `stats`: laps (fuel divided by
 * fuel per lap) and minutes (those laps at the median lap time). Fields are
 * null without laps or fuel, and the "to empty" ones also when the laps used
 * no fuel (it never runs out).
 */
export function fuelStrategy(stats: LapStats, fuel: number | null): FuelStrategy {
  const laps = lapsToEmpty(stats, fuel);
  return {
    laps_used: stats.laps_used,
    fuel_per_lap: stats.fuel_per_lap === null ? null : round(stats.fuel_per_lap, 3),
    lap_time_ms: stats.lap_time_ms === null ? null : Math.round(stats.lap_time_ms),
    laps_to_empty: laps === null ? null : round(laps, 2),
    minutes_to_empty: laps === null || stats.lap_time_ms === null
      ? null
      : round(laps * stats.lap_time_ms / 60_000, 2),
  };
}

/**
 * The race's length in laps: `race.laps`, or for a timed race the laps
 * driven at the median lap time before the clock runs out, the lap it runs
 * out on included (`ceil(minutes * 60,000 / lap time)`); null for a timed
 * race without laps.
 */
export function raceLaps(race: RaceLength, lapTimeMs: number | null): number | null {
  if (race.laps !== undefined) return race.laps;
  if (race.minutes === undefined || lapTimeMs === null || !(lapTimeMs > 0)) return null;
  return Math.ceil(race.minutes * 60_000 / lapTimeMs - EPSILON);
}

/**
 * The plan for `race` from where the car stands (`state`), at the median
 * fuel use and lap time of `stats`:
 * - the car has driven `lap - 1` laps plus the share of the current lap its
 *   lap clock is of the median lap time (at most 1); before lap 1, none;
 * - `laps_remaining` is the race's laps (see {@linkcode raceLaps}) less that,
 *   never below 0;
 * - `finishes` is true when the fuel lasts at least `laps_remaining` laps
 *   (exactly enough finishes; no fuel used always finishes);
 * - `pit_on_lap` is, when it does not, the last lap the fuel completes
 *   (`floor(driven + laps to empty)`), but never before the current lap
 *   (nor before lap 1).
 * Without laps every derived field is null.
 */
export function raceStrategy(stats: LapStats, race: RaceLength, state: RaceState): RaceStrategy {
  const base = fuelStrategy(stats, state.fuel);
  const asked = { laps: race.laps ?? null, minutes: race.minutes ?? null };
  const total = raceLaps(race, stats.lap_time_ms);
  if (stats.fuel_per_lap === null || stats.lap_time_ms === null || total === null) {
    return {
      ...base,
      race: asked,
      laps_remaining: null,
      fuel: state.fuel,
      finishes: null,
      pit_on_lap: null,
    };
  }
  const lap = state.lap ?? 0;
  const share = Math.min(1, Math.max(0, state.lap_clock_ms ?? 0) / stats.lap_time_ms);
  const driven = lap >= 1 ? lap - 1 + share : 0;
  const remaining = Math.max(0, total - driven);
  const toEmpty = lapsToEmpty(stats, state.fuel);
  let finishes: boolean | null = null;
  let pit: number | null = null;
  if (state.fuel !== null) {
    finishes = toEmpty === null || toEmpty + EPSILON >= remaining;
    if (!finishes && toEmpty !== null) {
      pit = Math.max(lap, 1, Math.floor(driven + toEmpty + EPSILON));
    }
  }
  return {
    ...base,
    race: asked,
    laps_remaining: round(remaining, 2),
    fuel: state.fuel,
    finishes,
    pit_on_lap: pit,
  };
}
