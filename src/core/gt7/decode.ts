/**
 * Decoding of decrypted GT7 packets into {@linkcode Frame}s.
 *
 * @module
 */
import { formatOfSize, PACKET_MAGIC, PACKET_SIZE } from "./format.ts";
import type { FilteredExt, Frame, MotionExt, SurfaceExt, Wheels } from "./frame.ts";
import { OFFSET, readUint32LE } from "./layout.ts";

// The decoder reads through one DataView over a scratch copy of the packet:
// copying at most 368 bytes costs less than building a DataView per packet,
// and calls are synchronous, so one scratch serves them all. Only fields
// within the packet's own size are read, so stale bytes past it never are.
const SCRATCH = new Uint8Array(PACKET_SIZE.C);
const SCRATCH_VIEW = new DataView(SCRATCH.buffer);

/**
 * Reads the packet counter of a decrypted packet without decoding the rest.
 * Expects at least 0x74 bytes.
 */
export function readPacketId(plain: Uint8Array): number {
  return readUint32LE(plain, OFFSET.packetId) | 0;
}

/**
 * Reads the lap counter of a decrypted packet without decoding the rest.
 * Expects at least 0x76 bytes.
 */
export function readCurrentLap(plain: Uint8Array): number {
  return ((plain[OFFSET.currentLap] | (plain[OFFSET.currentLap + 1] << 8)) << 16) >> 16;
}

/**
 * Decodes a decrypted packet of any of the four sizes into a Frame whose
 * `format` is the one of the size; the extensions a format does not carry are
 * null. Floats are exact float32 values. Reserved and unknown bytes are
 * ignored. Throws RangeError when the size matches no format or the packet
 * does not start with the magic.
 */
export function decodeFrame(plain: Uint8Array): Frame {
  const format = formatOfSize(plain.length);
  if (format === null) {
    throw new RangeError(`no GT7 packet format has ${plain.length} bytes`);
  }
  SCRATCH.set(plain);
  const v = SCRATCH_VIEW;
  if (v.getUint32(OFFSET.magic, true) !== PACKET_MAGIC) {
    throw new RangeError("packet does not start with the GT7 magic (not decrypted?)");
  }
  const size = PACKET_SIZE[format];
  const gears = plain[OFFSET.gears];
  return {
    format,
    packetId: v.getInt32(OFFSET.packetId, true),
    posX: v.getFloat32(OFFSET.position, true),
    posY: v.getFloat32(OFFSET.position + 4, true),
    posZ: v.getFloat32(OFFSET.position + 8, true),
    velX: v.getFloat32(OFFSET.velocity, true),
    velY: v.getFloat32(OFFSET.velocity + 4, true),
    velZ: v.getFloat32(OFFSET.velocity + 8, true),
    rotX: v.getFloat32(OFFSET.rotation, true),
    rotY: v.getFloat32(OFFSET.rotation + 4, true),
    rotZ: v.getFloat32(OFFSET.rotation + 8, true),
    rotW: v.getFloat32(OFFSET.rotationW, true),
    angVelX: v.getFloat32(OFFSET.angularVelocity, true),
    angVelY: v.getFloat32(OFFSET.angularVelocity + 4, true),
    angVelZ: v.getFloat32(OFFSET.angularVelocity + 8, true),
    bodyHeight: v.getFloat32(OFFSET.bodyHeight, true),
    engineRpm: v.getFloat32(OFFSET.engineRpm, true),
    fuelLevel: v.getFloat32(OFFSET.fuelLevel, true),
    fuelCapacity: v.getFloat32(OFFSET.fuelCapacity, true),
    speed: v.getFloat32(OFFSET.speed, true),
    boostRaw: v.getFloat32(OFFSET.boost, true),
    oilPressure: v.getFloat32(OFFSET.oilPressure, true),
    waterTemp: v.getFloat32(OFFSET.waterTemp, true),
    oilTemp: v.getFloat32(OFFSET.oilTemp, true),
    tyreTemp: wheels(v, OFFSET.tyreTemp),
    currentLap: v.getInt16(OFFSET.currentLap, true),
    totalLaps: v.getInt16(OFFSET.totalLaps, true),
    bestLapMs: v.getInt32(OFFSET.bestLap, true),
    lastLapMs: v.getInt32(OFFSET.lastLap, true),
    dayProgressionMs: v.getInt32(OFFSET.dayProgression, true),
    racePosition: v.getInt16(OFFSET.racePosition, true),
    totalPositions: v.getInt16(OFFSET.totalPositions, true),
    rpmAlertMin: v.getUint16(OFFSET.rpmAlertMin, true),
    rpmAlertMax: v.getUint16(OFFSET.rpmAlertMax, true),
    calculatedMaxSpeed: v.getInt16(OFFSET.calculatedMaxSpeed, true),
    flags: v.getUint16(OFFSET.flags, true),
    gear: gears & 0x0f,
    suggestedGear: gears >>> 4,
    throttle: plain[OFFSET.throttle],
    brake: plain[OFFSET.brake],
    roadPlane: wheels(v, OFFSET.roadPlane),
    wheelRps: wheels(v, OFFSET.wheelRps),
    tyreRadius: wheels(v, OFFSET.tyreRadius),
    suspension: wheels(v, OFFSET.suspension),
    clutch: v.getFloat32(OFFSET.clutch, true),
    clutchEngagement: v.getFloat32(OFFSET.clutchEngagement, true),
    rpmAfterClutch: v.getFloat32(OFFSET.rpmAfterClutch, true),
    transmissionTopSpeed: v.getFloat32(OFFSET.transmissionTopSpeed, true),
    gearRatios: gearRatios(v),
    carId: v.getInt32(OFFSET.carId, true),
    motion: size >= PACKET_SIZE.B ? decodeMotion(v) : null,
    filtered: size >= PACKET_SIZE["~"] ? decodeFiltered(v, plain) : null,
    surface: size >= PACKET_SIZE.C ? decodeSurface(v, plain) : null,
  };
}

