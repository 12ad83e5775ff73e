/**
 * Synthetic GT7 telemetry: a seeded car lapping a seeded circuit, emitted as
 * format C {@linkcode Frame}s at 60 Hz with every field filled. The same
 * options always give the same frames, and the lap times are known before
 * the first frame is produced.
 *
 * @module
 */
import type { Frame, Wheels } from "../gt7/frame.ts";
import { FLAG } from "../gt7/frame.ts";
import { type CarSpec, gearedTopSpeed, GR3_CAR, GRAVITY } from "./car.ts";
import { CarState } from "./car_state.ts";
import { type Circuit, generateCircuit } from "./circuit.ts";
import {
  buildDrivePath,
  DriveClock,
  type DriveMode,
  type DrivePath,
  gripLeft,
  TICK_HZ,
} from "./driver.ts";
import { leftOf } from "../gt7/handedness.ts";
import { applyMistakes, type Mistake } from "./mistakes.ts";
import { mistakesEveryLap } from "./mistake_plan.ts";
import { createRng, deriveSeed } from "./random.ts";

/** What to drive. */
export interface DriveOptions {
  /** Integer seed: picks the circuit and every detail of the drive. */
  readonly seed: number;
  /** Timed laps after the out-lap, 1 to 100; default 3 when racing, 2 when surveying. */
  readonly laps?: number;
  /** "race" (default): flat out on a racing line. "survey": one border per lap, slowly. */
  readonly mode?: DriveMode;
  /** GT7 car code to send; default that of {@linkcode GR3_CAR}. */
  readonly carId?: number;
  /** Packet id of the first frame; default derived from the seed. */
  readonly startPacketId?: number;
  /**
   * Every timed lap at the same grip, so clean laps repeat each other
   * (default false: the grip varies a little from lap to lap).
   */
  readonly steady?: boolean;
  /** Mistakes to make at chosen corners of chosen laps (see mistakes.ts). */
  readonly mistakes?: readonly Mistake[];
  /**
   * Lap 1 clean, then one mistake a lap at another braking corner each time
   * (see mistake_plan.ts), besides `mistakes`; default false.
   */
  readonly mistakeEveryLap?: boolean;
}

/** What a drive will produce, known before any frame is generated. */
export interface DrivePlan {
  /** The seed of the circuit and the drive. */
  readonly seed: number;
  /** How the car was driven. */
  readonly mode: DriveMode;
  /** Timed laps. */
  readonly laps: number;
  /** GT7 car code in every frame. */
  readonly carId: number;
  /** Packet id of the first frame. */
  readonly startPacketId: number;
  /** The circuit driven. */
  readonly circuit: Circuit;
  /** Ticks of each timed lap, lap 1 first. */
  readonly lapTicks: readonly number[];
  /** Time of each timed lap, ms: round(ticks * 1000 / 60), exactly as lastLapMs reports it. */
  readonly lapTimesMs: readonly number[];
  /** Index (from 0) of the frame at which the lap counter becomes k + 1, for each crossing k. */
  readonly crossingFrames: readonly number[];
  /** Frames the drive emits in all. */
  readonly totalFrames: number;
}

/** Upper bound on timed laps: the drive path holds about 220 kB per lap. */
const MAX_LAPS = 100;
const TAIL_METRES = 200;
const MS_PER_TICK = 1000 / TICK_HZ;

interface Prepared {
  readonly plan: DrivePlan;
  readonly car: CarSpec;
  readonly path: DrivePath;
  readonly dayStartMs: number;
  readonly fuel: number;
  readonly tyreTemp: number;
  readonly phase: readonly number[];
}

