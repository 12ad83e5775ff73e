/**
 * Throughput of the GT7 packet path. The Suzuka stream is re-encrypted in
 * memory so the bench decrypts real packets; each iteration handles all of
 * them, so packets/s = packets per iteration / time per iteration. The target
 * for decrypt+decode is at least 300,000 packets/s on one core.
 *
 * @module
 */
import { decryptPacket, encryptPacket } from "../src/core/gt7/cipher.ts";
import { decodeFrame } from "../src/core/gt7/decode.ts";
import { encodeFrame } from "../src/core/gt7/encode.ts";
import type { Frame } from "../src/core/gt7/frame.ts";
import { haveFixtures, readGzFixture } from "../tests/_fixtures.ts";

const SIZE = 296;
const TARGET_PACKETS_PER_SECOND = 300_000;

function suzukaPackets(): { plain: Uint8Array[]; cipher: Uint8Array[] } {
  const stream = readGzFixture("gt7/suzuka-full-lap.A.gt7.gz");
  const plain: Uint8Array[] = [];
  const cipher: Uint8Array[] = [];
  for (let at = 0; at + SIZE <= stream.length; at += SIZE) {
    const packet = stream.slice(at, at + SIZE);
    plain.push(packet);
    cipher.push(encryptPacket(packet, (at * 0x9e3779b1) >>> 0));
  }
  return { plain, cipher };
}

/**
 * Decrypts and decodes `count` packets, cycling through `cipher`; returns a
 * checksum so the work cannot be optimised away. With `scratch`, each packet
 * is decrypted into that one buffer, as a UDP receiver that reuses its
 * datagram buffer would; without it, every packet gets a fresh buffer.
 */
function decryptDecode(cipher: Uint8Array[], count: number, scratch?: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const plain = decryptPacket(cipher[i % cipher.length], "A", scratch);
    if (plain === null) throw new Error(`packet ${i % cipher.length} failed the magic check`);
    sum += decodeFrame(plain).packetId;
  }
  return sum;
}

/** Packets per second of `decryptDecode` over `count` packets, best of `runs`. */
function packetsPerSecond(cipher: Uint8Array[], count: number, runs: number, scratch?: Uint8Array) {
  decryptDecode(cipher, count / 10, scratch);
  let best = 0;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    decryptDecode(cipher, count, scratch);
    best = Math.max(best, count / ((performance.now() - started) / 1000));
  }
  return Math.round(best);
}

if (haveFixtures()) {
  const { plain, cipher } = suzukaPackets();
  const frames: Frame[] = plain.map(decodeFrame);
  const count = cipher.length;
  const scratch = new Uint8Array(SIZE);

  // The headline figures, measured once, besides deno bench's per-iteration table.
  const fmt = (n: number) => n.toLocaleString("en-US");
  const reused = packetsPerSecond(cipher, 200_000, 3, scratch);
  const fresh = packetsPerSecond(cipher, 200_000, 3);
  console.log(
    `decrypt+decode: ${fmt(reused)} packets/s (reused buffer; ${fmt(fresh)} with a fresh ` +
      `buffer per packet; best of 3 x 200,000; target ${fmt(TARGET_PACKETS_PER_SECOND)})`,
  );

  Deno.bench({
    name: `decrypt+decode x${count}`,
    group: "decrypt+decode",
    baseline: true,
    fn() {
      decryptDecode(cipher, count);
    },
  });

  Deno.bench({
    name: `decrypt into a reused buffer + decode x${count}`,
    group: "decrypt+decode",
    fn() {
      decryptDecode(cipher, count, scratch);
    },
  });

  Deno.bench({
    name: `decrypt only x${count}`,
    group: "parts",
    fn() {
      for (let i = 0; i < count; i++) decryptPacket(cipher[i]);
    },
  });

  Deno.bench({
    name: `decode only x${count}`,
    group: "parts",
    fn() {
      for (let i = 0; i < count; i++) decodeFrame(plain[i]);
    },
  });

  Deno.bench({
    name: `encode+encrypt x${count}`,
    group: "fake console",
    fn() {
      for (let i = 0; i < count; i++) encryptPacket(encodeFrame(frames[i]), i);
    },
  });
}
