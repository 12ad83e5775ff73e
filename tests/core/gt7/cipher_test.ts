import { strict as assert } from "node:assert";
import fc from "fast-check";
import { salsa20 } from "@noble/ciphers/salsa.js";
import {
  decryptPacket,
  encryptPacket,
  hasMagic,
  packetNonce,
  readIv,
} from "../../../src/core/gt7/cipher.ts";
import { PACKET_FORMATS, PACKET_MAGIC, PACKET_SIZE } from "../../../src/core/gt7/format.ts";
import { noFixtures, readFixture, readGzFixture } from "../../_fixtures.ts";

const ENCRYPTED = [
  "broad-bean-raceway--full-course.A.gt7",
  "tsukuba-circuit--full-course.A.gt7",
  "brands-hatch--indy-circuit.A.gt7",
  "suzuka-circuit--full-course.A.gt7",
  "suzuka-circuit--east-course.A.gt7",
  "circuit-de-spa-francorchamps--full-course.A.gt7",
];

/** Packets in each encrypted fixture: its size / 296. */
const ENCRYPTED_COUNTS = [52, 105, 82, 202, 90, 224];

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0"));

/** A plaintext packet of `size` bytes: random payload, the magic, zeros at 0x40. */
const plainPacket = (size: number) =>
  fc.uint8Array({ minLength: size, maxLength: size }).map((bytes) => {
    new DataView(bytes.buffer).setUint32(0, PACKET_MAGIC, true);
    bytes.fill(0, 0x40, 0x44);
    return bytes;
  });

Deno.test("packetNonce builds iv^constant then iv, little-endian", () => {
  assert.deepEqual(hex(packetNonce(0x62d4ee8d, "A")), "22 50 79 bc 8d ee d4 62".split(" "));
  // B and C share a constant; ~ has its own.
  assert.deepEqual(hex(packetNonce(0, "B")), ["ef", "be", "ad", "de", "00", "00", "00", "00"]);
  assert.deepEqual(hex(packetNonce(0, "C")), hex(packetNonce(0, "B")));
  assert.deepEqual(hex(packetNonce(0xffffffff, "~")), [
    "b0",
    "44",
    "05",
    "aa",
    "ff",
    "ff",
    "ff",
    "ff",
  ]);
  const out = new Uint8Array(8);
  assert.equal(packetNonce(1, "A", out), out);
  assert.throws(() => packetNonce(1, "A", new Uint8Array(12)), RangeError);
});

Deno.test({
  name: "test vector: first Broad Bean packet decrypts with IV 0x62D4EE8D",
  ignore: noFixtures,
  fn() {
    const cipher = readFixture("gt7/encrypted/broad-bean-raceway--full-course.A.gt7")
      .subarray(0, 296);
    assert.equal(readIv(cipher), 0x62d4ee8d);
    const plain = decryptPacket(cipher);
    assert.ok(plain !== null);
    assert.equal(plain.length, 296);
    const view = new DataView(plain.buffer, plain.byteOffset);
    assert.equal(view.getUint32(0, true), PACKET_MAGIC);
    assert.equal(view.getInt32(0x70, true), 420001);
    assert.equal(view.getInt16(0x74, true), 2);
    assert.equal(view.getInt32(0x124, true), 3531);
    assert.equal(view.getUint16(0x8e, true), 9);
    // The IV slot carries nothing once decrypted, so it is zeroed.
    assert.deepEqual([...plain.subarray(0x40, 0x44)], [0, 0, 0, 0]);
    // The same packet with the format given explicitly.
    assert.deepEqual(decryptPacket(cipher, "A"), plain);
  },
});

Deno.test({
  name: "every packet of every encrypted fixture passes the magic check",
  ignore: noFixtures,
  fn() {
    ENCRYPTED.forEach((name, f) => {
      const bytes = readFixture(`gt7/encrypted/${name}`);
      assert.equal(bytes.length % 296, 0, `${name} is not a whole number of A packets`);
      const count = bytes.length / 296;
      assert.equal(count, ENCRYPTED_COUNTS[f], name);
      let passed = 0;
      for (let i = 0; i < count; i++) {
        if (decryptPacket(bytes.subarray(i * 296, (i + 1) * 296), "A") !== null) passed++;
      }
      assert.equal(passed, count, name);
    });
  },
});

Deno.test("decrypt(encrypt(p)) == p for every format (property)", () => {
  for (const format of PACKET_FORMATS) {
    fc.assert(
      fc.property(plainPacket(PACKET_SIZE[format]), fc.nat({ max: 0xffffffff }), (p, iv) => {
        const cipher = encryptPacket(p, iv);
        assert.equal(cipher.length, p.length);
        assert.equal(readIv(cipher), iv);
        assert.notDeepEqual(cipher.subarray(0, 4), p.subarray(0, 4));
        assert.deepEqual(decryptPacket(cipher), p);
        assert.deepEqual(decryptPacket(cipher, format), p);
      }),
      { numRuns: 200 },
    );
  }
});

