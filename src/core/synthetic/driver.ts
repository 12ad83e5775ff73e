/**
 * The driver model: the line the car follows (a racing line, or one border
 * straddled per lap when surveying), the speed it can carry along that line,
 * and the clock that moves the car along it one 60 Hz tick at a time.
 *
 * @module
 */
import type { CarSpec } from "./car.ts";
import { gearedTopSpeed, GRAVITY } from "./car.ts";
import type { Circuit } from "./circuit.ts";
import { leftOf } from "../gt7/handedness.ts";
import { movingAverage } from "./smoothing.ts";

/** How the synthetic driver drives: flat out, or slowly along the borders. */
export type DriveMode = "race" | "survey";

/** Telemetry ticks per second. */
export const TICK_HZ = 60;

/** How close (metres) the car's centre may come to an edge on the racing line. */
export const RACE_EDGE_MARGIN = 1.2;

/** How far (metres) the straddling wheels sit beyond the edge when surveying. */
export const SURVEY_OVERHANG = 0.35;

/** Distance (metres) over which the car moves across the road between survey laps. */
export const SURVEY_TRANSITION = 120;

/** Fastest speed while surveying, m/s. */
export const SURVEY_MAX_SPEED = 30;

/** What shapes one drive along a circuit. */
export interface DrivePathOptions {
  readonly mode: DriveMode;
  /** Timed laps after the out-lap (at least 1). */
  readonly laps: number;
  /** Distance driven before the first line crossing, metres. */
  readonly outLap: number;
  /** Distance driven after the last line crossing, metres. */
  readonly tail: number;
  /** Grip multiplier per stint: out-lap, laps 1..laps, then the tail. */
  readonly grip: readonly number[];
  /** Speed at the first tick, m/s (capped by what the line allows there). */
  readonly startSpeed: number;
}

/**
 * The line driven over a whole drive, as stations about 2 m apart that
 * follow the circuit's stations (from a little before the line, over every
 * lap, to a little after the last crossing).
 */
export interface DrivePath {
  /** Number of stations. */
  readonly count: number;
  /** Circuit station each drive station sits across from. */
  readonly centre: Int32Array;
  /** Signed offset from the centre line, metres, positive to the left. */
  readonly offset: Float64Array;
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly z: Float64Array;
  /** Unit horizontal direction of travel, x. */
  readonly tx: Float64Array;
  /** Unit horizontal direction of travel, z. */
  readonly tz: Float64Array;
  /** Distance along the driven line (3-D), metres. */
  readonly sigma: Float64Array;
  /** Signed horizontal curvature of the driven line, 1/m, positive to the left. */
  readonly curvature: Float64Array;
  /** Lateral acceleration the driver allows himself at each station, m/s^2. */
  readonly lateralLimit: Float64Array;
  /** Speed profile, m/s. */
  readonly speed: Float64Array;
  /** Distance along the line of each start/finish crossing, in order. */
  readonly lineSigma: readonly number[];
  /** Index of the stint (0 out-lap, 1..laps, laps + 1 tail) of each station. */
  readonly stint: Uint16Array;
}

function wrapAngle(a: number): number {
  return a - 2 * Math.PI * Math.round(a / (2 * Math.PI));
}

/**
 * The racing line as a lateral offset per circuit station (positive left):
 * out wide before a bend, inside at its apex, out wide after it. The car's
 * centre stays at least {@linkcode RACE_EDGE_MARGIN} inside both edges.
 */
export function racingLine(circuit: Circuit): Float64Array {
  const a = circuit.arrays;
  const n = circuit.count;
  const near = movingAverage(a.curvature, 10, true);
  const wide = movingAverage(a.curvature, 60, true);
  const raw = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const room = a.width[i] / 2 - RACE_EDGE_MARGIN - 0.25;
    raw[i] = room * Math.tanh(60 * (2 * near[i] - wide[i]));
  }
  const line = movingAverage(raw, 8, true);
  for (let i = 0; i < n; i++) {
    const limit = a.width[i] / 2 - RACE_EDGE_MARGIN - 0.05;
    line[i] = Math.max(-limit, Math.min(limit, line[i]));
  }
  return line;
}

/**
 * Offset (positive left) that puts the wheels of one side `SURVEY_OVERHANG`
 * beyond that side's edge at circuit station `i`, the other side's wheels on
 * the tarmac. `side` is +1 for the left border, -1 for the right.
 */
export function straddleOffset(circuit: Circuit, car: CarSpec, i: number, side: number): number {
  return side * (circuit.arrays.width[i] / 2 + SURVEY_OVERHANG - car.trackWidth / 2);
}

function blend(from: number, to: number, t: number): number {
  const u = t <= 0 ? 0 : t >= 1 ? 1 : t;
  return from + (to - from) * (1 - Math.cos(Math.PI * u)) / 2;
}

/** The border a survey lap straddles: +1 left on odd laps, -1 right on even laps. */
export function surveySide(lap: number): number {
  return lap % 2 === 1 ? 1 : -1;
}

