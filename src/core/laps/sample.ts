/**
 * Turns frames into lap sample rows (REFERENCE 4.3): units, formulas and the
 * rounding each channel is stored with.
 *
 * @module
 */
import { FLAG, type Frame } from "../gt7/frame.ts";
import { packSurface } from "./surface_code.ts";
import {
  AID,
  BASE_COLUMNS,
  type LapSamples,
  OPTIONAL_COLUMNS,
  SAMPLE_COLUMNS,
  type SampleColumn,
} from "./columns.ts";

/**
 * Rounds to `dp` decimal places (halves up; stored values need no banker's
 * rule). Never returns -0, which JSON cannot carry, so stored samples
 * round-trip through lap files bit for bit.
 */
export function round(value: number, dp: number): number {
  const f = 10 ** dp;
  return Math.round(value * f) / f + 0;
}

/** The `aids` bitmask of a frame. */
export function aidsOf(frame: Frame): number {
  let aids = 0;
  if (frame.flags & FLAG.tcs) aids |= AID.tcs;
  if (frame.flags & FLAG.asm) aids |= AID.asm;
  if (frame.flags & FLAG.handbrake) aids |= AID.handbrake;
  if (frame.flags & FLAG.revLimiter) aids |= AID.revLimiter;
  return aids;
}

function wheelSlip(frame: Frame, wheel: number): number {
  if (frame.speed < 1) return 1;
  return Math.abs(frame.wheelRps[wheel]) * frame.tyreRadius[wheel] / frame.speed;
}

/**
 * A growing columnar buffer of samples. Appending is O(1); every column has
 * the same length except optional ones, which {@linkcode SampleBuffer.take}
 * drops unless complete.
 */
export class SampleBuffer {
  #cols: Record<SampleColumn, number[]>;
  #t = 0;
  #dist = 0;
  #filled = 0;

  /** Creates an empty buffer. */
  constructor() {
    this.#cols = emptyColumns();
  }

  /** Samples held. */
  get length(): number {
    return this.#cols.t.length;
  }

  /** Distance covered so far, metres. */
  get distance(): number {
    return this.#dist;
  }

  /** Samples made by interpolation across lost packets, not received; 0 after take or clear. */
  get filled(): number {
    return this.#filled;
  }

  /**
   * Appends one frame that arrived `frames` packet periods after the previous
   * sample (1 normally; more when packets were lost). Each sample is stamped
   * at the end of its tick, time and distance alike, so the first sits at
   * t = 1/60 s and the last `t` of a lap is the time the lap covered. When
   * at most {@linkcode MAX_FILLED_PACKETS} packets were lost, their ticks are
   * filled by interpolation so the series stays at a uniform 60 Hz; longer
   * gaps are left as a jump in `t`.
   */
  append(frame: Frame, frames: number): void {
    const c = this.#cols;
    const first = c.t.length === 0;
    const row = this.#row;
    rowOf(frame, row);
    if (!first && frames > 1 && frames - 1 <= MAX_FILLED_PACKETS) {
      const prev = this.#prev;
      for (let k = 1; k < frames; k++) {
        const w = k / frames;
        for (const name of CONTINUOUS) this.#fill[name] = prev[name] + (row[name] - prev[name]) * w;
        for (const name of HELD) this.#fill[name] = prev[name];
        this.#t += 1 / 60;
        this.#dist += frame.speed / 60;
        this.#push(this.#fill, frame);
      }
      this.#filled += frames - 1;
      frames = 1;
    }
    this.#t += frames / 60;
    this.#dist += frame.speed * frames / 60;
    this.#push(row, frame);
    const swap = this.#prev;
    this.#prev = row;
    this.#row = swap;
  }

  #row: Row = emptyRow();
  #prev: Row = emptyRow();
  #fill: Row = emptyRow();

