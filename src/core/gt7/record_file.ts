/**
 * The record file written by `start`/`serve --record FILE`: every datagram
 * the logger received, raw (still encrypted, garbage too), each with its
 * arrival time, so a session can be replayed or imported later.
 *
 * Layout (all little-endian): a 16-byte header, the magic `SDLREC01` then the
 * wall-clock start as an f64 of Unix milliseconds; then back-to-back entries,
 * each an f64 arrival time (Unix ms), a u16 length and that many bytes.
 *
 * @module
 */
import { CaptureError } from "./capture.ts";

/** 8 ASCII bytes at offset 0 of every record file. */
export const RECORD_MAGIC = "SDLREC01";

/** Bytes of the file header: magic (8) + f64 LE wall-clock start, Unix ms (8). */
export const RECORD_HEADER_BYTES = 16;

/** Bytes before each datagram: f64 LE arrival time, Unix ms (8) + u16 LE length (2). */
export const RECORD_ENTRY_HEADER_BYTES = 10;

/** The largest datagram an entry can hold (its length is a u16). */
export const RECORD_MAX_DATAGRAM_BYTES = 0xffff;

/** One datagram as it arrived: raw bytes (still encrypted), arrival time in Unix ms. */
export interface RecordedDatagram {
  /** Arrival time, Unix milliseconds. */
  readonly atMs: number;
  /** The datagram as received. */
  readonly bytes: Uint8Array;
}

/** A parsed record file. */
export interface RecordFile {
  /** Wall-clock time the file was started, Unix milliseconds. */
  readonly startedAtMs: number;
  /** Every whole entry, in file order. */
  readonly datagrams: RecordedDatagram[];
  /** Bytes of a truncated final entry (a killed writer leaves one), ignored. */
  readonly trailingBytes: number;
}

const MAGIC_BYTES: Uint8Array = Uint8Array.from(RECORD_MAGIC, (c) => c.charCodeAt(0));

function requireTime(name: string, ms: number): void {
  if (!Number.isFinite(ms)) throw new RangeError(`${name} must be a finite number, got ${ms}`);
}

/**
 * The header of a record file started at `startedAtMs`: always
 * {@linkcode RECORD_HEADER_BYTES} bytes. Throws RangeError when the time is
 * not finite.
 */
export function encodeRecordHeader(startedAtMs: number): Uint8Array {
  requireTime("startedAtMs", startedAtMs);
  const out = new Uint8Array(RECORD_HEADER_BYTES);
  out.set(MAGIC_BYTES, 0);
  new DataView(out.buffer).setFloat64(8, startedAtMs, true);
  return out;
}

/**
 * Writes one entry (header + datagram) into `out` at `offset`; returns the
 * bytes written, `RECORD_ENTRY_HEADER_BYTES + datagram.length`. `out` must
 * have room. Throws RangeError (writing nothing) when it has not, when the
 * datagram exceeds {@linkcode RECORD_MAX_DATAGRAM_BYTES} or when the time is
 * not finite.
 */
export function writeRecordEntry(
  out: Uint8Array,
  offset: number,
  atMs: number,
  datagram: Uint8Array,
): number {
  requireTime("atMs", atMs);
  if (datagram.length > RECORD_MAX_DATAGRAM_BYTES) {
    throw new RangeError(
      `datagram of ${datagram.length} bytes exceeds the ${RECORD_MAX_DATAGRAM_BYTES}-byte entry limit`,
    );
  }
  const size = RECORD_ENTRY_HEADER_BYTES + datagram.length;
  if (!Number.isInteger(offset) || offset < 0 || offset + size > out.length) {
    throw new RangeError(
      `entry of ${size} bytes does not fit at offset ${offset} of a ${out.length}-byte buffer`,
    );
  }
  const view = new DataView(out.buffer, out.byteOffset + offset, RECORD_ENTRY_HEADER_BYTES);
  view.setFloat64(0, atMs, true);
  view.setUint16(8, datagram.length, true);
  out.set(datagram, offset + RECORD_ENTRY_HEADER_BYTES);
  return size;
}

/** True when `bytes` starts with {@linkcode RECORD_MAGIC}. */
export function isRecordFile(bytes: Uint8Array): boolean {
  if (bytes.length < MAGIC_BYTES.length) return false;
  for (let i = 0; i < MAGIC_BYTES.length; i++) {
    if (bytes[i] !== MAGIC_BYTES[i]) return false;
  }
  return true;
}

/**
 * Parses a whole record file. Throws {@linkcode CaptureError} naming the
 * problem for a bad header (too short, wrong magic, gzip-compressed, a start
 * time that is not finite); a truncated final entry is counted in
 * `trailingBytes`, not an error (a killed process leaves one). The `bytes` of
 * each datagram are views into the input, not copies.
 */
export function parseRecordFile(bytes: Uint8Array): RecordFile {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    throw new CaptureError("record file is gzip-compressed; gunzip it before parsing");
  }
  if (!isRecordFile(bytes)) {
    throw new CaptureError(`not a record file: it does not start with "${RECORD_MAGIC}"`);
  }
  if (bytes.length < RECORD_HEADER_BYTES) {
    throw new CaptureError(
      `record file header is truncated: ${bytes.length} of ${RECORD_HEADER_BYTES} bytes`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const startedAtMs = view.getFloat64(8, true);
  if (!Number.isFinite(startedAtMs)) {
    throw new CaptureError(`record file header: start time must be finite, got ${startedAtMs}`);
  }
  const datagrams: RecordedDatagram[] = [];
  let offset = RECORD_HEADER_BYTES;
  while (offset + RECORD_ENTRY_HEADER_BYTES <= bytes.length) {
    const length = view.getUint16(offset + 8, true);
    const start = offset + RECORD_ENTRY_HEADER_BYTES;
    if (start + length > bytes.length) break;
    datagrams.push({
      atMs: view.getFloat64(offset, true),
      bytes: bytes.subarray(start, start + length),
    });
    offset = start + length;
  }
  return { startedAtMs, datagrams, trailingBytes: bytes.length - offset };
}
