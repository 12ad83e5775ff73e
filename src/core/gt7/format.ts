/**
 * The four GT7 packet formats. The console picks one by the heartbeat letter
 * it receives; each is a strict superset of the one before it.
 *
 * @module
 */

/** Every packet format, smallest first. */
export const PACKET_FORMATS = ["A", "B", "~", "C"] as const;

/** A packet format, named by its heartbeat letter. */
export type PacketFormat = (typeof PACKET_FORMATS)[number];

/** Byte size of a packet of each format. */
export const PACKET_SIZE: Readonly<Record<PacketFormat, number>> = {
  A: 296,
  B: 316,
  "~": 344,
  C: 368,
};

/**
 * The constant XOR-ed into the packet's IV to make the second half of the
 * Salsa20 nonce. It differs per format, so a packet only decrypts with the
 * constant of the format that was requested.
 */
export const NONCE_XOR: Readonly<Record<PacketFormat, number>> = {
  A: 0xdeadbeaf,
  B: 0xdeadbeef,
  "~": 0x55fabb4f,
  C: 0xdeadbeef,
};

/** The magic number at offset 0 of a decrypted packet ("G7S0" read little-endian). */
export const PACKET_MAGIC = 0x47375330;

/** The UDP port the console listens on for heartbeats. */
export const CONSOLE_PORT = 33739;

/** The UDP port the console sends telemetry to. */
export const TELEMETRY_PORT = 33740;

/** Returns the format whose packets have exactly `size` bytes, or null. */
export function formatOfSize(size: number): PacketFormat | null {
  switch (size) {
    case 296:
      return "A";
    case 316:
      return "B";
    case 344:
      return "~";
    case 368:
      return "C";
    default:
      return null;
  }
}

/** True when `value` names a packet format. */
export function isPacketFormat(value: unknown): value is PacketFormat {
  return value === "A" || value === "B" || value === "~" || value === "C";
}