function prepare(opts: DriveOptions): Prepared {
  const { seed } = opts;
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  const mode = opts.mode ?? "race";
  if (mode !== "race" && mode !== "survey") throw new RangeError(`unknown mode ${String(mode)}`);
  const laps = opts.laps ?? (mode === "race" ? 3 : 2);
  if (!Number.isInteger(laps) || laps < 1 || laps > MAX_LAPS) {
    throw new RangeError(`laps must be an integer from 1 to ${MAX_LAPS}, got ${laps}`);
  }
  const carId = opts.carId ?? GR3_CAR.carId;
  if (!Number.isInteger(carId) || carId < 0 || carId > 0x7fffffff) {
    throw new RangeError(`carId must be a non-negative 32-bit integer, got ${carId}`);
  }
  const car: CarSpec = { ...GR3_CAR, carId };
  const rng = createRng(deriveSeed(seed, 0xd21e));
  const startPacketId = opts.startPacketId ?? 100_000 + rng.int(900_000);
  const outLap = rng.range(260, 450);
  const grip = [0.93];
  for (let lap = 1; lap <= laps; lap++) {
    if (mode !== "race") {
      grip.push(1);
      continue;
    }
    // Drawn either way, so a steady drive's other details match the varied one's.
    const g = rng.range(0.985, 1.012);
    grip.push(opts.steady ? 1 : g);
  }
  grip.push(0.85);
  const dayStartMs = (7 * 3600 + rng.int(10 * 3600)) * 1000;
  const fuel = Math.round(rng.range(45, 100) * 10) / 10;
  const tyreTemp = rng.range(45, 65);
  const phase = [0, 1, 2, 3, 4, 5].map(() => rng.range(0, 2 * Math.PI));

  const circuit = generateCircuit(seed);
  const path = buildDrivePath(circuit, car, {
    mode,
    laps,
    outLap,
    tail: TAIL_METRES,
    grip,
    startSpeed: mode === "race" ? 32 : 18,
  });
  // Planned on the clean profile, before any mistake changes it.
  const planned = opts.mistakeEveryLap ? mistakesEveryLap(path, laps) : [];
  applyMistakes(path, car, [...(opts.mistakes ?? []), ...planned]);
  const clock = new DriveClock(path);
  const crossingFrames: number[] = [];
  let frames = 0;
  while (!clock.done) {
    frames++;
    const before = clock.crossings;
    clock.advance();
    if (!clock.done && clock.crossings !== before) crossingFrames.push(clock.tick);
  }
  if (crossingFrames.length !== laps + 1) {
    throw new Error(`drive crossed the line ${crossingFrames.length} times, expected ${laps + 1}`);
  }
  if (
    !Number.isInteger(startPacketId) || startPacketId < 0 || startPacketId + frames > 0x7fffffff
  ) {
    throw new RangeError(`startPacketId must leave room for ${frames} int32 packet ids`);
  }
  const lapTicks = crossingFrames.slice(1).map((t, k) => t - crossingFrames[k]);
  return {
    plan: {
      seed,
      mode,
      laps,
      carId,
      startPacketId,
      circuit,
      lapTicks,
      lapTimesMs: lapTicks.map((t) => Math.round(t * MS_PER_TICK)),
      crossingFrames,
      totalFrames: frames,
    },
    car,
    path,
    dayStartMs,
    fuel,
    tyreTemp,
    phase,
  };
}

/**
 * Plans the drive of `opts` without producing frames: its circuit, the exact
 * time of every timed lap, and how many frames it will emit. Agrees with
 * {@linkcode syntheticFrames} for the same options.
 */
export function planDrive(opts: DriveOptions): DrivePlan {
  return prepare(opts).plan;
}

/** A synthetic drive: its plan up front, its frames on demand. */
export class SyntheticDrive {
  /** What the drive will produce. */
  readonly plan: DrivePlan;
  readonly #prepared: Prepared;

  /** Plans the drive; throws RangeError for invalid options. */
  constructor(opts: DriveOptions) {
    this.#prepared = prepare(opts);
    this.plan = this.#prepared.plan;
  }

  /** The circuit driven. */
  get circuit(): Circuit {
    return this.plan.circuit;
  }

