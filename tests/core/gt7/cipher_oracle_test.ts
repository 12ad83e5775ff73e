import { strict as assert } from "node:assert";
import fc from "fast-check";
import { salsa20 } from "@noble/ciphers/salsa.js";
import { decryptPacket, encryptPacket, packetNonce, readIv } from "../../../src/core/gt7/cipher.ts";
import { decodeFrame } from "../../../src/core/gt7/decode.ts";
import type { Frame } from "../../../src/core/gt7/frame.ts";
import {
  formatOfSize,
  PACKET_FORMATS,
  PACKET_MAGIC,
  PACKET_SIZE,
  type PacketFormat,
} from "../../../src/core/gt7/format.ts";
import { noFixtures, readFixture, readGzFixture } from "../../_fixtures.ts";

// The packet path runs on the in-place Salsa20 core; these tests hold it to
// the path it replaced, @noble/ciphers' salsa20, on every real packet.

const KEY = new TextEncoder().encode("Simulator Interface Packet GT7 ver 0.0").subarray(0, 32);

/**
 * SHA-256 of the canonical JSON of every frame of each fixture, as the
 * decoder before issue 19 (a DataView per packet, the packet decrypted by
 * @noble/ciphers) produced them; the decoder now reads a scratch copy, and
 * must give the very same frames.
 */
const FRAMES_DIGEST: Record<string, string> = {
  "broad-bean-raceway--full-course.A.gt7":
    "15445e2bd43ee7ebf7a55122027ffa069e9fc944e8dd0680cfd4f86937359aba",
  "tsukuba-circuit--full-course.A.gt7":
    "4475be9cf1916276166fc7b7fd0e69031c97312fced4a4daa6607db3b95b6185",
  "brands-hatch--indy-circuit.A.gt7":
    "68b7f6b7d1d81e6b729f4e6c5b5eb4ec402da4e9f8a1a24c329cc63699f38bc7",
  "suzuka-circuit--full-course.A.gt7":
    "e5bf078b5aae383858b9564f02aec18684a422ee2cf69673a56df35c1c75f085",
  "suzuka-circuit--east-course.A.gt7":
    "dce86a3768eedacf14c4ed69ef758d297e6188fb249852c400fd5fd7b87d6f36",
  "circuit-de-spa-francorchamps--full-course.A.gt7":
    "3a9fe9c9e45f03a7183aa81228add5bad94bb37da533fc091bda7a5128649e4a",
  "suzuka-full-lap.A.gt7.gz": "b608d48c960b8e20e4a5fec850cd7204da70b0ef23bfbb3be222d44129d49b9b",
  "nordschleife-partial.tilde.gt7.gz":
    "6f27d8e5f2ebd73ad85450eb967315f0ff7ffd732d66c5a3b54179a3aa0ff983",
  "spa-full-lap.C.gt7.gz": "c0d95d865cd01993ad8cc304b32989b1fa3ee159cb284174173a937c4ef587a6",
};

const ENCRYPTED = [
  "broad-bean-raceway--full-course.A.gt7",
  "tsukuba-circuit--full-course.A.gt7",
  "brands-hatch--indy-circuit.A.gt7",
  "suzuka-circuit--full-course.A.gt7",
  "suzuka-circuit--east-course.A.gt7",
  "circuit-de-spa-francorchamps--full-course.A.gt7",
];

/** The decrypted streams, one per format that has one. */
const DECRYPTED: [string, PacketFormat][] = [
  ["suzuka-full-lap.A.gt7.gz", "A"],
  ["nordschleife-partial.tilde.gt7.gz", "~"],
  ["spa-full-lap.C.gt7.gz", "C"],
];

/** Canonical JSON of frames: -0 and NaN spelled out, which plain JSON loses. */
const canonical = (frames: Frame[]) =>
  JSON.stringify(
    frames,
    (_key, v) =>
      typeof v === "number" && (Object.is(v, -0) || Number.isNaN(v))
        ? String(v === 0 ? "-0" : v)
        : v,
  );

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** The old decryptPacket, verbatim in behaviour: the oracle's bytes, magic check, IV slot zeroed. */
function oracleDecrypt(cipher: Uint8Array, format: PacketFormat): Uint8Array | null {
  const plain = salsa20(KEY, packetNonce(readIv(cipher), format), cipher);
  if (new DataView(plain.buffer).getUint32(0, true) !== PACKET_MAGIC) return null;
  plain.fill(0, 0x40, 0x44);
  return plain;
}

/** The old encryptPacket: the oracle's bytes with the IV stored in clear at 0x40. */
function oracleEncrypt(plain: Uint8Array, format: PacketFormat, iv: number): Uint8Array {
  const cipher = salsa20(KEY, packetNonce(iv, format), plain);
  new DataView(cipher.buffer).setUint32(0x40, iv, true);
  return cipher;
}

/** Splits bytes into whole packets (copies), ignoring a partial tail as the decode tests do. */
function packetsOf(bytes: Uint8Array, size: number): Uint8Array[] {
  return Array.from(
    { length: Math.floor(bytes.length / size) },
    (_, i) => bytes.slice(i * size, (i + 1) * size),
  );
}

