/**
 * The per-tick sample channels of a lap, stored columnar: one array per
 * channel, all of the same length, at 60 Hz.
 *
 * @module
 */

/** The time, distance and driver channels that lead both the base and the required lists. */
const LEADING_COLUMNS = ["t", "dist", "speed", "throttle", "brake", "coast"] as const;

/** Channels every current lap carries, in export order. */
export const BASE_COLUMNS = [
  ...LEADING_COLUMNS,
  "gear",
  "rpm",
  "boost",
  "tire_slip",
  "yaw_rate",
  "pos_x",
  "pos_z",
  "body_height",
  "fuel",
  "slip_fl",
  "slip_fr",
  "slip_rl",
  "slip_rr",
  "tt_fl",
  "tt_fr",
  "tt_rl",
  "tt_rr",
  "sus_fl",
  "sus_fr",
  "sus_rl",
  "sus_rr",
  "aids",
  "surface",
] as const;

/**
 * Channels only some packet formats provide, or only newer laps carry
 * (`pos_y`, `clutch`, `oil_temp` and `water_temp` are recorded from every
 * format since issue 31; older laps and imported files lack them); dropped
 * when incomplete.
 */
export const OPTIONAL_COLUMNS = [
  "steer",
  "acc_lat",
  "acc_long",
  "acc_vert",
  "throttle_f",
  "brake_f",
  "race_pos",
  "pos_y",
  "clutch",
  "oil_temp",
  "water_temp",
] as const;

/** Every known channel, in canonical order. */
export const SAMPLE_COLUMNS = [...BASE_COLUMNS, ...OPTIONAL_COLUMNS] as const;

/** The name of a sample channel. */
export type SampleColumn = typeof SAMPLE_COLUMNS[number];

/**
 * Channels every lap carries, and a lap file of either version must carry to
 * be imported. Tyre slip and ride height are not among them: other loggers'
 * saves (gt7dashboard's) lack ride height, MoTeC logs may lack both, and a
 * lap without them keeps them absent rather than zero.
 */
export const REQUIRED_COLUMNS = [
  ...LEADING_COLUMNS,
  "pos_x",
  "pos_z",
] as const satisfies readonly SampleColumn[];

/** The 15 channels of a version 1 lap file (t through fuel). */
export const V1_COLUMNS = BASE_COLUMNS.slice(0, 15) as readonly SampleColumn[];

/** A required channel. */
export type RequiredColumn = typeof REQUIRED_COLUMNS[number];

/**
 * A lap's samples: parallel arrays of equal length. The required channels are
 * always present; the others may be absent (older files, smaller formats).
 */
export type LapSamples =
  & { [K in RequiredColumn]: number[] }
  & { [K in Exclude<SampleColumn, RequiredColumn>]?: number[] };

const KNOWN = new Set<string>(SAMPLE_COLUMNS);

/** True when `name` is a known sample channel. */
export function isSampleColumn(name: string): name is SampleColumn {
  return KNOWN.has(name);
}

/** The channels present in `samples`, in canonical order. */
export function presentColumns(samples: LapSamples): SampleColumn[] {
  return SAMPLE_COLUMNS.filter((c) => samples[c] !== undefined);
}

/** Wheel suffixes in FL, FR, RL, RR order, as used in channel names and events. */
export const WHEEL_CODES = ["fl", "fr", "rl", "rr"] as const;

/** A wheel code. */
export type WheelCode = typeof WHEEL_CODES[number];

/** Bits of the `aids` channel. */
export const AID = { tcs: 1, asm: 2, handbrake: 4, revLimiter: 8 } as const;