  /**
   * Yields every frame of the drive in order: from the out-lap (lap counter
   * 0), over each timed lap, to a short run after the last crossing. Each
   * call starts again from the first frame and yields identical frames.
   */
  *frames(): Generator<Frame> {
    yield* emit(this.#prepared);
  }
}

/** Yields the frames of the drive described by `opts` (see {@linkcode SyntheticDrive.frames}). */
export function* syntheticFrames(opts: DriveOptions): Generator<Frame> {
  yield* emit(prepare(opts));
}

function byte(fraction: number): number {
  return Math.max(0, Math.min(255, Math.round(fraction * 255)));
}

/** What stays the same through a drive: the car's constants every frame repeats. */
interface DriveConstants {
  readonly halfWb: number;
  readonly halfTw: number;
  readonly tyreRadius: Wheels;
  readonly gearRatios: readonly number[];
  readonly noTorque: Wheels;
  readonly maxSpeedKmh: number;
}

/** The constants of a drive in `car`, each frozen once so every frame shares it. */
function driveConstants(car: CarSpec): DriveConstants {
  return {
    halfWb: car.wheelbase / 2,
    halfTw: car.trackWidth / 2,
    tyreRadius: Object.freeze(
      [
        car.frontTyreRadius,
        car.frontTyreRadius,
        car.rearTyreRadius,
        car.rearTyreRadius,
      ] as const,
    ),
    gearRatios: Object.freeze(Array.from({ length: 8 }, (_, i) => car.gearRatios[i] ?? 0)),
    noTorque: Object.freeze([0, 0, 0, 0] as const),
    maxSpeedKmh: Math.round(gearedTopSpeed(car) * 3.6),
  };
}

/** Where the car is on the path at one tick: position, heading, gradient, speed, curvature. */
interface PathPoint {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  /** Unit heading. */
  readonly fx: number;
  readonly fz: number;
  readonly sinG: number;
  readonly cosG: number;
  /** The gradient of the next segment (for heave). */
  readonly nextSinG: number;
  /** Length of the current segment, m. */
  readonly ds: number;
  readonly v: number;
  readonly acc: number;
  /** Curvature, 1/m. */
  readonly k: number;
}

/** The path at `clock`'s tick, interpolated within its segment. */
function pathPoint(path: DrivePath, clock: DriveClock): PathPoint {
  const j = clock.segment;
  const f = clock.fraction();
  const k = path.curvature[j] + (path.curvature[j + 1] - path.curvature[j]) * f;
  let fx = path.tx[j] + (path.tx[j + 1] - path.tx[j]) * f;
  let fz = path.tz[j] + (path.tz[j + 1] - path.tz[j]) * f;
  const fl = Math.hypot(fx, fz) || 1;
  fx /= fl;
  fz /= fl;
  const ds = path.sigma[j + 1] - path.sigma[j];
  const sinG = ds > 0 ? (path.y[j + 1] - path.y[j]) / ds : 0;
  return {
    x: path.x[j] + (path.x[j + 1] - path.x[j]) * f,
    y: path.y[j] + (path.y[j + 1] - path.y[j]) * f,
    z: path.z[j] + (path.z[j + 1] - path.z[j]) * f,
    fx,
    fz,
    sinG,
    cosG: Math.sqrt(1 - sinG * sinG),
    nextSinG: j + 2 < path.count && path.sigma[j + 2] > path.sigma[j + 1]
      ? (path.y[j + 2] - path.y[j + 1]) / (path.sigma[j + 2] - path.sigma[j + 1])
      : sinG,
    ds,
    v: clock.speed(),
    acc: clock.acceleration(),
    k,
  };
}

/** The driver's pedals and the wheels' slip that produce a point's planned acceleration. */
interface Inputs {
  readonly throttle: number;
  readonly brake: number;
  readonly throttleByte: number;
  readonly brakeByte: number;
  readonly lat: number;
  readonly rearSlip: number;
  readonly frontSlip: number;
}

/** Driver inputs: whatever produces the planned acceleration at `p` within grip `limit`. */
function driverInputs(car: CarSpec, p: PathPoint, limit: number): Inputs {
  const { v, acc } = p;
  const lat = v * v * p.k;
  const resist = car.dragPerMass * v * v + car.corneringDrag * Math.abs(lat);
  const need = acc + resist;
  let throttle = 0;
  let brake = 0;
  if (need >= 0) {
    const capacity = Math.min(car.tractionAccel * gripLeft(lat, limit), car.powerPerMass / v);
    throttle = Math.min(1, need / capacity);
  } else if (-need > 0.5) {
    brake = Math.min(1, -need / car.brakeDecel);
  }
  const throttleByte = byte(throttle);
  const brakeByte = byte(brake);
  throttle = throttleByte / 255;
  brake = brakeByte / 255;
  const usage = Math.hypot(need / car.tractionAccel, lat / car.lateralAccel);
  const rearSlip = throttle > 0
    ? 0.008 + 0.025 * Math.max(0, need) / car.tractionAccel + 0.8 * Math.max(0, usage - 1)
    : -0.01 * brake;
  return { throttle, brake, throttleByte, brakeByte, lat, rearSlip, frontSlip: -0.015 * brake };
}

/** The surface letter under each wheel contact point (FL, FR, RL, RR). */
function wheelSurfaces(circuit: Circuit, c: DriveConstants, p: PathPoint): string[] {
  const [lx, lz] = leftOf(p.fx, p.fz);
  const fwx = p.fx * c.halfWb;
  const fwz = p.fz * c.halfWb;
  const sdx = lx * c.halfTw;
  const sdz = lz * c.halfTw;
  const { x, z } = p;
  return [
    circuit.surfaceAt(x + fwx + sdx, z + fwz + sdz),
    circuit.surfaceAt(x + fwx - sdx, z + fwz - sdz),
    circuit.surfaceAt(x - fwx + sdx, z - fwz + sdz),
    circuit.surfaceAt(x - fwx - sdx, z - fwz - sdz),
  ];
}

/**
 * Suspension travel of each wheel (larger is more compressed: outer side in
 * a bend, nose under braking) over surfaces `surfaces`, at path distance
 * `sig`, with the drive's bump phases `ph`.
 */
function suspensionAt(
  car: CarSpec,
  c: DriveConstants,
  p: PathPoint,
  lat: number,
  sig: number,
  ph: readonly number[],
  surfaces: readonly string[],
): Wheels {
  const dive = -p.acc / GRAVITY * 0.006;
  const roll = lat / GRAVITY * 0.008;
  const aero = 1.8e-6 * p.v * p.v;
  const susp = (w: number, letter: string): number => {
    const front = w < 2;
    const left = w === 0 || w === 2;
    const at = sig + (front ? c.halfWb : -c.halfWb);
    const p0 = left ? ph[0] : ph[1];
    let travel = car.suspensionRest + aero + (front ? dive : -dive) + (left ? -roll : roll) +
      0.0012 * Math.sin(1.9 * at + p0) * Math.sin(0.41 * at + ph[2]) +
      0.0006 * Math.sin(4.7 * at + ph[3]);
    if (letter === "C") travel += 0.006 * (0.5 + 0.5 * Math.sin(at * 2 * Math.PI / 1.1));
    else if (letter === "G") travel += 0.0025 * Math.sin(at * 6.3 + ph[4]) * Math.sin(at * 1.7);
    return travel;
  };
  return [
    susp(0, surfaces[0]),
    susp(1, surfaces[1]),
    susp(2, surfaces[2]),
    susp(3, surfaces[3]),
  ];
}

/** GT7's orientation quaternion: a turn of (heading - pi) about y, then pitch about x. */
function orientation(p: PathPoint): { q: [number, number, number, number]; pitch: number } {
  const heading = Math.atan2(p.fx, p.fz);
  const pitch = Math.asin(p.sinG) + 0.004 * p.acc / GRAVITY;
  const ha = (heading - Math.PI) / 2;
  const pa = pitch / 2;
  let qx = Math.cos(ha) * Math.sin(pa);
  let qy = Math.sin(ha) * Math.cos(pa);
  let qz = -Math.sin(ha) * Math.sin(pa);
  let qw = Math.cos(ha) * Math.cos(pa);
  if (qw < 0) {
    qx = -qx;
    qy = -qy;
    qz = -qz;
    qw = -qw;
  }
  return { q: [qx, qy, qz, qw], pitch };
}

/** Lap times as the car's dash reports them: the last and the best, -1 before the first. */
interface LapClock {
  crossings: number;
  lastLapMs: number;
  bestLapMs: number;
}

/** What carries from one frame to the next: the lap clock, rates and filtered pedals. */
interface Carried extends LapClock {
  prevPitch: number;
  prevRoll: number;
  throttleF: number;
  brakeF: number;
}

function* emit(prep: Prepared): Generator<Frame> {
  const { plan, path } = prep;
  const clock = new DriveClock(path);
  const state = new CarState(prep.car, path.speed[0], prep.fuel, prep.tyreTemp);
  const c = driveConstants(prep.car);
  const carried: Carried = {
    crossings: 0,
    lastLapMs: -1,
    bestLapMs: -1,
    prevPitch: NaN,
    prevRoll: NaN,
    throttleF: 0,
    brakeF: 0,
  };
  while (!clock.done) {
    if (clock.crossings !== carried.crossings) {
      carried.crossings = clock.crossings;
      if (carried.crossings >= 2) {
        carried.lastLapMs = plan.lapTimesMs[carried.crossings - 2];
        carried.bestLapMs = carried.bestLapMs < 0
          ? carried.lastLapMs
          : Math.min(carried.bestLapMs, carried.lastLapMs);
      }
    }
    yield frameAt(prep, c, clock, state, carried);
    clock.advance();
  }
}

/** The frame at `clock`'s tick; updates the car's `state` and what `carried` holds. */
function frameAt(
  prep: Prepared,
  c: DriveConstants,
  clock: DriveClock,
  state: CarState,
  carried: Carried,
): Frame {
  const { plan, car, path } = prep;
  const tick = clock.tick;
  const limit = path.lateralLimit[clock.segment];
  const p = pathPoint(path, clock);
  const { x, y, z, fx, fz, sinG, cosG, v, acc, k } = p;
  const inputs = driverInputs(car, p, limit);
  const { lat, throttle, brake, rearSlip, frontSlip } = inputs;
  state.update({ speed: v, accel: acc, lateral: lat, throttle, brake, rearSlip }, 1 / TICK_HZ);
  const surfaces = wheelSurfaces(plan.circuit, c, p);
  const suspension = suspensionAt(car, c, p, lat, clock.sigma, prep.phase, surfaces);
  const meanSusp = (suspension[0] + suspension[1] + suspension[2] + suspension[3]) / 4;
  const bodyHeight = Math.max(0.02, car.rideHeight - 0.8 * (meanSusp - car.suspensionRest));
  const { q, pitch } = orientation(p);
  const bodyRoll = -0.015 * lat / GRAVITY;
  const angVelX = Number.isNaN(carried.prevPitch) ? 0 : (pitch - carried.prevPitch) * TICK_HZ;
  const angVelZ = Number.isNaN(carried.prevRoll) ? 0 : (bodyRoll - carried.prevRoll) * TICK_HZ;
  carried.prevPitch = pitch;
  carried.prevRoll = bodyRoll;
  const { halfTw } = c;
  const vLeft = v * (1 - k * halfTw);
  const vRight = v * (1 + k * halfTw);
  carried.throttleF += (inputs.throttleByte - carried.throttleF) * 0.3;
  carried.brakeF += (inputs.brakeByte - carried.brakeF) * 0.3;
  const tcs = rearSlip > 0.045 && throttle > 0.5;
  const asm = plan.mode !== "survey" && brake > 0 && Math.abs(lat) > 0.985 * limit;
  const nx = -sinG * fx;
  const ny = cosG;
  const nz = -sinG * fz;
  const crossings = carried.crossings;
  const lapTicks = crossings === 0 ? tick : tick - clock.lapStartTick;
  return {
    format: "C",
    packetId: plan.startPacketId + tick,
    posX: x,
    posY: y,
    posZ: z,
    velX: v * cosG * fx,
    velY: v * sinG,
    velZ: v * cosG * fz,
    rotX: q[0],
    rotY: q[1],
    rotZ: q[2],
    rotW: q[3],
    angVelX,
    angVelY: k * v,
    angVelZ,
    bodyHeight,
    engineRpm: state.rpm,
    fuelLevel: state.fuel,
    fuelCapacity: car.fuelCapacity,
    speed: v,
    boostRaw: state.boost,
    oilPressure: 1.5 + 5.5 * state.rpm / car.limiterRpm,
    waterTemp: state.water,
    oilTemp: state.oil,
    tyreTemp: [state.tyres[0], state.tyres[1], state.tyres[2], state.tyres[3]],
    currentLap: crossings,
    totalLaps: 0,
    bestLapMs: carried.bestLapMs,
    lastLapMs: carried.lastLapMs,
    dayProgressionMs: prep.dayStartMs + Math.round(tick * MS_PER_TICK),
    racePosition: -1,
    totalPositions: -1,
    rpmAlertMin: car.rpmAlertMin,
    rpmAlertMax: car.limiterRpm,
    calculatedMaxSpeed: c.maxSpeedKmh,
    flags: FLAG.onTrack | FLAG.inGear | FLAG.hasTurbo |
      (state.limiting ? FLAG.revLimiter : 0) | (tcs ? FLAG.tcs : 0) | (asm ? FLAG.asm : 0),
    gear: state.gear,
    suggestedGear: 15,
    throttle: inputs.throttleByte,
    brake: inputs.brakeByte,
    roadPlane: [nx, ny, nz, -(nx * x + ny * y + nz * z)],
    wheelRps: [
      -vLeft * (1 + frontSlip) / car.frontTyreRadius,
      -vRight * (1 + frontSlip) / car.frontTyreRadius,
      -vLeft * (1 + rearSlip) / car.rearTyreRadius,
      -vRight * (1 + rearSlip) / car.rearTyreRadius,
    ],
    tyreRadius: c.tyreRadius,
    suspension,
    clutch: 0,
    clutchEngagement: 1,
    rpmAfterClutch: state.rpm,
    transmissionTopSpeed: car.finalDrive,
    gearRatios: c.gearRatios,
    carId: car.carId,
    motion: {
      wheelRotation: Math.atan(car.wheelbase * k) * 1.15 * 14,
      sway: -lat,
      heave: v * v * (p.nextSinG - sinG) / (p.ds || 1),
      surge: acc,
    },
    filtered: {
      throttleFiltered: Math.round(carried.throttleF),
      brakeFiltered: Math.round(carried.brakeF),
      torqueVectors: c.noTorque,
      energyRecovery: 0,
    },
    surface: {
      surface: surfaces[0] + surfaces[1] + surfaces[2] + surfaces[3],
      lapTimeMs: Math.round(lapTicks * MS_PER_TICK),
      wheelSteering: [
        Math.atan(car.wheelbase * k / (1 - k * halfTw)) * 1.15,
        Math.atan(car.wheelbase * k / (1 + k * halfTw)) * 1.15,
      ],
      wheelbase: car.wheelbase,
      carCategory: car.category,
    },
  };
}
