/**
 * Throughput of the GT7 packet path. The Suzuka stream is re-encrypted in
 * memory so the bench decrypts real packets; each iteration handles all of
 * them, so packets/s = packets per iteration / time per iteration. The target
 * for decrypt+decode is at least 1,000,000 packets/s on one core (issue 19).
 *
 * The headline runs the live path as the receive worker and the UDP client
 * do: each datagram lands in one receive buffer, is decrypted into its slot
 * of a staging batch (256 packets), and the batch is then decoded packet by
 * packet. `@noble/ciphers`, which the path used before, is measured the same
 * way for comparison (tests use it as the oracle).
 *
 * @module
 */
import { salsa20 } from "@noble/ciphers/salsa.js";
import { decryptPacket, encryptPacket, packetNonce, readIv } from "../src/core/gt7/cipher.ts";
import { decodeFrame } from "../src/core/gt7/decode.ts";
import { encodeFrame } from "../src/core/gt7/encode.ts";
import { PACKET_MAGIC } from "../src/core/gt7/format.ts";
import type { Frame } from "../src/core/gt7/frame.ts";
import { readUint32LE, writeUint32LE } from "../src/core/gt7/layout.ts";
import { haveFixtures, readGzFixture } from "../tests/_fixtures.ts";

const SIZE = 296;
/** Packets per staging batch, as the receive worker's MAX_BATCH. */
const BATCH = 256;
const TARGET_PACKETS_PER_SECOND = 1_000_000;
const KEY = new TextEncoder().encode("Simulator Interface Packet GT7 ver 0.0").subarray(0, 32);

type Decrypt = (cipher: Uint8Array, out: Uint8Array) => Uint8Array | null;

/** The production decryptor (in-place Salsa20 core). */
const ours: Decrypt = (cipher, out) => decryptPacket(cipher, "A", out);

/** The path before issue 19: @noble/ciphers' salsa20, then the same checks. */
const noble: Decrypt = (cipher, out) => {
  const plain = salsa20(KEY, packetNonce(readIv(cipher), "A"), cipher, out);
  if (readUint32LE(plain, 0) !== PACKET_MAGIC) return null;
  writeUint32LE(plain, 0x40, 0);
  return plain;
};

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

const receiveBuffer = new Uint8Array(65_536);
const staging = new Uint8Array(BATCH * SIZE);

/**
 * Runs `count` packets through the live path, cycling through `cipher`:
 * received into one buffer, decrypted into the staging batch with `decrypt`,
 * each full batch decoded. Returns a checksum so the work cannot be
 * optimised away.
 */
function livePath(cipher: Uint8Array[], count: number, decrypt: Decrypt): number {
  let sum = 0;
  let staged = 0;
  const decodeBatch = () => {
    for (let p = 0; p < staged; p++) {
      sum += decodeFrame(staging.subarray(p * SIZE, (p + 1) * SIZE)).packetId;
    }
    staged = 0;
  };
  for (let i = 0; i < count; i++) {
    receiveBuffer.set(cipher[i % cipher.length]);
    const datagram = receiveBuffer.subarray(0, SIZE);
    const slot = staging.subarray(staged * SIZE, (staged + 1) * SIZE);
    if (decrypt(datagram, slot) === null) {
      throw new Error(`packet ${i % cipher.length} failed the magic check`);
    }
    if (++staged === BATCH) decodeBatch();
  }
  decodeBatch();
  return sum;
}

/** Decrypts and decodes `count` packets, each into a fresh buffer. */
function freshBuffers(cipher: Uint8Array[], count: number): number {
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const plain = decryptPacket(cipher[i % cipher.length], "A");
    if (plain === null) throw new Error(`packet ${i % cipher.length} failed the magic check`);
    sum += decodeFrame(plain).packetId;
  }
  return sum;
}

/** Packets per second of `run` over `count` packets, best of `runs`, after a warm-up. */
function packetsPerSecond(run: (count: number) => number, count: number, runs: number): number {
  run(count / 10);
  let best = 0;
  for (let r = 0; r < runs; r++) {
    const started = performance.now();
    run(count);
    best = Math.max(best, count / ((performance.now() - started) / 1000));
  }
  return Math.round(best);
}

if (haveFixtures()) {
  const { plain, cipher } = suzukaPackets();
  const frames: Frame[] = plain.map(decodeFrame);
  const count = cipher.length;

  // The headline figures, measured once, besides deno bench's per-iteration table.
  const fmt = (n: number) => n.toLocaleString("en-US");
  const live = packetsPerSecond((n) => livePath(cipher, n, ours), 500_000, 5);
  const fresh = packetsPerSecond((n) => freshBuffers(cipher, n), 500_000, 3);
  const viaNoble = packetsPerSecond((n) => livePath(cipher, n, noble), 200_000, 3);
  console.log(
    `decrypt+decode: ${fmt(live)} packets/s (target >= ${fmt(TARGET_PACKETS_PER_SECOND)})`,
  );
  console.log(
    `  live path (receive buffer -> staging batch of ${BATCH} -> decode), best of 5 x 500,000; ` +
      `${fmt(fresh)} with a fresh buffer per packet; ${fmt(viaNoble)} with @noble/ciphers`,
  );

  Deno.bench({
    name: `live path, in-place Salsa20 x${count}`,
    group: "decrypt+decode",
    baseline: true,
    fn() {
      livePath(cipher, count, ours);
    },
  });

  Deno.bench({
    name: `live path, @noble/ciphers x${count}`,
    group: "decrypt+decode",
    fn() {
      livePath(cipher, count, noble);
    },
  });

  Deno.bench({
    name: `fresh buffer per packet x${count}`,
    group: "decrypt+decode",
    fn() {
      freshBuffers(cipher, count);
    },
  });

  const scratch = new Uint8Array(SIZE);
  Deno.bench({
    name: `decrypt only, in-place Salsa20 x${count}`,
    group: "parts",
    baseline: true,
    fn() {
      for (let i = 0; i < count; i++) ours(cipher[i], scratch);
    },
  });

  Deno.bench({
    name: `decrypt only, @noble/ciphers x${count}`,
    group: "parts",
    fn() {
      for (let i = 0; i < count; i++) noble(cipher[i], scratch);
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