  #push(row: Row, frame: Frame): void {
    const c = this.#cols;
    c.t.push(round(this.#t, 4));
    c.dist.push(round(this.#dist, 2));
    for (const [name, dp] of ROUNDED) c[name].push(round(row[name], dp));
    for (const name of ALWAYS_HELD) c[name].push(row[name]);
    if (frame.motion) {
      for (const name of MOTION) c[name].push(round(row[name], name === "steer" ? 4 : 3));
    }
    if (frame.filtered) {
      c.throttle_f.push(round(row.throttle_f, 1));
      c.brake_f.push(round(row.brake_f, 1));
    }
    if (frame.racePosition >= 1 && frame.totalPositions >= 2) c.race_pos.push(row.race_pos);
  }

  /**
   * Returns the samples and empties the buffer. Optional channels that did not
   * get a value on every tick are dropped, so every returned column has the
   * length of `t`.
   */
  take(): LapSamples {
    const cols = this.#cols;
    const n = cols.t.length;
    const out: Partial<Record<SampleColumn, number[]>> = {};
    for (const name of BASE_COLUMNS) out[name] = cols[name];
    for (const name of OPTIONAL_COLUMNS) {
      if (cols[name].length === n && n > 0) out[name] = cols[name];
    }
    this.#cols = emptyColumns();
    this.#t = 0;
    this.#dist = 0;
    this.#filled = 0;
    return out as LapSamples;
  }

  /** Discards every sample. */
  clear(): void {
    this.#cols = emptyColumns();
    this.#t = 0;
    this.#dist = 0;
    this.#filled = 0;
  }
}

/** Lost packets filled by interpolation; a longer gap stays a jump in time. */
export const MAX_FILLED_PACKETS = 3;

type Row = Record<SampleColumn, number>;

/**
 * Channels interpolated across a filled gap, with the decimals they are
 * stored to; an import rounds other loggers' values to the same steps.
 */
export const ROUNDED: ReadonlyArray<readonly [SampleColumn, number]> = [
  ["speed", 2],
  ["throttle", 1],
  ["brake", 1],
  ["rpm", 1],
  ["boost", 3],
  ["tire_slip", 4],
  ["yaw_rate", 4],
  ["pos_x", 2],
  ["pos_z", 2],
  ["body_height", 1],
  ["fuel", 3],
  ["slip_fl", 4],
  ["slip_fr", 4],
  ["slip_rl", 4],
  ["slip_rr", 4],
  ["tt_fl", 1],
  ["tt_fr", 1],
  ["tt_rl", 1],
  ["tt_rr", 1],
  ["sus_fl", 1],
  ["sus_fr", 1],
  ["sus_rl", 1],
  ["sus_rr", 1],
  ["pos_y", 2],
  ["clutch", 1],
  ["oil_temp", 1],
  ["water_temp", 1],
];

/** Channels of the motion block (steer stored to 4 decimals, the others to 3). */
export const MOTION = ["steer", "acc_lat", "acc_long", "acc_vert"] as const;

/** Channels interpolated linearly across a filled gap. */
const CONTINUOUS: readonly SampleColumn[] = [
  ...ROUNDED.map(([name]) => name),
  ...MOTION,
  "throttle_f",
  "brake_f",
];

/** Discrete channels every lap carries: a filled tick holds the previous value. */
export const ALWAYS_HELD = [
  "coast",
  "gear",
  "aids",
  "surface",
] as const satisfies readonly SampleColumn[];
/** Discrete channels: a filled tick holds the previous value, never a blend. */
export const HELD: readonly SampleColumn[] = [...ALWAYS_HELD, "race_pos"];

function emptyRow(): Row {
  const row = {} as Row;
  for (const name of SAMPLE_COLUMNS) row[name] = 0;
  return row;
}

/** Writes the unrounded channel values of `frame` into `row`. */
function rowOf(frame: Frame, row: Row): void {
  row.speed = frame.speed * 3.6;
  // Inputs are rounded before the coast test, as stored values are.
  row.throttle = frame.throttle / 2.55;
  row.brake = frame.brake / 2.55;
  row.coast = round(row.throttle, 1) < 1 && round(row.brake, 1) < 1 ? 1 : 0;
  row.gear = frame.gear;
  row.rpm = frame.engineRpm;
  row.boost = frame.boostRaw - 1;
  row.slip_fl = wheelSlip(frame, 0);
  row.slip_fr = wheelSlip(frame, 1);
  row.slip_rl = wheelSlip(frame, 2);
  row.slip_rr = wheelSlip(frame, 3);
  row.tire_slip = (row.slip_fl + row.slip_fr + row.slip_rl + row.slip_rr) / 4;
  row.yaw_rate = Math.abs(frame.angVelY);
  row.pos_x = frame.posX;
  row.pos_z = frame.posZ;
  row.pos_y = frame.posY;
  row.clutch = frame.clutch * 100;
  row.oil_temp = frame.oilTemp;
  row.water_temp = frame.waterTemp;
  row.body_height = frame.bodyHeight * 1000;
  row.fuel = frame.fuelLevel;
  row.tt_fl = frame.tyreTemp[0];
  row.tt_fr = frame.tyreTemp[1];
  row.tt_rl = frame.tyreTemp[2];
  row.tt_rr = frame.tyreTemp[3];
  row.sus_fl = frame.suspension[0] * 1000;
  row.sus_fr = frame.suspension[1] * 1000;
  row.sus_rl = frame.suspension[2] * 1000;
  row.sus_rr = frame.suspension[3] * 1000;
  row.aids = aidsOf(frame);
  row.surface = frame.surface ? packSurface(frame.surface.surface) : 0;
  if (frame.motion) {
    row.steer = frame.motion.wheelRotation;
    row.acc_lat = frame.motion.sway;
    row.acc_long = frame.motion.surge;
    row.acc_vert = frame.motion.heave;
  }
  if (frame.filtered) {
    row.throttle_f = frame.filtered.throttleFiltered / 2.55;
    row.brake_f = frame.filtered.brakeFiltered / 2.55;
  }
  row.race_pos = frame.racePosition;
}

function emptyColumns(): Record<SampleColumn, number[]> {
  const cols = {} as Record<SampleColumn, number[]>;
  for (const name of BASE_COLUMNS) cols[name] = [];
  for (const name of OPTIONAL_COLUMNS) cols[name] = [];
  return cols;
}
