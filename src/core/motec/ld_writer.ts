/**
 * The MoTeC i2 `.ld` log file, written from public descriptions of the
 * format (it is not published by MoTeC). All numbers are little-endian. The
 * file is, in order:
 *
 * - the header (0x6E2 bytes): pointers to the first channel's metadata, to
 *   the data and to the event block; the logging device's type, serial and
 *   version; the channel count; date and time; driver, vehicle and venue;
 *   the "pro logging" word; the short comment;
 * - the event block (name, session, 1,024-byte comment, pointer to the venue
 *   block), the venue block (name, pointer to the vehicle block) and the
 *   vehicle block (id, weight, type, comment);
 * - one 124-byte metadata record per channel, a doubly linked list (previous
 *   and next record, first and last pointing to 0), each with a pointer to
 *   its data, its sample count, type, frequency and scaling, name, short
 *   name and unit;
 * - the data: each channel's samples as 32-bit signed integers, channel
 *   after channel. A stored integer r reads as r / scale × 10^-decimals ×
 *   multiplier + shift; here shift is 0, multiplier and scale are 1, so a
 *   value's scaling step is 10^-decimals.
 *
 * Nothing in the file depends on when or where it was written, so the same
 * laps always give the same bytes. docs/formats.md lists every field.
 *
 * @module
 */
import { MOTEC_FREQUENCY_HZ, type MotecChannel, motecChannels } from "./channels.ts";
import { logComment, logStart, type MotecLog, shortComment } from "./log.ts";

/** Size of the header; the event block starts here. */
export const LD_HEADER_SIZE = 0x6e2;
/** Size of the event block. */
export const LD_EVENT_SIZE = 1154;
/** Size of the venue block. */
export const LD_VENUE_SIZE = 1100;
/** Size of the vehicle block. */
export const LD_VEHICLE_SIZE = 260;
/** Size of one channel's metadata record. */
export const LD_CHANNEL_SIZE = 124;

/** Constants of the header that i2 expects of a logging device (an ADL). */
export const LD_DEVICE = {
  marker: 0x40,
  unknown: [1, 0x4240, 0xf] as const,
  serial: 0x1f44,
  type: "ADL",
  version: 420,
  unknown2: 0xadb0,
  proLogging: 0xc81a4,
} as const;

/** Type code of a 32-bit signed integer channel, and its size in bytes. */
export const LD_INT32 = { code: 5, size: 4 } as const;
/** The first channel record's counter; each next one adds 1. */
export const LD_CHANNEL_COUNTER = 0x2ee1;
/** Vehicle type written in the vehicle block. */
export const LD_VEHICLE_TYPE = "Car";

const INT32_MAX = 2 ** 31 - 1;

/**
 * The `.ld` bytes of `log`: every channel {@linkcode motecChannels} makes
 * from its laps, at 60 Hz, as 32-bit integers in steps of each channel's
 * decimals. Text fields are Latin-1, cut to fit their field with a NUL left
 * at the end; characters outside Latin-1 and control characters become `?`
 * and spaces. Throws when the log holds no lap or a value is not finite.
 */
