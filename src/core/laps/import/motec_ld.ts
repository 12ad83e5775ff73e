/**
 * MoTeC .ld logs, as our writer (src/core/motec/ld_writer.ts) and other GT7
 * exporters write them: the header's vehicle, venue and comments, then the
 * linked list of channel records, each read by name and unit
 * (motec_names.ts) with its own type, rate and scaling. GPS latitude and
 * longitude become world positions by the inverse of our projection. Laps
 * are cut where the `Lap Time` channel starts again (our logs; their times
 * from the comment's `Lap 3 - 1:39.036` lines), else where a `Lap Number`
 * channel changes (lap 0 and the unfinished last lap skipped), else the log
 * is one lap.
 *
 * @module
 */
import { ImportRejected } from "../../errors.ts";
import { xOfLongitude, zOfLatitude } from "../../motec/gps.ts";
import type { ForeignFile, ForeignLap, SkippedLap } from "./foreign_lap.ts";
import { motecColumn, motecLabel } from "./motec_names.ts";

/** Most channel records read: a longer list is a damaged (looping) one. */
const MAX_CHANNELS = 4096;

/** Most samples a log may hold at its fastest rate (over 18 hours at 60 Hz). */
const MAX_LOG_SAMPLES = 4_000_000;

/** One channel as read from the log, scaled to its unit. */
interface LdChannel {
  name: string;
  unit: string;
  freq: number;
  values: Float64Array;
}

/**
 * True when `bytes` open as a MoTeC .ld log: the 0x40 marker, and pointers
 * to the channel records, the data and the event block inside the file.
 */
export function isMotecLd(bytes: Uint8Array): boolean {
  if (bytes.length < 0x6e2) return false;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const meta = v.getUint32(0x08, true);
  return v.getUint32(0, true) === 0x40 && meta >= 0x6e2 && meta < bytes.length &&
    v.getUint32(0x0c, true) <= bytes.length && v.getUint32(0x24, true) < bytes.length;
}

/**
 * The laps of .ld `bytes` (checked with {@linkcode isMotecLd} first).
 *
 * @throws {ImportRejected} before anything is stored, naming the channel:
 * a record or data running past the end of the file (a truncated log), more
 * than 4,000,000 samples at the log's fastest rate, a value type other than 16- or 32-bit integers and 32-bit floats, a rate
 * of 0, a scale of 0, a value that is not finite, or no channel at all.
 */
export function readMotecLd(bytes: Uint8Array): ForeignFile {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const channels = readChannels(bytes, v);
  if (channels.length === 0) reject("$.channels", "the log holds no channel");
  const freq = Math.max(...channels.map((c) => c.freq));
  const n = Math.max(...channels.map((c) => Math.round(c.values.length * freq / c.freq)));
  if (n > MAX_LOG_SAMPLES) {
    reject(
      "$.channels",
      `${n} samples at ${freq} Hz, more than an import reads (${MAX_LOG_SAMPLES})`,
    );
  }
  const columns: ForeignLap["channels"] = {};
  let lapTime: number[] | undefined;
  let lapNumber: number[] | undefined;
  const gps: { lat?: number[]; lon?: number[] } = {};
  for (const c of channels) {
    const values = onBase(c, freq, n);
    const name = c.name.toLowerCase();
    if (name === "lap time" && c.unit === "s") lapTime = values;
    else if (name === "lap number" || name === "lap") lapNumber = values;
    else if (name === "gps latitude" && c.unit === "deg") gps.lat = values;
    else if (name === "gps longitude" && c.unit === "deg") gps.lon = values;
    const m = motecColumn(c.name, c.unit);
    if (m === null || columns[m.column] !== undefined) continue;
    columns[m.column] = values.map((x) => (m.absolute ? Math.abs(x * m.factor) : x * m.factor));
  }
  if (columns.pos_z === undefined && gps.lat) columns.pos_z = gps.lat.map(zOfLatitude);
  if (columns.pos_x === undefined && gps.lon) columns.pos_x = gps.lon.map(xOfLongitude);
  const names = {
    car_name: text(bytes, 0x0de, 64),
    track_name: text(bytes, 0x15e, 64),
  };
  const eventAt = v.getUint32(0x24, true);
  const comment = eventAt > 0 && eventAt + 1152 <= bytes.length
    ? text(bytes, eventAt + 128, 1024)
    : text(bytes, 0x624, 64);
  const cut = lapTime !== undefined
    ? byLapTime(lapTime, comment, freq)
    : byLapNumber(lapNumber, n, freq);
  const laps = cut.laps.map((s) => {
    const part: ForeignLap["channels"] = {};
    for (const [c, values] of Object.entries(columns)) {
      part[c as keyof typeof part] = values.slice(s.first, s.first + s.count);
    }
    const time = lapTime?.slice(s.first, s.first + s.count) ??
      Array.from({ length: s.count }, (_, i) => (i + 1) / freq);
    return { number: s.number, time_ms: s.time_ms, time, channels: part, ...names };
  });
  return { laps, skipped: cut.skipped, label: motecLabel };
}

/** A lap's place in the log's samples, its number and time. */
interface Span {
  first: number;
  count: number;
  number: number;
  time_ms: number;
}

