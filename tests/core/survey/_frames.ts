/**
 * Hand-made format C frames for survey tests: a car driving in a straight
 * line (or turning at a set yaw rate) with chosen surface letters.
 *
 * @module
 */
import type { Frame, Wheels } from "../../../src/core/gt7/frame.ts";

/** A plain format C frame at rest at the origin; override what a test needs. */
export function frame(over: Partial<Frame> = {}): Frame {
  const base: Frame = {
    format: "C",
    packetId: 1,
    posX: 0,
    posY: 10,
    posZ: 0,
    velX: 0,
    velY: 0,
    velZ: 0,
    rotX: 0,
    rotY: 0,
    rotZ: 0,
    rotW: 1,
    angVelX: 0,
    angVelY: 0,
    angVelZ: 0,
    bodyHeight: 0.07,
    engineRpm: 5000,
    fuelLevel: 50,
    fuelCapacity: 100,
    speed: 0,
    boostRaw: 1,
    oilPressure: 4,
    waterTemp: 85,
    oilTemp: 100,
    tyreTemp: [70, 70, 70, 70],
    currentLap: 1,
    totalLaps: 0,
    bestLapMs: -1,
    lastLapMs: -1,
    dayProgressionMs: 0,
    racePosition: -1,
    totalPositions: -1,
    rpmAlertMin: 6000,
    rpmAlertMax: 7500,
    calculatedMaxSpeed: 250,
    flags: 1,
    gear: 3,
    suggestedGear: 15,
    throttle: 100,
    brake: 0,
    roadPlane: [0, 1, 0, 0],
    wheelRps: [0, 0, 0, 0],
    tyreRadius: [0.33, 0.33, 0.34, 0.34],
    suspension: [0.3, 0.3, 0.3, 0.3],
    clutch: 0,
    clutchEngagement: 1,
    rpmAfterClutch: 5000,
    transmissionTopSpeed: 3,
    gearRatios: [3, 2, 1.5, 1.2, 1, 0.9, 0, 0],
    carId: 1234,
    motion: null,
    filtered: null,
    surface: {
      surface: "TTTT",
      lapTimeMs: 0,
      wheelSteering: [0, 0],
      wheelbase: 2.6,
      carCategory: "Gr.3",
    },
  };
  return { ...base, ...over };
}

/** The surface extension with `letters` (wheelbase 2.6 m). */
export function letters(surface: string, wheelbase = 2.6): Frame["surface"] {
  return { surface, lapTimeMs: 0, wheelSteering: [0, 0], wheelbase, carCategory: "Gr.3" };
}

/** Wheel speeds (rad/s, negative as GT7 reports them) for surface speeds in m/s. */
export function rps(speeds: Wheels, radius: Wheels = [0.33, 0.33, 0.34, 0.34]): Wheels {
  return [
    -speeds[0] / radius[0],
    -speeds[1] / radius[1],
    -speeds[2] / radius[2],
    -speeds[3] / radius[3],
  ];
}

/**
 * `n` frames driving along +x at `speed` m/s from x = `x0`, z = `z0`, one
 * per 1/60 s, with surface letters from `surfaceAt(i)`.
 */
export function straight(
  n: number,
  speed: number,
  surfaceAt: (i: number) => string,
  opts: { x0?: number; z0?: number; lap?: number; packet0?: number } = {},
): Frame[] {
  const out: Frame[] = [];
  for (let i = 0; i < n; i++) {
    out.push(frame({
      packetId: (opts.packet0 ?? 1) + i,
      posX: (opts.x0 ?? 0) + speed * i / 60,
      posZ: opts.z0 ?? 0,
      velX: speed,
      speed,
      currentLap: opts.lap ?? 1,
      wheelRps: rps([speed, speed, speed, speed]),
      surface: letters(surfaceAt(i)),
    }));
  }
  return out;
}
