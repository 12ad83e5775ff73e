/**
 * Encoding of {@linkcode Frame}s into plaintext GT7 packets, for the fake
 * console that replays captures and synthetic drives.
 *
 * @module
 */
import { PACKET_MAGIC, PACKET_SIZE, type PacketFormat } from "./format.ts";
import type { Frame } from "./frame.ts";
import { GEAR_RATIO_COUNT, OFFSET, TEXT_FIELD_BYTES } from "./layout.ts";

/**
 * Encodes a frame as a plaintext packet of `format` (default: the frame's
 * own), starting with the magic. Reserved, padding, unknown and IV bytes are
 * zero. Extensions the format does not carry are dropped; extensions it
 * carries but the frame lacks (null) are written as zeros.
 *
 * Guarantees `decodeFrame(encodeFrame(f))` deep-equals `f` when `f` carries
 * exactly the extensions of its format, every float is a float32 value, and
 * the text fields are as decoding yields them (4 surface letters; a category
 * without trailing NULs). Throws RangeError when an integer field is not an integer
 * of its packet type's range, a text field is too long or not Latin-1, or
 * there are not 8 gear ratios.
 */
export function encodeFrame(frame: Frame, format: PacketFormat = frame.format): Uint8Array {
  const size = PACKET_SIZE[format];
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  v.setUint32(OFFSET.magic, PACKET_MAGIC, true);
  f32(v, OFFSET.position, frame.posX, frame.posY, frame.posZ);
  f32(v, OFFSET.velocity, frame.velX, frame.velY, frame.velZ);
  f32(v, OFFSET.rotation, frame.rotX, frame.rotY, frame.rotZ, frame.rotW);
  f32(v, OFFSET.angularVelocity, frame.angVelX, frame.angVelY, frame.angVelZ);
  f32(v, OFFSET.bodyHeight, frame.bodyHeight, frame.engineRpm);
  f32(v, OFFSET.fuelLevel, frame.fuelLevel, frame.fuelCapacity, frame.speed, frame.boostRaw);
  f32(v, OFFSET.oilPressure, frame.oilPressure, frame.waterTemp, frame.oilTemp);
  f32(v, OFFSET.tyreTemp, ...frame.tyreTemp);
  v.setInt32(OFFSET.packetId, int(frame.packetId, "packetId", -0x80000000, 0x7fffffff), true);
  v.setInt16(OFFSET.currentLap, int(frame.currentLap, "currentLap", -0x8000, 0x7fff), true);
  v.setInt16(OFFSET.totalLaps, int(frame.totalLaps, "totalLaps", -0x8000, 0x7fff), true);
  v.setInt32(OFFSET.bestLap, int(frame.bestLapMs, "bestLapMs", -0x80000000, 0x7fffffff), true);
  v.setInt32(OFFSET.lastLap, int(frame.lastLapMs, "lastLapMs", -0x80000000, 0x7fffffff), true);
  v.setInt32(
    OFFSET.dayProgression,
    int(frame.dayProgressionMs, "dayProgressionMs", -0x80000000, 0x7fffffff),
    true,
  );
  v.setInt16(OFFSET.racePosition, int(frame.racePosition, "racePosition", -0x8000, 0x7fff), true);
  v.setInt16(
    OFFSET.totalPositions,
    int(frame.totalPositions, "totalPositions", -0x8000, 0x7fff),
    true,
  );
  v.setUint16(OFFSET.rpmAlertMin, int(frame.rpmAlertMin, "rpmAlertMin", 0, 0xffff), true);
  v.setUint16(OFFSET.rpmAlertMax, int(frame.rpmAlertMax, "rpmAlertMax", 0, 0xffff), true);
  v.setInt16(
    OFFSET.calculatedMaxSpeed,
    int(frame.calculatedMaxSpeed, "calculatedMaxSpeed", -0x8000, 0x7fff),
    true,
  );
  v.setUint16(OFFSET.flags, int(frame.flags, "flags", 0, 0xffff), true);
  out[OFFSET.gears] = int(frame.gear, "gear", 0, 15) |
    (int(frame.suggestedGear, "suggestedGear", 0, 15) << 4);
  out[OFFSET.throttle] = int(frame.throttle, "throttle", 0, 255);
  out[OFFSET.brake] = int(frame.brake, "brake", 0, 255);
  f32(v, OFFSET.roadPlane, ...frame.roadPlane);
  f32(v, OFFSET.wheelRps, ...frame.wheelRps);
  f32(v, OFFSET.tyreRadius, ...frame.tyreRadius);
  f32(v, OFFSET.suspension, ...frame.suspension);
  f32(
    v,
    OFFSET.clutch,
    frame.clutch,
    frame.clutchEngagement,
    frame.rpmAfterClutch,
    frame.transmissionTopSpeed,
  );
  if (frame.gearRatios.length !== GEAR_RATIO_COUNT) {
    throw new RangeError(
      `gearRatios must hold ${GEAR_RATIO_COUNT} values, got ${frame.gearRatios.length}`,
    );
  }
  f32(v, OFFSET.gearRatios, ...frame.gearRatios);
  v.setInt32(OFFSET.carId, int(frame.carId, "carId", -0x80000000, 0x7fffffff), true);

  if (size >= PACKET_SIZE.B && frame.motion !== null) {
    const m = frame.motion;
    v.setFloat32(OFFSET.wheelRotation, m.wheelRotation, true);
    f32(v, OFFSET.sway, m.sway, m.heave, m.surge);
  }
  if (size >= PACKET_SIZE["~"] && frame.filtered !== null) {
    const f = frame.filtered;
    out[OFFSET.throttleFiltered] = int(f.throttleFiltered, "throttleFiltered", 0, 255);
    out[OFFSET.brakeFiltered] = int(f.brakeFiltered, "brakeFiltered", 0, 255);
    f32(v, OFFSET.torqueVectors, ...f.torqueVectors, f.energyRecovery);
  }
  if (size >= PACKET_SIZE.C && frame.surface !== null) {
    const s = frame.surface;
    if (s.surface.length !== TEXT_FIELD_BYTES) {
      throw new RangeError(`surface must be 4 letters, got ${JSON.stringify(s.surface)}`);
    }
    text(out, OFFSET.surface, s.surface, "surface");
    v.setInt32(OFFSET.lapTime, int(s.lapTimeMs, "lapTimeMs", -0x80000000, 0x7fffffff), true);
    f32(v, OFFSET.wheelSteering, ...s.wheelSteering, s.wheelbase);
    text(out, OFFSET.carCategory, s.carCategory, "carCategory");
  }
  return out;
}

function f32(v: DataView, at: number, ...values: number[]): void {
  for (let i = 0; i < values.length; i++) v.setFloat32(at + 4 * i, values[i], true);
}

function int(value: number, name: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer in ${min}..${max}, got ${value}`);
  }
  return value;
}

function text(out: Uint8Array, at: number, value: string, name: string): void {
  if (value.length > TEXT_FIELD_BYTES) {
    throw new RangeError(`${name} holds at most ${TEXT_FIELD_BYTES} characters, got ${value}`);
  }
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code > 0xff) throw new RangeError(`${name} must be Latin-1, got ${JSON.stringify(value)}`);
    out[at + i] = code;
  }
}
