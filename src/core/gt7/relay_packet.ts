/**
 * What a relay sends an app: the console's packet cut to the format the app
 * asked for and encrypted with that format's key variant, the console's IV
 * and packet id kept. Formats are prefixes of one another, so the cut of a
 * richer packet is a valid packet of the poorer format; the keystream is the
 * same for two formats with the same nonce constant (B and C), so for those
 * the console's ciphertext is simply cut.
 *
 * @module
 */
import { encryptPacket, readIv } from "./cipher.ts";
import {
  formatOfSize,
  NONCE_XOR,
  PACKET_FORMATS,
  PACKET_SIZE,
  type PacketFormat,
} from "./format.ts";

/**
 * The format an app asking for `wanted` gets from a console packet of
 * `consoleFormat`: `wanted` when the console's packet holds it, else the
 * console's own (a packet is never padded with bytes the console did not send).
 */
export function relayedFormat(consoleFormat: PacketFormat, wanted: PacketFormat): PacketFormat {
  return PACKET_SIZE[wanted] <= PACKET_SIZE[consoleFormat] ? wanted : consoleFormat;
}

/**
 * The datagram for an app asking for `wanted`, from one console packet:
 * `cipher` as it arrived and `plain` its decryption (same length; bytes
 * 0x40..0x43 may be zero). The result has the size of
 * {@linkcode relayedFormat}, decrypts with that format's key to exactly the
 * first that many bytes of `plain` (0x40..0x43 aside, which hold the
 * console's IV in clear), and is a fresh array the caller may keep. Throws
 * RangeError when `plain` and `cipher` differ in length or match no format.
 */
export function relayDatagram(
  cipher: Uint8Array,
  plain: Uint8Array,
  wanted: PacketFormat,
): Uint8Array {
  const consoleFormat = formatOfSize(cipher.length);
  if (consoleFormat === null || plain.length !== cipher.length) {
    throw new RangeError(
      `relay needs a packet and its decryption of one format's size, got ${cipher.length} and ${plain.length} bytes`,
    );
  }
  const format = relayedFormat(consoleFormat, wanted);
  const size = PACKET_SIZE[format];
  if (NONCE_XOR[format] === NONCE_XOR[consoleFormat]) return cipher.slice(0, size);
  return encryptPacket(plain.subarray(0, size), readIv(cipher));
}

/** The richest of `formats` (C over ~ over B over A); null for none. */
export function richestFormat(formats: Iterable<PacketFormat>): PacketFormat | null {
  let best = -1;
  for (const f of formats) best = Math.max(best, PACKET_FORMATS.indexOf(f));
  return best < 0 ? null : PACKET_FORMATS[best];
}

/**
 * The format a heartbeat asks for: exactly one byte, a format letter, as a
 * console takes it; null for anything else.
 */
export function heartbeatFormat(data: Uint8Array): PacketFormat | null {
  if (data.length !== 1) return null;
  switch (data[0]) {
    case 0x41:
      return "A";
    case 0x42:
      return "B";
    case 0x7e:
      return "~";
    case 0x43:
      return "C";
    default:
      return null;
  }
}

/**
 * The word every acknowledgement starts with: a logger of this project sends
 * `ack`, or `ack <packet id>`, in ASCII to a console on loopback to pace a
 * replay. Neither a relay nor a console takes it as a heartbeat.
 */
export const ACK_WORD = "ack";

/** {@linkcode ACK_WORD}'s bytes, encoded once so the test below allocates nothing. */
const ACK_BYTES = new TextEncoder().encode(ACK_WORD);

/**
 * True when `data` starts with {@linkcode ACK_WORD}'s bytes: an
 * acknowledgement from a logger of this project (a receiver that takes
 * numbered ones still parses the rest). Reads at most three bytes and
 * allocates nothing, so it may run on every datagram.
 */
export function isAckDatagram(data: Uint8Array): boolean {
  return data.length >= ACK_BYTES.length && data[0] === ACK_BYTES[0] &&
    data[1] === ACK_BYTES[1] && data[2] === ACK_BYTES[2];
}
