/**
 * Byte offsets of the fields of a decrypted GT7 packet, shared by the decoder
 * and the encoder so the two cannot drift apart. All values are little-endian.
 *
 * @module
 */

/** Offsets of every field a {@linkcode Frame} carries, plus the IV slot. */
export const OFFSET = {
  magic: 0x00,
  position: 0x04,
  velocity: 0x10,
  rotation: 0x1c,
  rotationW: 0x28,
  angularVelocity: 0x2c,
  bodyHeight: 0x38,
  engineRpm: 0x3c,
  iv: 0x40,
  fuelLevel: 0x44,
  fuelCapacity: 0x48,
  speed: 0x4c,
  boost: 0x50,
  oilPressure: 0x54,
  waterTemp: 0x58,
  oilTemp: 0x5c,
  tyreTemp: 0x60,
  packetId: 0x70,
  currentLap: 0x74,
  totalLaps: 0x76,
  bestLap: 0x78,
  lastLap: 0x7c,
  dayProgression: 0x80,
  racePosition: 0x84,
  totalPositions: 0x86,
  rpmAlertMin: 0x88,
  rpmAlertMax: 0x8a,
  calculatedMaxSpeed: 0x8c,
  flags: 0x8e,
  gears: 0x90,
  throttle: 0x91,
  brake: 0x92,
  roadPlane: 0x94,
  wheelRps: 0xa4,
  tyreRadius: 0xb4,
  suspension: 0xc4,
  clutch: 0xf4,
  clutchEngagement: 0xf8,
  rpmAfterClutch: 0xfc,
  transmissionTopSpeed: 0x100,
  gearRatios: 0x104,
  carId: 0x124,
  // Format B
  wheelRotation: 0x128,
  sway: 0x130,
  heave: 0x134,
  surge: 0x138,
  // Format ~
  throttleFiltered: 0x13c,
  brakeFiltered: 0x13d,
  torqueVectors: 0x140,
  energyRecovery: 0x150,
  // Format C
  surface: 0x158,
  lapTime: 0x15c,
  wheelSteering: 0x160,
  wheelbase: 0x168,
  carCategory: 0x16c,
} as const;

/** Number of gear ratios a packet carries. */
export const GEAR_RATIO_COUNT = 8;

/** Bytes of the ASCII surface letters and of the car category field. */
export const TEXT_FIELD_BYTES = 4;

/** Reads the little-endian uint32 at `offset` without building a DataView. */
export function readUint32LE(bytes: Uint8Array, offset: number): number {
  return (bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) |
    (bytes[offset + 3] << 24)) >>> 0;
}

/** Writes `value` as a little-endian uint32 at `offset` (low 32 bits only). */
export function writeUint32LE(bytes: Uint8Array, offset: number, value: number): void {
  bytes[offset] = value & 0xff;
  bytes[offset + 1] = (value >>> 8) & 0xff;
  bytes[offset + 2] = (value >>> 16) & 0xff;
  bytes[offset + 3] = (value >>> 24) & 0xff;
}
