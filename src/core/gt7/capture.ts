/**
 * Parsing of capture files: back-to-back GT7 packets of one format, either
 * as the console sent them (encrypted) or already decrypted. Reading the file
 * and gunzipping it are the caller's job.
 *
 * @module
 */
import { decryptPacket, hasMagic } from "./cipher.ts";
import { PACKET_FORMATS, PACKET_SIZE, type PacketFormat } from "./format.ts";

/** The packets of a capture file, decrypted. */
export interface Capture {
  /** The format of every packet in the file. */
  readonly format: PacketFormat;
  /** True when the file held packets as the console sent them. */
  readonly encrypted: boolean;
  /**
   * The decrypted packets, in file order, each of the format's size. For a
   * plaintext file they are views into the bytes given, not copies. Packets
   * that fail the magic check are left out (see `rejected`).
   */
  readonly packets: Uint8Array[];
  /** Whole-packet slots left out because they did not carry (or decrypt to) the magic. */
  readonly rejected: number;
  /** Bytes after the last whole packet (a truncated tail), ignored. */
  readonly trailingBytes: number;
}

/** The bytes given are not a capture of GT7 packets; the message says why. */
export class CaptureError extends Error {
  /** Creates the error with a message naming the problem. */
  constructor(message: string) {
    super(message);
    this.name = "CaptureError";
  }
}

/** Packets checked, from the start, to tell which format a file holds. */
const PROBE_PACKETS = 16;

/** True when `bytes` starts with the gzip signature (1f 8b). */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * The packets of a capture file as stored: each slot still encrypted when the
 * file is, not yet checked. What {@linkcode splitCapture} returns.
 */
export interface CaptureSlots {
  /** The format of every packet in the file. */
  readonly format: PacketFormat;
  /** True when the file holds packets as the console sent them. */
  readonly encrypted: boolean;
  /** Every whole-packet slot, in file order: views into the bytes given, of the format's size. */
  readonly slots: Uint8Array[];
  /** Bytes after the last whole packet (a truncated tail), ignored. */
  readonly trailingBytes: number;
}

/**
 * Splits a capture into packet slots without decrypting them. Decides between
 * a decrypted file (the magic at offset 0) and an encrypted one (the first
 * packet decrypts to the magic), and picks the format whose size puts a valid
 * packet at each of the first few slots and at the last. Guarantees every
 * slot has the format's size; a partial packet at the end is counted in
 * `trailingBytes`, not returned. Slots in between are not checked here.
 *
 * Throws {@linkcode CaptureError} for empty, gzip-compressed or unrecognisable
 * bytes, for a capture that mixes packet sizes, and when the bytes fit two
 * formats equally well.
 */
export function splitCapture(bytes: Uint8Array): CaptureSlots {
  if (bytes.length === 0) throw new CaptureError("capture is empty");
  if (isGzip(bytes)) {
    throw new CaptureError("capture is gzip-compressed; gunzip it before parsing");
  }
  const smallest = PACKET_SIZE[PACKET_FORMATS[0]];
  if (bytes.length < smallest) {
    throw new CaptureError(
      `capture holds ${bytes.length} bytes, fewer than one packet (${smallest} bytes)`,
    );
  }
  const encrypted = !hasMagic(bytes, 0);
  const format = pickFormat(bytes, encrypted ? decryptsAt : hasMagic, encrypted);
  const size = PACKET_SIZE[format];
  const count = Math.floor(bytes.length / size);
  const slots = new Array<Uint8Array>(count);
  for (let i = 0; i < count; i++) slots[i] = bytes.subarray(i * size, (i + 1) * size);
  return { format, encrypted, slots, trailingBytes: bytes.length - count * size };
}

/**
 * Splits a capture into decrypted packets (see {@linkcode splitCapture} for
 * how the format is told). Guarantees every returned packet starts with the
 * magic and has the format's size; slots that do not are counted in
 * `rejected`, and a partial packet at the end in `trailingBytes`.
 *
 * Throws {@linkcode CaptureError} as {@linkcode splitCapture} does.
 */
export function parseCapture(bytes: Uint8Array): Capture {
  const { format, encrypted, slots, trailingBytes } = splitCapture(bytes);
  const packets: Uint8Array[] = [];
  for (const slot of slots) {
    const packet = encrypted ? decryptPacket(slot, format) : hasMagic(slot) ? slot : null;
    if (packet !== null) packets.push(packet);
  }
  return { format, encrypted, packets, rejected: slots.length - packets.length, trailingBytes };
}

function decryptsAt(bytes: Uint8Array, offset: number, format: PacketFormat): boolean {
  const size = PACKET_SIZE[format];
  return decryptPacket(bytes.subarray(offset, offset + size), format) !== null;
}

/**
 * The format whose packets are valid at every probed slot; of several, the
 * one with the most slots probed (more evidence), then the one that leaves no
 * trailing bytes. Throws a {@linkcode CaptureError} when none fits (saying
 * whether the file starts as a capture and then changes size) or when the tie
 * cannot be broken.
 */
function pickFormat(
  bytes: Uint8Array,
  valid: (bytes: Uint8Array, offset: number, format: PacketFormat) => boolean,
  encrypted: boolean,
): PacketFormat {
  let best: { format: PacketFormat; probed: number; exact: boolean } | null = null;
  let tied: PacketFormat | null = null;
  // The longest run of valid probes of a format that then failed: evidence of mixed sizes.
  let broken: { format: PacketFormat; run: number; slot: number } | null = null;
  for (const format of PACKET_FORMATS) {
    const size = PACKET_SIZE[format];
    const count = Math.floor(bytes.length / size);
    if (count === 0) continue;
    // The last slot is probed too, so a wrong size rarely survives a long file.
    const slots = [...Array(Math.min(count, PROBE_PACKETS)).keys()];
    if (count > PROBE_PACKETS) slots.push(count - 1);
    const run = slots.findIndex((i) => !valid(bytes, i * size, format));
    if (run !== -1) {
      if (broken === null || run > broken.run) broken = { format, run, slot: slots[run] };
      continue;
    }
    const candidate = { format, probed: slots.length, exact: count * size === bytes.length };
    if (
      best === null || candidate.probed > best.probed ||
      (candidate.probed === best.probed && candidate.exact && !best.exact)
    ) {
      best = candidate;
      tied = null;
    } else if (candidate.probed === best.probed && candidate.exact === best.exact) {
      tied = format;
    }
  }
  if (best !== null && tied !== null) {
    throw new CaptureError(
      `capture of ${bytes.length} bytes fits both format ${best.format} and format ${tied}; ` +
        "too few packets to tell them apart",
    );
  }
  if (best !== null) return best.format;
  if (broken !== null && broken.run >= 2) {
    const size = PACKET_SIZE[broken.format];
    throw new CaptureError(
      `capture of ${bytes.length} bytes mixes packet sizes (or is corrupt): its first ` +
        `${broken.run} packets are format ${broken.format} (${size} bytes each), but the ` +
        `${size}-byte slot ${broken.slot} holds no such packet; a capture holds packets of one size`,
    );
  }
  throw new CaptureError(
    encrypted
      ? `unrecognised capture of ${bytes.length} bytes: no GT7 magic at offset 0, and the ` +
        "first packet does not decrypt to it with any format's nonce and size"
      : `capture of ${bytes.length} bytes starts with the GT7 magic, but no packet size ` +
        "puts the magic at the start of the following packets",
  );
}
