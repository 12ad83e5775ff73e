/**
 * Salsa20 encryption of GT7 telemetry packets. The console encrypts every
 * packet with a fixed key and a nonce built from a per-packet IV that it
 * stores, in clear, at offset 0x40 of the ciphertext.
 *
 * The key is published, so this is obfuscation rather than security; the
 * cipher is the in-place core of salsa20.ts, which decrypts without
 * allocating (the tests hold it to `@noble/ciphers` as the oracle).
 *
 * @module
 */
import { formatOfSize, NONCE_XOR, PACKET_MAGIC, PACKET_SIZE, type PacketFormat } from "./format.ts";
import { OFFSET, readUint32LE, writeUint32LE } from "./layout.ts";
import { Salsa20 } from "./salsa20.ts";

const KEY_TEXT = "Simulator Interface Packet GT7 ver 0.0";

/** The 32-byte key: the first 32 ASCII bytes of the console's interface name. */
const KEY: Uint8Array = Uint8Array.from({ length: 32 }, (_, i) => KEY_TEXT.charCodeAt(i));

// One expanded key for every call: calls are synchronous and each starts from
// its own nonce, so sharing the state costs nothing and saves its allocation.
const CIPHER = new Salsa20(KEY);

/**
 * Builds the 8-byte Salsa20 nonce for a packet of `format` whose IV is `iv`:
 * `iv ^ NONCE_XOR[format]` then `iv`, each as 4 little-endian bytes. Writes
 * into `out` when given (which must hold 8 bytes) and returns it.
 */
export function packetNonce(
  iv: number,
  format: PacketFormat,
  out: Uint8Array = new Uint8Array(8),
): Uint8Array {
  if (out.length !== 8) throw new RangeError(`nonce buffer must hold 8 bytes, got ${out.length}`);
  writeUint32LE(out, 0, (iv ^ NONCE_XOR[format]) >>> 0);
  writeUint32LE(out, 4, iv >>> 0);
  return out;
}

/** Reads the IV the console stored at offset 0x40 of an encrypted packet. */
export function readIv(cipher: Uint8Array): number {
  return readUint32LE(cipher, OFFSET.iv);
}

/** True when the 4 bytes at `offset` are the packet magic. */
export function hasMagic(bytes: Uint8Array, offset = 0): boolean {
  return offset + 4 <= bytes.length && readUint32LE(bytes, offset) === PACKET_MAGIC;
}

/**
 * Decrypts one datagram. Returns the plaintext packet, or null when the size
 * is not that of `format` (or of any format, when `format` is omitted) or the
 * decrypted packet does not start with the magic.
 *
 * The returned packet has bytes 0x40..0x43 set to zero, since they carry
 * nothing once decrypted. Pass `out` (same length as `cipher`; it may be
 * `cipher` itself) to decrypt without allocating; its contents are
 * unspecified when null is returned. Throws RangeError when `out` has another
 * length or partly overlaps `cipher`.
 */
export function decryptPacket(
  cipher: Uint8Array,
  format?: PacketFormat,
  out?: Uint8Array,
): Uint8Array | null {
  const fmt = format ?? formatOfSize(cipher.length);
  if (fmt === null || cipher.length !== PACKET_SIZE[fmt]) return null;
  if (out !== undefined && out.length !== cipher.length) {
    throw new RangeError(`output must hold ${cipher.length} bytes, got ${out.length}`);
  }
  // The nonce words packetNonce would spell out as bytes: iv ^ constant, iv.
  const iv = readIv(cipher);
  const plain = CIPHER.xorWords(
    iv ^ NONCE_XOR[fmt],
    iv,
    cipher,
    out ?? new Uint8Array(cipher.length),
  );
  if (readUint32LE(plain, OFFSET.magic) !== PACKET_MAGIC) return null;
  writeUint32LE(plain, OFFSET.iv, 0);
  return plain;
}

/**
 * Encrypts a plaintext packet as the console would, with `iv` (a uint32)
 * stored at 0x40 of the result. The format is the one of the packet's size.
 * Guarantees `decryptPacket(encryptPacket(p, iv))` equals `p` apart from bytes
 * 0x40..0x43, which decrypt to zero. Throws RangeError on an unknown size or
 * an IV that is not a uint32.
 */
export function encryptPacket(plain: Uint8Array, iv: number, out?: Uint8Array): Uint8Array {
  const fmt = formatOfSize(plain.length);
  if (fmt === null) {
    throw new RangeError(`no GT7 packet format has ${plain.length} bytes`);
  }
  if (!Number.isInteger(iv) || iv < 0 || iv > 0xffffffff) {
    throw new RangeError(`IV must be a uint32, got ${iv}`);
  }
  if (out !== undefined && out.length !== plain.length) {
    throw new RangeError(`output must hold ${plain.length} bytes, got ${out.length}`);
  }
  const cipher = CIPHER.xorWords(
    iv ^ NONCE_XOR[fmt],
    iv,
    plain,
    out ?? new Uint8Array(plain.length),
  );
  writeUint32LE(cipher, OFFSET.iv, iv);
  return cipher;
}