export function encodeLd(log: MotecLog): Uint8Array<ArrayBuffer> {
  if (log.laps.length === 0) throw new RangeError("log.laps: a MoTeC log needs at least one lap");
  const channels = motecChannels(log.laps);
  const n = channels.length === 0 ? 0 : channels[0].values.length;
  const eventAt = LD_HEADER_SIZE;
  const venueAt = eventAt + LD_EVENT_SIZE;
  const vehicleAt = venueAt + LD_VENUE_SIZE;
  const metaAt = vehicleAt + LD_VEHICLE_SIZE;
  const dataAt = metaAt + channels.length * LD_CHANNEL_SIZE;
  const bytes = new Uint8Array(dataAt + channels.length * n * LD_INT32.size);
  const view = new DataView(bytes.buffer);
  const text = (at: number, size: number, value: string) => putText(bytes, at, size, value);

  // Header.
  view.setUint32(0x000, LD_DEVICE.marker, true);
  view.setUint32(0x008, channels.length > 0 ? metaAt : 0, true);
  view.setUint32(0x00c, dataAt, true);
  view.setUint32(0x024, eventAt, true);
  view.setUint16(0x040, LD_DEVICE.unknown[0], true);
  view.setUint16(0x042, LD_DEVICE.unknown[1], true);
  view.setUint16(0x044, LD_DEVICE.unknown[2], true);
  view.setUint32(0x046, LD_DEVICE.serial, true);
  text(0x04a, 8, LD_DEVICE.type);
  view.setUint16(0x052, LD_DEVICE.version, true);
  view.setUint16(0x054, LD_DEVICE.unknown2, true);
  view.setUint32(0x056, channels.length, true);
  const start = logStart(log);
  text(0x05e, 16, start ? ldDate(start) : "");
  text(0x07e, 16, start ? ldTime(start) : "");
  text(0x09e, 64, log.driver);
  text(0x0de, 64, log.vehicle);
  text(0x15e, 64, log.venue);
  view.setUint32(0x5de, LD_DEVICE.proLogging, true);
  text(0x624, 64, shortComment(log));

  // Event, venue and vehicle blocks.
  text(eventAt, 64, log.event);
  text(eventAt + 64, 64, log.session);
  text(eventAt + 128, 1024, logComment(log));
  view.setUint16(eventAt + 1152, venueAt, true);
  text(venueAt, 64, log.venue);
  view.setUint16(venueAt + 1098, vehicleAt, true);
  text(vehicleAt, 64, log.vehicle);
  view.setUint32(vehicleAt + 192, 0, true);
  text(vehicleAt + 196, 32, LD_VEHICLE_TYPE);

  channels.forEach((c, k) => {
    const at = metaAt + k * LD_CHANNEL_SIZE;
    const data = dataAt + k * n * LD_INT32.size;
    view.setUint32(at, k === 0 ? 0 : at - LD_CHANNEL_SIZE, true);
    view.setUint32(at + 4, k === channels.length - 1 ? 0 : at + LD_CHANNEL_SIZE, true);
    view.setUint32(at + 8, data, true);
    view.setUint32(at + 12, n, true);
    view.setUint16(at + 16, LD_CHANNEL_COUNTER + k, true);
    view.setUint16(at + 18, LD_INT32.code, true);
    view.setUint16(at + 20, LD_INT32.size, true);
    view.setUint16(at + 22, MOTEC_FREQUENCY_HZ, true);
    view.setInt16(at + 24, 0, true); // shift
    view.setInt16(at + 26, 1, true); // multiplier
    view.setInt16(at + 28, 1, true); // scale
    view.setInt16(at + 30, c.decimals, true);
    text(at + 32, 32, c.name);
    text(at + 64, 8, c.short);
    text(at + 72, 12, c.unit);
    writeValues(view, data, c);
  });
  return bytes;
}

function writeValues(view: DataView, at: number, c: MotecChannel): void {
  const f = 10 ** c.decimals;
  const values = c.values;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) {
      throw new RangeError(`channel "${c.name}" sample ${i}: must be a finite number, got ${v}`);
    }
    const r = Math.round(v * f);
    view.setInt32(at + i * 4, r > INT32_MAX ? INT32_MAX : r < -INT32_MAX ? -INT32_MAX : r, true);
  }
}

/** Writes `value` into the `size`-byte field at `at`, NUL-padded, at most size - 1 bytes. */
function putText(bytes: Uint8Array, at: number, size: number, value: string): void {
  let k = 0;
  for (const ch of value) {
    if (k >= size - 1) break;
    const code = ch.codePointAt(0)!;
    bytes[at + k++] = code < 0x20 || (code >= 0x7f && code < 0xa0)
      ? 0x20
      : code > 0xff
      ? 0x3f
      : code;
  }
}

function two(n: number): string {
  return String(n).padStart(2, "0");
}

/** `dd/mm/yyyy`, UTC. */
function ldDate(d: Date): string {
  return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

/** `HH:MM:SS`, UTC. */
function ldTime(d: Date): string {
  return `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}