Deno.test({
  name: "re-encrypted Suzuka stream decrypts back to itself (IV slot aside)",
  ignore: noFixtures,
  fn() {
    const stream = readGzFixture("gt7/suzuka-full-lap.A.gt7.gz");
    const count = Math.floor(stream.length / 296);
    for (let i = 0; i < count; i++) {
      const plain = stream.slice(i * 296, (i + 1) * 296);
      const cipher = encryptPacket(plain, (i * 0x9e3779b1) >>> 0);
      const back = decryptPacket(cipher);
      assert.ok(back !== null, `packet ${i}`);
      plain.fill(0, 0x40, 0x44);
      assert.deepEqual(back, plain, `packet ${i}`);
    }
  },
});

Deno.test("out buffers: decrypt and encrypt in place", () => {
  const plain = new Uint8Array(368);
  new DataView(plain.buffer).setUint32(0, PACKET_MAGIC, true);
  plain.fill(7, 0x44);
  const buffer = encryptPacket(plain, 0x01020304);
  const same = decryptPacket(buffer, undefined, buffer);
  assert.equal(same, buffer);
  assert.deepEqual(buffer, plain);
  const into = new Uint8Array(368);
  assert.equal(encryptPacket(plain, 5, into), into);
  assert.throws(() => decryptPacket(into, "C", new Uint8Array(296)), RangeError);
  assert.throws(() => encryptPacket(plain, 5, new Uint8Array(296)), RangeError);
});

Deno.test("wrong size gives null; encrypt refuses unknown sizes and bad IVs", () => {
  const plain = new Uint8Array(296);
  new DataView(plain.buffer).setUint32(0, PACKET_MAGIC, true);
  const cipher = encryptPacket(plain, 42);
  assert.notEqual(decryptPacket(cipher), null);
  assert.equal(decryptPacket(cipher.subarray(0, 295)), null);
  assert.equal(decryptPacket(new Uint8Array(0)), null);
  const longer = new Uint8Array(297);
  longer.set(cipher);
  assert.equal(decryptPacket(longer), null);
  // A size that does not match the requested format.
  assert.equal(decryptPacket(cipher, "B"), null);
  assert.equal(decryptPacket(cipher, "C"), null);
  assert.throws(() => encryptPacket(new Uint8Array(300), 1), RangeError);
  assert.throws(() => encryptPacket(plain, -1), RangeError);
  assert.throws(() => encryptPacket(plain, 2 ** 32), RangeError);
  assert.throws(() => encryptPacket(plain, 1.5), RangeError);
});

Deno.test("a corrupted magic or IV byte gives null; payload corruption is undetectable", () => {
  fc.assert(
    fc.property(
      plainPacket(296),
      fc.nat({ max: 0xffffffff }),
      fc.integer({ min: 1, max: 255 }),
      (p, iv, flip) => {
        const cipher = encryptPacket(p, iv);
        for (const at of [0, 1, 2, 3, 0x40, 0x41, 0x42, 0x43]) {
          const bad = cipher.slice();
          bad[at] ^= flip;
          assert.equal(decryptPacket(bad), null, `byte ${at}`);
        }
        // Salsa20 has no MAC: a flipped payload byte decrypts to a flipped byte.
        const bad = cipher.slice();
        bad[0x70] ^= flip;
        const back = decryptPacket(bad);
        assert.ok(back !== null);
        assert.equal(back[0x70], p[0x70] ^ flip);
      },
    ),
    { numRuns: 100 },
  );
});

Deno.test("a packet encrypted with another format's nonce is rejected", () => {
  fc.assert(
    fc.property(plainPacket(296), fc.nat({ max: 0xffffffff }), (p, iv) => {
      for (const other of ["B", "~"] as const) {
        const key = new TextEncoder().encode("Simulator Interface Packet GT7 ver 0.0")
          .subarray(0, 32);
        const cipher = salsa20(key, packetNonce(iv, other), p);
        new DataView(cipher.buffer).setUint32(0x40, iv, true);
        assert.equal(decryptPacket(cipher), null, `A packet under the ${other} nonce`);
        // Under its own nonce the same construction is accepted.
        const good = salsa20(key, packetNonce(iv, "A"), p);
        new DataView(good.buffer).setUint32(0x40, iv, true);
        assert.deepEqual(decryptPacket(good), p);
      }
    }),
    { numRuns: 50 },
  );
});

Deno.test("hasMagic reads the magic at an offset and never past the end", () => {
  const bytes = new Uint8Array(10);
  new DataView(bytes.buffer).setUint32(6, PACKET_MAGIC, true);
  assert.equal(hasMagic(bytes, 6), true);
  assert.equal(hasMagic(bytes, 0), false);
  assert.equal(hasMagic(bytes, 7), false);
  assert.equal(hasMagic(bytes.subarray(6, 9)), false);
  assert.deepEqual(hex(bytes.subarray(6)), ["30", "53", "37", "47"]);
});
