/**
 * One decoded telemetry packet. Every field the packet carries is here; the
 * extensions of the larger formats are null when the packet did not carry them.
 *
 * @module
 */
import type { PacketFormat } from "./format.ts";

/** Four per-wheel values in the order front-left, front-right, rear-left, rear-right. */
export type Wheels = readonly [fl: number, fr: number, rl: number, rr: number];

/** Bits of {@linkcode Frame.flags}. */
export const FLAG = {
  onTrack: 1 << 0,
  paused: 1 << 1,
  loading: 1 << 2,
  inGear: 1 << 3,
  hasTurbo: 1 << 4,
  revLimiter: 1 << 5,
  handbrake: 1 << 6,
  lights: 1 << 7,
  highBeam: 1 << 8,
  lowBeam: 1 << 9,
  asm: 1 << 10,
  tcs: 1 << 11,
} as const;

/** Format B extension (offset 0x128): steering and motion. */
export interface MotionExt {
  /** Steering wheel rotation, radians. */
  readonly wheelRotation: number;
  /** Lateral acceleration, raw (unitless). */
  readonly sway: number;
  /** Vertical acceleration, raw. */
  readonly heave: number;
  /** Longitudinal acceleration, raw. */
  readonly surge: number;
}

/** Format ~ extension (offset 0x13C): filtered inputs and torque vectoring. */
export interface FilteredExt {
  /** Throttle after the car's filters, raw byte 0..255. */
  readonly throttleFiltered: number;
  /** Brake after the car's filters, raw byte 0..255. */
  readonly brakeFiltered: number;
  /** The four torque-vectoring values. */
  readonly torqueVectors: Wheels;
  /** Energy recovery. */
  readonly energyRecovery: number;
}

/** Format C extension (offset 0x158): surfaces, live lap clock, geometry. */
export interface SurfaceExt {
  /** Four surface letters FL FR RL RR (T tarmac, C kerb, D dirt, G grass, S sand, s snow). */
  readonly surface: string;
  /** Time into the current lap, ms. */
  readonly lapTimeMs: number;
  /** Front-left and front-right steering angles, radians. */
  readonly wheelSteering: readonly [number, number];
  /** Wheelbase, metres. */
  readonly wheelbase: number;
  /** Car category, up to 4 ASCII characters. */
  readonly carCategory: string;
}

/** One decoded packet. Units are the game's: metres, m/s, radians, °C, bar. */
export interface Frame {
  /** The packet format the frame was decoded from. */
  readonly format: PacketFormat;
  /** The console's packet counter; consecutive packets differ by 1. */
  readonly packetId: number;
  readonly posX: number;
  readonly posY: number;
  readonly posZ: number;
  readonly velX: number;
  readonly velY: number;
  readonly velZ: number;
  /** Orientation quaternion x, y, z. */
  readonly rotX: number;
  readonly rotY: number;
  readonly rotZ: number;
  /** Orientation quaternion w ("relative orientation to north"). */
  readonly rotW: number;
  readonly angVelX: number;
  readonly angVelY: number;
  readonly angVelZ: number;
  /** Body height above the road, metres. */
  readonly bodyHeight: number;
  readonly engineRpm: number;
  /** Fuel level, litres (or % of charge for EVs). */
  readonly fuelLevel: number;
  readonly fuelCapacity: number;
  /** Speed, m/s. */
  readonly speed: number;
  /** Boost as the packet carries it: absolute, so 1.0 means no boost. */
  readonly boostRaw: number;
  readonly oilPressure: number;
  readonly waterTemp: number;
  readonly oilTemp: number;
  /** Tyre surface temperatures, °C. */
  readonly tyreTemp: Wheels;
  /** Lap counter: 0 before the first line crossing. */
  readonly currentLap: number;
  /** Laps of the race; 0 outside races. */
  readonly totalLaps: number;
  /** Best lap time, ms; -1 when none. */
  readonly bestLapMs: number;
  /** Last lap time, ms; -1 when none. */
  readonly lastLapMs: number;
  /** In-game time of day, ms. */
  readonly dayProgressionMs: number;
  /** Race position before the start, or during the race; -1 when unknown. */
  readonly racePosition: number;
  readonly totalPositions: number;
  readonly rpmAlertMin: number;
  readonly rpmAlertMax: number;
  /** The game's estimate of top speed, km/h. */
  readonly calculatedMaxSpeed: number;
  /** Bit set of {@linkcode FLAG}. */
  readonly flags: number;
  /** Current gear: 0 reverse, 1..n forward, 15 neutral on some cars. */
  readonly gear: number;
  /** Suggested gear; 15 when none. */
  readonly suggestedGear: number;
  /** Throttle, raw byte 0..255. */
  readonly throttle: number;
  /** Brake, raw byte 0..255. */
  readonly brake: number;
  /** Road plane normal x, y, z and distance. */
  readonly roadPlane: readonly [number, number, number, number];
  /** Wheel speeds, radians per second (sign follows the game). */
  readonly wheelRps: Wheels;
  /** Tyre radii, metres. */
  readonly tyreRadius: Wheels;
  /** Suspension height, metres. */
  readonly suspension: Wheels;
  readonly clutch: number;
  readonly clutchEngagement: number;
  readonly rpmAfterClutch: number;
  /** Transmission top speed (ratio). */
  readonly transmissionTopSpeed: number;
  /** Eight gear ratios; unused gears are 0. */
  readonly gearRatios: readonly number[];
  /** The car's code (see the car table). */
  readonly carId: number;
  /** Present from format B on. */
  readonly motion: MotionExt | null;
  /** Present from format ~ on. */
  readonly filtered: FilteredExt | null;
  /** Present in format C. */
  readonly surface: SurfaceExt | null;
}