const COMMENT_LAP = /Lap (\d+) - (\d+):(\d{2})\.(\d{3})/g;

/** Laps where `lapTime` starts again, timed by the comment's lap lines when they match. */
function byLapTime(
  lapTime: readonly number[],
  comment: string,
  freq: number,
): { laps: Span[]; skipped: SkippedLap[] } {
  const starts = [0];
  for (let i = 1; i < lapTime.length; i++) if (lapTime[i] < lapTime[i - 1]) starts.push(i);
  const lines = [...comment.matchAll(COMMENT_LAP)];
  const laps = starts.map((first, k) => {
    const count = (starts[k + 1] ?? lapTime.length) - first;
    const line = lines.length === starts.length ? lines[k] : undefined;
    return {
      first,
      count,
      number: line ? Number(line[1]) : k + 1,
      time_ms: line
        ? (Number(line[2]) * 60 + Number(line[3])) * 1000 + Number(line[4])
        : Math.round(Math.max(lapTime[first + count - 1], count / freq) * 1000),
    };
  });
  return { laps, skipped: [] };
}

/** Laps where `lapNumber` changes (lap 0 and the last, unfinished, skipped); else one lap. */
function byLapNumber(
  lapNumber: readonly number[] | undefined,
  n: number,
  freq: number,
): { laps: Span[]; skipped: SkippedLap[] } {
  const whole = (first: number, count: number, number: number) => ({
    first,
    count,
    number,
    time_ms: Math.round(count / freq * 1000),
  });
  if (lapNumber === undefined) return { laps: [whole(0, n, 1)], skipped: [] };
  const laps: Span[] = [];
  const skipped: SkippedLap[] = [];
  let first = 0;
  for (let i = 1; i <= n; i++) {
    if (i < n && lapNumber[i] === lapNumber[first]) continue;
    const number = Math.round(lapNumber[first]);
    if (i === n) skipped.push({ lap: number, reason: "the log ends before the lap was finished" });
    else if (number === 0) skipped.push({ lap: 0, reason: "lap 0: before the start line" });
    else laps.push(whole(first, i - first, number));
    first = i;
  }
  return { laps, skipped };
}

/** `c`'s values on the log's base rate `freq`, `n` long (a slower channel's values held). */
function onBase(c: LdChannel, freq: number, n: number): number[] {
  const out = new Array<number>(n);
  const last = c.values.length - 1;
  for (let i = 0; i < n; i++) out[i] = c.values[Math.min(last, Math.floor(i * c.freq / freq))];
  return out;
}

/** Every channel record, following the list from the header's pointer. */
function readChannels(bytes: Uint8Array, v: DataView): LdChannel[] {
  const out: LdChannel[] = [];
  const seen = new Set<number>();
  for (let at = v.getUint32(0x08, true); at !== 0; at = v.getUint32(at + 4, true)) {
    const where = `$.channels[${out.length}]`;
    if (seen.has(at) || out.length >= MAX_CHANNELS) reject(where, "the channel list loops");
    if (at + 124 > bytes.length) reject(where, "record runs past the end of the file (truncated)");
    seen.add(at);
    const name = text(bytes, at + 32, 32);
    const c = readChannel(bytes, v, at, `${where} "${name}"`);
    if (c.values.length > 0) out.push({ name, unit: text(bytes, at + 72, 12), ...c });
  }
  return out;
}

function readChannel(bytes: Uint8Array, v: DataView, at: number, where: string) {
  const data = v.getUint32(at + 8, true);
  const count = v.getUint32(at + 12, true);
  const code = v.getUint16(at + 18, true);
  const size = v.getUint16(at + 20, true);
  const freq = v.getUint16(at + 22, true);
  const shift = v.getInt16(at + 24, true);
  const mul = v.getInt16(at + 26, true);
  const scale = v.getInt16(at + 28, true);
  const dec = v.getInt16(at + 30, true);
  const float = code === 7 && size === 4;
  if (!float && !((code === 0 || code === 3 || code === 5) && (size === 2 || size === 4))) {
    reject(where, `value type ${code} of ${size} bytes is not one this reader knows`);
  }
  if (freq === 0) reject(where, "rate is 0 Hz");
  if (scale === 0) reject(where, "scale is 0");
  if (data + count * size > bytes.length) {
    reject(where, "data runs past the end of the file (truncated)");
  }
  const values = new Float64Array(count);
  const step = 10 ** -dec / scale;
  for (let i = 0; i < count; i++) {
    const p = data + i * size;
    const raw = float
      ? v.getFloat32(p, true)
      : size === 2
      ? v.getInt16(p, true)
      : v.getInt32(p, true);
    values[i] = (raw * step + shift) * mul;
    if (!Number.isFinite(values[i])) reject(`${where}[${i}]`, "must be a finite number");
  }
  return { freq, values };
}

/** The Latin-1 text of the `size`-byte field at `at`, up to its first NUL, trimmed. */
function text(bytes: Uint8Array, at: number, size: number): string {
  let end = at;
  while (end < at + size && end < bytes.length && bytes[end] !== 0) end++;
  return new TextDecoder("latin1").decode(bytes.subarray(at, end)).trim();
}

function reject(path: string, message: string): never {
  throw new ImportRejected({ path, message: `MoTeC .ld: ${message}` });
}
