/**
 * Minimal GT7 packets for the UDP client tests.
 *
 * @module
 */
import { encryptPacket } from "../../src/core/gt7/cipher.ts";
import { PACKET_MAGIC } from "../../src/core/gt7/format.ts";

/** A plaintext format-A packet: the magic and `id`, zeros elsewhere. */
export function plainPacket(id: number): Uint8Array {
  const bytes = new Uint8Array(296);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, PACKET_MAGIC, true);
  view.setInt32(0x70, id, true);
  return bytes;
}

/** `plainPacket(id)` encrypted as the console would. */
export function cipherPacket(id: number): Uint8Array {
  return encryptPacket(plainPacket(id), (Math.imul(id + 1, 2654435761) ^ 0x5bd1e995) >>> 0);
}