/**
 * Lays out the driven line and its speed profile for a whole drive. The
 * speed profile respects the lateral limit in every bend, the car's braking
 * and (power- and traction-limited) acceleration, sharing grip between
 * cornering and accelerating or braking.
 */
export function buildDrivePath(circuit: Circuit, car: CarSpec, opts: DrivePathOptions): DrivePath {
  const n = circuit.count;
  const a = circuit.arrays;
  const spacing = circuit.length / n;
  const outSteps = Math.max(1, Math.round(opts.outLap / spacing));
  const tailSteps = Math.max(1, Math.round(opts.tail / spacing));
  const count = outSteps + opts.laps * n + tailSteps + 1;
  const start = n - (outSteps % n);
  const race = racingLine(circuit);
  const survey = opts.mode === "survey";

  const centre = new Int32Array(count);
  const stint = new Uint16Array(count);
  const offset = new Float64Array(count);
  const lineIdx: number[] = [];
  for (let j = 0; j < count; j++) {
    const c = (start + j) % n;
    centre[j] = c;
    const rel = j - outSteps;
    if (rel >= 0 && rel % n === 0) lineIdx.push(j);
    const lap = rel < 0 ? 0 : Math.min(opts.laps + 1, Math.floor(rel / n) + 1);
    stint[j] = lap;
    if (!survey) {
      offset[j] = race[c];
      continue;
    }
    // Survey: centre line on the out-lap and after the flag, one border per timed lap,
    // crossing the road around each line.
    const metres = rel * spacing;
    const half = SURVEY_TRANSITION / 2;
    const firstLap = straddleOffset(circuit, car, c, surveySide(1));
    if (lap === 0) {
      offset[j] = blend(0, firstLap, (metres + SURVEY_TRANSITION) / SURVEY_TRANSITION);
      continue;
    }
    const sinceLine = metres - (lap - 1) * circuit.length;
    const untilLine = lap * circuit.length - metres;
    const own = lap <= opts.laps ? straddleOffset(circuit, car, c, surveySide(lap)) : 0;
    if (lap > opts.laps) {
      const last = straddleOffset(circuit, car, c, surveySide(opts.laps));
      offset[j] = blend(last, 0, sinceLine / SURVEY_TRANSITION);
    } else if (lap > 1 && sinceLine < half) {
      const prev = straddleOffset(circuit, car, c, surveySide(lap - 1));
      offset[j] = blend(prev, own, (sinceLine + half) / SURVEY_TRANSITION);
    } else if (lap < opts.laps && untilLine < half) {
      const next = straddleOffset(circuit, car, c, surveySide(lap + 1));
      offset[j] = blend(own, next, (half - untilLine) / SURVEY_TRANSITION);
    } else {
      offset[j] = own;
    }
  }

  const x = new Float64Array(count);
  const y = new Float64Array(count);
  const z = new Float64Array(count);
  for (let j = 0; j < count; j++) {
    const c = centre[j];
    const [lx, lz] = leftOf(a.tx[c], a.tz[c]);
    x[j] = a.x[c] + lx * offset[j];
    y[j] = a.y[c];
    z[j] = a.z[c] + lz * offset[j];
  }
  const sigma = new Float64Array(count);
  for (let j = 1; j < count; j++) {
    sigma[j] = sigma[j - 1] +
      Math.hypot(x[j] - x[j - 1], y[j] - y[j - 1], z[j] - z[j - 1]);
  }
  const rawTx = new Float64Array(count);
  const rawTz = new Float64Array(count);
  for (let j = 0; j < count; j++) {
    const p = Math.max(0, j - 1);
    const q = Math.min(count - 1, j + 1);
    const dx = x[q] - x[p];
    const dz = z[q] - z[p];
    const len = Math.hypot(dx, dz) || 1;
    rawTx[j] = dx / len;
    rawTz[j] = dz / len;
  }
  // Smoothing the direction (not just the curvature) keeps heading, yaw rate and curvature consistent.
  const tx = movingAverage(rawTx, 2, false);
  const tz = movingAverage(rawTz, 2, false);
  const heading = new Float64Array(count);
  for (let j = 0; j < count; j++) {
    const len = Math.hypot(tx[j], tz[j]) || 1;
    tx[j] /= len;
    tz[j] /= len;
    heading[j] = Math.atan2(tx[j], tz[j]);
  }
  const curvature = new Float64Array(count);
  for (let j = 1; j < count - 1; j++) {
    const ds = Math.hypot(x[j + 1] - x[j - 1], z[j + 1] - z[j - 1]);
    curvature[j] = wrapAngle(heading[j + 1] - heading[j - 1]) / (ds || 1);
  }
  curvature[0] = curvature[1];
  curvature[count - 1] = curvature[count - 2];

  const lateralLimit = new Float64Array(count);
  for (let j = 0; j < count; j++) {
    lateralLimit[j] = (survey ? 0.5 * GRAVITY : car.lateralAccel) * opts.grip[stint[j]];
  }
  const speed = speedProfile(car, survey, sigma, curvature, lateralLimit, opts.startSpeed);
  return {
    count,
    centre,
    offset,
    x,
    y,
    z,
    tx,
    tz,
    sigma,
    curvature,
    lateralLimit,
    speed,
    lineSigma: lineIdx.map((j) => sigma[j]),
    stint,
  };
}