Deno.test({
  name: "every encrypted fixture packet: same bytes and deep-equal frames as the oracle path",
  ignore: noFixtures,
  async fn() {
    let checked = 0;
    for (const name of ENCRYPTED) {
      const packets = packetsOf(readFixture(`gt7/encrypted/${name}`), 296);
      const scratch = new Uint8Array(296);
      const frames: Frame[] = [];
      packets.forEach((cipher, i) => {
        const expected = oracleDecrypt(cipher, "A");
        assert.ok(expected !== null, `${name} packet ${i} fails the oracle's magic check`);
        const fresh = decryptPacket(cipher);
        const reused = decryptPacket(cipher, "A", scratch);
        assert.ok(fresh !== null && reused === scratch, `${name} packet ${i}`);
        assert.equal(hex(fresh), hex(expected), `${name} packet ${i}`);
        assert.equal(hex(reused), hex(expected), `${name} packet ${i} (reused buffer)`);
        frames.push(decodeFrame(reused));
        assert.deepEqual(decodeFrame(fresh), decodeFrame(expected), `${name} packet ${i}`);
        // The console's ciphertext is reproduced exactly from the plaintext.
        assert.equal(hex(encryptPacket(fresh, readIv(cipher))), hex(cipher), `${name} ${i}`);
        checked++;
      });
      assert.equal(await sha256(canonical(frames)), FRAMES_DIGEST[name], `${name} frames`);
    }
    assert.equal(checked, 52 + 105 + 82 + 202 + 90 + 224);
  },
});

Deno.test({
  name: "decrypted streams of A, ~ and C, re-encrypted by the oracle, decrypt and decode alike",
  ignore: noFixtures,
  async fn() {
    for (const [file, format] of DECRYPTED) {
      const size = PACKET_SIZE[format];
      const packets = packetsOf(readGzFixture(`gt7/${file}`), size);
      assert.ok(packets.length > 100, `${file} has ${packets.length} packets`);
      const scratch = new Uint8Array(size);
      const frames: Frame[] = [];
      packets.forEach((plain, i) => {
        const iv = (i * 0x9e3779b1) >>> 0;
        const cipher = oracleEncrypt(plain, format, iv);
        assert.equal(hex(encryptPacket(plain, iv)), hex(cipher), `${file} packet ${i}`);
        const expected = oracleDecrypt(cipher, format);
        assert.ok(expected !== null, `${file} packet ${i}`);
        const got = decryptPacket(cipher, format, scratch);
        assert.ok(got !== null, `${file} packet ${i}`);
        assert.equal(hex(got), hex(expected), `${file} packet ${i}`);
        frames.push(decodeFrame(got));
        assert.deepEqual(frames[i], decodeFrame(expected), `${file} packet ${i}`);
      });
      assert.equal(await sha256(canonical(frames)), FRAMES_DIGEST[file], `${file} frames`);
    }
  },
});

Deno.test({
  name: "a reused buffer: packet B after packet A decrypts as B does fresh",
  ignore: noFixtures,
  fn() {
    const a = packetsOf(readFixture("gt7/encrypted/tsukuba-circuit--full-course.A.gt7"), 296);
    const b = packetsOf(readFixture("gt7/encrypted/suzuka-circuit--full-course.A.gt7"), 296);
    const scratch = new Uint8Array(296);
    for (let i = 0; i < b.length; i++) {
      assert.ok(decryptPacket(a[i % a.length], "A", scratch) !== null);
      const afterA = decryptPacket(b[i], "A", scratch);
      const fresh = decryptPacket(b[i].slice(), "A");
      assert.ok(afterA !== null && fresh !== null, `packet ${i}`);
      assert.equal(hex(afterA), hex(fresh), `packet ${i}`);
    }
    // In place, the datagram buffer itself, as the receive worker may pass it.
    const inPlace = b[7].slice();
    assert.equal(decryptPacket(inPlace, "A", inPlace), inPlace);
    assert.equal(hex(inPlace), hex(oracleDecrypt(b[7], "A")!));
  },
});

Deno.test("random datagrams of every size: accepted and rejected exactly as the oracle path", () => {
  for (const format of PACKET_FORMATS) {
    const size = PACKET_SIZE[format];
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: size, maxLength: size }),
        fc.boolean(),
        fc.nat({ max: 0xffffffff }),
        (bytes, valid, iv) => {
          // Half the runs are real packets (magic set), half are noise.
          if (valid) new DataView(bytes.buffer).setUint32(0, PACKET_MAGIC, true);
          const datagram = valid ? oracleEncrypt(bytes, format, iv) : bytes;
          assert.equal(formatOfSize(datagram.length), format);
          const expected = oracleDecrypt(datagram, format);
          const got = decryptPacket(datagram);
          assert.equal(got === null, expected === null);
          if (valid) assert.ok(got !== null);
          if (got !== null && expected !== null) assert.equal(hex(got), hex(expected));
        },
      ),
      { numRuns: 100 },
    );
  }
});

Deno.test("decoding never sees the previous packet's bytes (the decoder's scratch is shared)", () => {
  const packet = (size: number) =>
    fc.uint8Array({ minLength: size, maxLength: size }).map((bytes) => {
      new DataView(bytes.buffer).setUint32(0, PACKET_MAGIC, true);
      return bytes;
    });
  fc.assert(
    fc.property(packet(296), packet(368), packet(344), (a, c, tilde) => {
      const first = decodeFrame(a);
      assert.equal(first.motion, null);
      decodeFrame(c);
      assert.deepEqual(decodeFrame(a), first);
      const tildeFirst = decodeFrame(tilde);
      decodeFrame(c);
      assert.deepEqual(decodeFrame(tilde), tildeFirst);
      assert.equal(tildeFirst.surface, null);
    }),
    { numRuns: 100 },
  );
});