function wheels(v: DataView, at: number): Wheels {
  return [
    v.getFloat32(at, true),
    v.getFloat32(at + 4, true),
    v.getFloat32(at + 8, true),
    v.getFloat32(at + 12, true),
  ];
}

function gearRatios(v: DataView): number[] {
  const at = OFFSET.gearRatios;
  return [
    v.getFloat32(at, true),
    v.getFloat32(at + 4, true),
    v.getFloat32(at + 8, true),
    v.getFloat32(at + 12, true),
    v.getFloat32(at + 16, true),
    v.getFloat32(at + 20, true),
    v.getFloat32(at + 24, true),
    v.getFloat32(at + 28, true),
  ];
}

function decodeMotion(v: DataView): MotionExt {
  return {
    wheelRotation: v.getFloat32(OFFSET.wheelRotation, true),
    sway: v.getFloat32(OFFSET.sway, true),
    heave: v.getFloat32(OFFSET.heave, true),
    surge: v.getFloat32(OFFSET.surge, true),
  };
}

function decodeFiltered(v: DataView, plain: Uint8Array): FilteredExt {
  return {
    throttleFiltered: plain[OFFSET.throttleFiltered],
    brakeFiltered: plain[OFFSET.brakeFiltered],
    torqueVectors: wheels(v, OFFSET.torqueVectors),
    energyRecovery: v.getFloat32(OFFSET.energyRecovery, true),
  };
}

function decodeSurface(v: DataView, plain: Uint8Array): SurfaceExt {
  const s = OFFSET.surface;
  const c = OFFSET.carCategory;
  // The category is NUL-padded; the surface always names all four wheels.
  let categoryEnd = c + 4;
  while (categoryEnd > c && plain[categoryEnd - 1] === 0) categoryEnd--;
  let carCategory = "";
  for (let i = c; i < categoryEnd; i++) carCategory += String.fromCharCode(plain[i]);
  return {
    surface: String.fromCharCode(plain[s], plain[s + 1], plain[s + 2], plain[s + 3]),
    lapTimeMs: v.getInt32(OFFSET.lapTime, true),
    wheelSteering: [
      v.getFloat32(OFFSET.wheelSteering, true),
      v.getFloat32(OFFSET.wheelSteering + 4, true),
    ],
    wheelbase: v.getFloat32(OFFSET.wheelbase, true),
    carCategory,
  };
}
