/**
 * A lap as another tool's file holds it, and how it becomes a lap of ours:
 * put on the lap file's 60 Hz grid (other rates resampled, the original rate
 * kept for the record), derived channels made the way the recorder makes
 * them (coast, distance, mean tyre slip), values rounded to the steps the
 * recorder stores, and a channel the file lacks left absent, never zero.
 *
 * @module
 */
import { REQUIRED_COLUMNS, type SampleColumn, WHEEL_CODES } from "../columns.ts";
import { expectedSamples } from "../coverage.ts";
import { lapFieldsSchema, MAX_LAP_SAMPLES } from "../lap_file_schema.ts";
import type { ImportLap } from "../lap_file.ts";
import { HELD, MOTION, round, ROUNDED } from "../sample.ts";
import { trackNameFault } from "../../track_name.ts";

/** Shortest lap an import of another tool's file keeps: shorter ones are skipped. */
export const MIN_IMPORTED_LAP_MS = 10_000;

/** Rate of the lap file's grid, samples per second. */
const GRID_HZ = 60;

/** One lap as a parser read it from another tool's file. */
export interface ForeignLap {
  /** The lap's number as the file counts it. */
  number: number;
  /** Lap time, ms, as the file states it (to the file's precision). */
  time_ms: number;
  /**
   * Seconds from the lap's start to each sample, increasing; a sample is
   * stamped at the end of its tick, as the recorder stamps `t`.
   */
  time: readonly number[];
  /** The file's channels by sample column, each with one value per entry of `time`. */
  channels: Partial<Record<SampleColumn, readonly number[]>>;
  car_id?: number;
  /** The car's name as the file gives it; "" or absent when it does not. */
  car_name?: string;
  /** The circuit's name as the file gives it; "" or absent when it does not. */
  track_name?: string;
  fuel_start?: number;
  fuel_end?: number;
}

/** A lap made ready to store, with the rate its file recorded it at. */
export interface ConvertedLap {
  lap: ImportLap;
  /** Samples per second in the file (2 decimals), before the lap was put on the 60 Hz grid. */
  source_hz: number;
}

/** What became of a foreign lap: ready to store, or skipped and why. */
export type Conversion = { ok: true; value: ConvertedLap } | { ok: false; reason: string };

/** Channels an import makes when the file lacks them (distance, coast, mean tyre slip). */
const DERIVED: ReadonlySet<SampleColumn> = new Set(["t", "dist", "coast", "tire_slip"]);

/** Decimals every stored channel is rounded to. */
const DECIMALS = new Map<SampleColumn, number>([
  ["t", 4],
  ["dist", 2],
  ...ROUNDED,
  ...MOTION.map((c) => [c, c === "steer" ? 4 : 3] as const),
  ["throttle_f", 1],
  ["brake_f", 1],
]);

const DISCRETE: ReadonlySet<SampleColumn> = new Set(HELD);

/**
 * `lap` as a lap ready to store, or the reason it is skipped: a lap under
 * {@linkcode MIN_IMPORTED_LAP_MS} (or without a lap time), longer than a lap
 * file holds, with fewer than 2 samples, or without a
 * channel every lap needs (named by `label`, the file's own words for it).
 * Samples at 60 Hz (within 0.5 Hz) are kept one for one; any other rate is
 * resampled to the 60 Hz grid covering the lap time (continuous channels
 * interpolated linearly, discrete ones held; before the first sample and
 * after the last, the nearest value). Coast is made from throttle and brake,
 * distance from speed over time, and tyre slip as the mean of the four
 * wheels', when the file lacks them. A name that breaks the circuit-name
 * rule is dropped (the lap is then named as a live lap would be).
 */
export function convertForeignLap(
  lap: ForeignLap,
  label: (column: SampleColumn) => string,
): Conversion {
  const n = lap.time.length;
  if (n < 2) return { ok: false, reason: `holds ${n} sample${n === 1 ? "" : "s"}, not a lap` };
  if (!(lap.time_ms >= MIN_IMPORTED_LAP_MS)) {
    return {
      ok: false,
      reason: Number.isFinite(lap.time_ms)
        ? `lap of ${(lap.time_ms / 1000).toFixed(3)} s is under the ` +
          `${MIN_IMPORTED_LAP_MS / 1000} s minimum`
        : "the file gives it no lap time",
    };
  }
  if (n > MAX_LAP_SAMPLES || expectedSamples(lap.time_ms) > MAX_LAP_SAMPLES) {
    return {
      ok: false,
      reason: `longer than a lap file holds (${MAX_LAP_SAMPLES} samples at 60 Hz)`,
    };
  }
  const source = { ...lap.channels };
  deriveTyreSlip(source);
  const missing = REQUIRED_COLUMNS.filter((c) => !DERIVED.has(c) && source[c] === undefined);
  if (missing.length > 0) {
    return { ok: false, reason: `missing channels: ${missing.map(label).join(", ")}` };
  }
  const sourceHz = rateOf(lap.time);
  const kept = Math.abs(sourceHz - GRID_HZ) <= 0.5;
  const grid = kept ? [...lap.time] : gridOf(lap.time_ms);
  const samples: Partial<Record<SampleColumn, number[]>> = {};
  for (const [column, values] of Object.entries(source) as [SampleColumn, readonly number[]][]) {
    if (column === "t" || values.length !== n) continue;
    samples[column] = kept ? [...values] : resample(lap.time, values, grid, column);
  }
  samples.t = grid;
  samples.coast ??= coastOf(samples.throttle!, samples.brake!);
  samples.dist ??= distanceOf(grid, samples.speed!);
  for (const [column, values] of Object.entries(samples) as [SampleColumn, number[]][]) {
    const dp = DECIMALS.get(column);
    if (dp !== undefined) {
      for (let i = 0; i < values.length; i++) values[i] = round(values[i], dp);
    }
  }
  const fields = lapFieldsSchema.parse({
    number: Math.max(0, Math.trunc(lap.number)),
    time_ms: Math.round(lap.time_ms),
    car_id: lap.car_id ?? 0,
    fuel_start: lap.fuel_start ?? 0,
    fuel_end: lap.fuel_end ?? 0,
    track_name: carriedName(lap.track_name),
    car_name: carriedName(lap.car_name),
  });
  return {
    ok: true,
    value: { lap: { ...fields, samples: samples as ImportLap["samples"] }, source_hz: sourceHz },
  };
}