/**
 * Share (0.25..1) of peak longitudinal grip left while `lat` of the lateral
 * `limit` is in use (a friction ellipse with a floor, as drivers still brake
 * and accelerate a little at the limit).
 */
export function gripLeft(lat: number, limit: number): number {
  const u = Math.min(1, Math.abs(lat) / limit);
  return Math.max(0.25, Math.sqrt(1 - u * u));
}

function speedProfile(
  car: CarSpec,
  survey: boolean,
  sigma: Float64Array,
  curvature: Float64Array,
  lateralLimit: Float64Array,
  startSpeed: number,
): Float64Array {
  const count = sigma.length;
  const cap = survey ? SURVEY_MAX_SPEED : gearedTopSpeed(car) * 0.99;
  const traction = survey ? 0.3 * GRAVITY : car.tractionAccel;
  const braking = survey ? 0.45 * GRAVITY : car.brakeDecel;
  const v = new Float64Array(count);
  for (let j = 0; j < count; j++) {
    const k = Math.max(Math.abs(curvature[j]), 1e-6);
    v[j] = Math.min(cap, Math.sqrt(lateralLimit[j] / k));
  }
  v[0] = Math.min(v[0], startSpeed);
  for (let j = 0; j < count - 1; j++) {
    const lat = v[j] * v[j] * curvature[j];
    const drive = Math.min(traction * gripLeft(lat, lateralLimit[j]), car.powerPerMass / v[j]);
    const resist = car.dragPerMass * v[j] * v[j] + car.corneringDrag * Math.abs(lat);
    const acc = Math.max(0, drive - resist);
    const ds = sigma[j + 1] - sigma[j];
    v[j + 1] = Math.min(v[j + 1], Math.sqrt(v[j] * v[j] + 2 * acc * ds));
  }
  for (let j = count - 2; j >= 0; j--) {
    const w = v[j + 1];
    const lat = w * w * curvature[j + 1];
    // Total deceleration (brakes plus drag) stays within the braking limit.
    const dec = braking * gripLeft(lat, lateralLimit[j + 1]);
    const ds = sigma[j + 1] - sigma[j];
    v[j] = Math.min(v[j], Math.sqrt(w * w + 2 * dec * ds));
  }
  return v;
}

/**
 * Moves the car along a {@linkcode DrivePath} one tick (1/60 s) at a time
 * and counts start/finish crossings. The clock is the single source of
 * timing: replaying it always gives the same ticks, positions and crossings.
 */
export class DriveClock {
  /** The path being driven. */
  readonly path: DrivePath;
  /** Index of the current tick, from 0. */
  tick = 0;
  /** Distance driven along the line, metres. */
  sigma = 0;
  /** Station at or before the car. */
  segment = 0;
  /** Start/finish crossings so far (the lap counter). */
  crossings = 0;
  /** Tick of the latest crossing, or 0 before the first. */
  lapStartTick = 0;
  /** True once the car has run past the end of the path. */
  done = false;

  /** Starts at the first station of `path`. */
  constructor(path: DrivePath) {
    this.path = path;
  }

  /** Fraction (0..1) of the way from the current station to the next. */
  fraction(): number {
    const p = this.path;
    const j = this.segment;
    const ds = p.sigma[j + 1] - p.sigma[j];
    return ds > 0 ? (this.sigma - p.sigma[j]) / ds : 0;
  }

  /** Speed now, m/s (speed squared varies linearly between stations). */
  speed(): number {
    const p = this.path;
    const j = this.segment;
    const v0 = p.speed[j] * p.speed[j];
    const v1 = p.speed[j + 1] * p.speed[j + 1];
    return Math.sqrt(Math.max(0, v0 + (v1 - v0) * this.fraction()));
  }

  /** Longitudinal acceleration now, m/s^2 (constant between stations). */
  acceleration(): number {
    const p = this.path;
    const j = this.segment;
    const ds = p.sigma[j + 1] - p.sigma[j];
    return ds > 0 ? (p.speed[j + 1] * p.speed[j + 1] - p.speed[j] * p.speed[j]) / (2 * ds) : 0;
  }

  /** Moves to the next tick; sets `done` instead when that would pass the end of the path. */
  advance(): void {
    if (this.done) return;
    const p = this.path;
    const dt = 1 / TICK_HZ;
    const v = this.speed();
    const next = this.sigma + v * dt + 0.5 * this.acceleration() * dt * dt;
    const end = p.sigma[p.count - 1];
    if (next >= end) {
      this.done = true;
      return;
    }
    this.sigma = Math.max(next, this.sigma + 1e-6);
    while (this.segment < p.count - 2 && p.sigma[this.segment + 1] <= this.sigma) this.segment++;
    this.tick++;
    while (this.crossings < p.lineSigma.length && this.sigma >= p.lineSigma[this.crossings]) {
      this.crossings++;
      this.lapStartTick = this.tick;
    }
  }
}