/** A name a file carries if it passes the circuit-name rule, else "". */
function carriedName(name: string | undefined): string {
  const trimmed = (name ?? "").trim();
  return trimmed !== "" && trackNameFault(trimmed) === null ? trimmed : "";
}

/**
 * Samples per second of `time` (whole when within 1 % of a whole rate, else
 * to 2 decimals), from the median time over
 * ten samples: times written to the millisecond (a .ld's lap time) make
 * single 60 Hz steps of 16 and 17 ms, which alone would read as 58.8 Hz.
 */
export function rateOf(time: readonly number[]): number {
  const span = Math.min(10, time.length - 1);
  const steps: number[] = [];
  for (let i = span; i < time.length; i++) steps.push((time[i] - time[i - span]) / span);
  steps.sort((a, b) => a - b);
  const median = steps[Math.floor(steps.length / 2)];
  if (!(median > 0)) return 0;
  // Times rounded to 0.1 ms still leave 60 Hz a hair off (59.99): a rate within 1 % of a whole one is it.
  const hz = 1 / median;
  return Math.abs(hz - Math.round(hz)) <= hz / 100 ? Math.round(hz) : Math.round(hz * 100) / 100;
}

/** The 60 Hz grid over a lap of `timeMs`: one tick per 1/60 s, each stamped at its end. */
function gridOf(timeMs: number): number[] {
  const count = Math.max(1, expectedSamples(timeMs));
  return Array.from({ length: count }, (_, k) => (k + 1) / GRID_HZ);
}

/** `values` at `time` read at the times of `grid`. */
function resample(
  time: readonly number[],
  values: readonly number[],
  grid: readonly number[],
  column: SampleColumn,
): number[] {
  const out = new Array<number>(grid.length);
  const held = DISCRETE.has(column);
  let j = 0;
  for (let k = 0; k < grid.length; k++) {
    const g = grid[k];
    while (j < time.length - 2 && time[j + 1] <= g) j++;
    if (g <= time[0]) out[k] = values[0];
    else if (g >= time[time.length - 1]) out[k] = values[time.length - 1];
    else if (held) out[k] = values[j];
    else {
      const w = (g - time[j]) / (time[j + 1] - time[j]);
      out[k] = values[j] + (values[j + 1] - values[j]) * w;
    }
  }
  return out;
}

/** Coast as the recorder makes it: 1 where neither pedal reaches 1 %. */
function coastOf(throttle: readonly number[], brake: readonly number[]): number[] {
  return throttle.map((v, i) => round(v, 1) < 1 && round(brake[i], 1) < 1 ? 1 : 0);
}

/** Distance in metres along the lap from speed (km/h) over the time of each tick. */
function distanceOf(t: readonly number[], speed: readonly number[]): number[] {
  const out = new Array<number>(t.length);
  let dist = 0;
  let before = 0;
  for (let i = 0; i < t.length; i++) {
    dist += (speed[i] / 3.6) * Math.max(0, t[i] - before);
    before = t[i];
    out[i] = dist;
  }
  return out;
}

/** Tyre slip as the recorder makes it, the mean of the four wheels', when all four are given. */
function deriveTyreSlip(channels: Partial<Record<SampleColumn, readonly number[]>>): void {
  if (channels.tire_slip !== undefined) return;
  const wheels = WHEEL_CODES.map((w) => channels[`slip_${w}`]);
  if (wheels.some((w) => w === undefined)) return;
  const [fl, fr, rl, rr] = wheels as (readonly number[])[];
  channels.tire_slip = fl.map((v, i) => (v + fr[i] + rl[i] + rr[i]) / 4);
}

/** A lap a file holds that an import leaves out, and why. */
export interface SkippedLap {
  /** The lap's number as the file counts it. */
  lap: number;
  reason: string;
}

/** What a parser read from one file of another tool. */
export interface ForeignFile {
  /** The laps read, in file order. */
  laps: ForeignLap[];
  /** Stretches of the file that are no whole lap (an out lap, an unfinished lap). */
  skipped: SkippedLap[];
  /** The file's own name for a sample column, for a reason naming what a lap lacks. */
  label: (column: SampleColumn) => string;
}
