import { strict as assert } from "node:assert";
import { gzipSync } from "node:zlib";
import { CaptureError, isGzip, parseCapture, splitCapture } from "../../../src/core/gt7/capture.ts";
import { encryptPacket } from "../../../src/core/gt7/cipher.ts";
import { readPacketId } from "../../../src/core/gt7/decode.ts";
import { PACKET_MAGIC, PACKET_SIZE, type PacketFormat } from "../../../src/core/gt7/format.ts";
import { noFixtures, readFixture, readGzFixture } from "../../_fixtures.ts";

/** Encrypts every whole packet of a decrypted stream and keeps any tail as is. */
function encryptStream(stream: Uint8Array, size: number): Uint8Array {
  const out = stream.slice();
  const count = Math.floor(stream.length / size);
  for (let i = 0; i < count; i++) {
    const iv = (0x12345678 + i * 0x9e3779b1) >>> 0;
    encryptPacket(
      stream.subarray(i * size, (i + 1) * size),
      iv,
      out.subarray(i * size, (i + 1) * size),
    );
  }
  return out;
}

/** Whole packets of `size` built from a counter, each starting with the magic. */
function syntheticStream(count: number, size: number, tail = 0): Uint8Array {
  const bytes = new Uint8Array(count * size + tail);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < count; i++) {
    view.setUint32(i * size, PACKET_MAGIC, true);
    view.setInt32(i * size + 0x70, 1000 + i, true);
  }
  return bytes;
}

const STREAMS: [string, PacketFormat, number, number][] = [
  ["suzuka-full-lap.A.gt7.gz", "A", 6420, 224],
  ["spa-full-lap.C.gt7.gz", "C", 6914, 0],
  ["nordschleife-partial.tilde.gt7.gz", "~", 3600, 0],
];

Deno.test({
  name: "decrypted fixture streams: format by size, a partial tail ignored",
  ignore: noFixtures,
  fn() {
    for (const [file, format, count, tail] of STREAMS) {
      const stream = readGzFixture(`gt7/${file}`);
      const capture = parseCapture(stream);
      assert.equal(capture.format, format, file);
      assert.equal(capture.encrypted, false, file);
      assert.equal(capture.packets.length, count, file);
      assert.equal(capture.rejected, 0, file);
      assert.equal(capture.trailingBytes, tail, file);
      const size = PACKET_SIZE[format];
      assert.ok(capture.packets.every((p, i) => p.length === size && p.byteOffset === i * size));
    }
  },
});

Deno.test({
  name: "re-encrypted fixture streams are detected as encrypted, format included",
  ignore: noFixtures,
  fn() {
    for (const [file, format, count, tail] of STREAMS) {
      const stream = readGzFixture(`gt7/${file}`);
      const size = PACKET_SIZE[format];
      const capture = parseCapture(encryptStream(stream, size));
      assert.equal(capture.format, format, file);
      assert.equal(capture.encrypted, true, file);
      assert.equal(capture.packets.length, count, file);
      assert.equal(capture.rejected, 0, file);
      assert.equal(capture.trailingBytes, tail, file);
      for (const i of [0, 1, count >> 1, count - 1]) {
        const original = stream.slice(i * size, (i + 1) * size);
        original.fill(0, 0x40, 0x44);
        assert.deepEqual(capture.packets[i], original, `${file} packet ${i}`);
      }
    }
  },
});

Deno.test({
  name: "the console's own encrypted captures parse as format A",
  ignore: noFixtures,
  fn() {
    const bytes = readFixture("gt7/encrypted/broad-bean-raceway--full-course.A.gt7");
    const capture = parseCapture(bytes);
    assert.equal(capture.format, "A");
    assert.equal(capture.encrypted, true);
    assert.equal(capture.packets.length, 52);
    assert.equal(capture.rejected, 0);
    assert.equal(capture.trailingBytes, 0);
    assert.equal(readPacketId(capture.packets[0]), 420001);
  },
});

Deno.test("a lone encrypted C packet is C, not B (they share a nonce constant)", () => {
  const plain = syntheticStream(1, 368);
  const capture = parseCapture(encryptPacket(plain, 99));
  assert.equal(capture.format, "C");
  assert.equal(capture.encrypted, true);
  assert.deepEqual(capture.packets, [plain]);
  // Two C packets: the second slot tells C from B without the exact-size rule.
  const two = parseCapture(encryptStream(syntheticStream(2, 368, 100), 368));
  assert.equal(two.format, "C");
  assert.equal(two.trailingBytes, 100);
  assert.deepEqual(two.packets.map(readPacketId), [1000, 1001]);
});

Deno.test("a corrupted packet inside a capture is counted, not returned", () => {
  const plain = syntheticStream(40, 316);
  const encrypted = encryptStream(plain, 316);
  encrypted[20 * 316 + 1] ^= 0xff;
  const capture = parseCapture(encrypted);
  assert.equal(capture.format, "B");
  assert.equal(capture.packets.length, 39);
  assert.equal(capture.rejected, 1);
  assert.ok(!capture.packets.map(readPacketId).includes(1020));

  plain[30 * 316 + 2] ^= 0xff;
  const decrypted = parseCapture(plain);
  assert.equal(decrypted.encrypted, false);
  assert.equal(decrypted.packets.length, 39);
  assert.equal(decrypted.rejected, 1);
});

Deno.test("isGzip looks at the gzip signature only", () => {
  assert.equal(isGzip(new Uint8Array(gzipSync(new Uint8Array(10)))), true);
  assert.equal(isGzip(new Uint8Array([0x1f, 0x8b])), true);
  assert.equal(isGzip(new Uint8Array([0x1f])), false);
  assert.equal(isGzip(new Uint8Array([0x8b, 0x1f, 0x08])), false);
  assert.equal(isGzip(syntheticStream(1, 296)), false);
});

Deno.test({
  name: "a gzip fixture as given is refused with a hint to gunzip",
  ignore: noFixtures,
  fn() {
    const gz = readFixture("gt7/spa-full-lap.C.gt7.gz");
    assert.equal(isGzip(gz), true);
    assert.throws(() => parseCapture(gz), (e: unknown) => {
      return e instanceof CaptureError && /gzip/.test(e.message);
    });
  },
});

Deno.test("unrecognisable bytes raise a CaptureError naming the problem", () => {
  const expect = (bytes: Uint8Array, pattern: RegExp) =>
    assert.throws(() => parseCapture(bytes), (e: unknown) => {
      return e instanceof CaptureError && pattern.test(e.message);
    }, String(pattern));

  expect(new Uint8Array(0), /empty/);
  expect(syntheticStream(1, 296).subarray(0, 200), /fewer than one packet/);
  const garbage = new Uint8Array(296 * 10);
  for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 131 + 17) & 0xff;
  expect(garbage, /unrecognised capture of 2960 bytes/);
  // The magic at offset 0 but nowhere a packet size would put the next one.
  const oneMagic = new Uint8Array(2000);
  oneMagic.set(syntheticStream(1, 296));
  expect(oneMagic, /no packet size/);
  // One decrypted packet and a tail: every size fits equally.
  expect(syntheticStream(1, 368, 40), /fits both format/);
});

Deno.test({
  name: "splitCapture cuts slots without decrypting them, as parseCapture sees the file",
  ignore: noFixtures,
  fn() {
    const stream = readGzFixture("gt7/suzuka-full-lap.A.gt7.gz");
    const encrypted = encryptStream(stream, 296);
    const split = splitCapture(encrypted);
    assert.equal(split.format, "A");
    assert.equal(split.encrypted, true);
    assert.equal(split.slots.length, 6420);
    assert.equal(split.trailingBytes, 224);
    assert.ok(
      split.slots.every((s, i) => s.buffer === encrypted.buffer && s.byteOffset === i * 296),
    );
    assert.deepEqual(split.slots[7], encrypted.subarray(7 * 296, 8 * 296));
    const plain = splitCapture(stream);
    assert.equal(plain.encrypted, false);
    assert.deepEqual(plain.slots, parseCapture(stream).packets);
  },
});

Deno.test("a capture that changes packet size is refused as mixing sizes", () => {
  const expect = (bytes: Uint8Array, pattern: RegExp) =>
    assert.throws(() => splitCapture(bytes), (e: unknown) => {
      return e instanceof CaptureError && pattern.test(e.message);
    }, String(pattern));
  const concat = (a: Uint8Array, b: Uint8Array) => {
    const out = new Uint8Array(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  };
  // 20 A then 20 C packets: 13,280 bytes, 44 A-sized slots; the last one lands mid-C.
  const plain = concat(syntheticStream(20, 296), syntheticStream(20, 368));
  expect(
    plain,
    /^capture of 13280 bytes mixes packet sizes \(or is corrupt\): its first 16 packets are format A \(296 bytes each\), but the 296-byte slot 43 holds no such packet; a capture holds packets of one size$/,
  );
  const encrypted = concat(
    encryptStream(syntheticStream(20, 296), 296),
    encryptStream(syntheticStream(20, 368), 368),
  );
  expect(encrypted, /mixes packet sizes .* first 16 packets are format A .* slot 43 /);
  // The size changes among the first packets probed (slot 5 is where the first C packet starts).
  const early = concat(syntheticStream(5, 296), syntheticStream(30, 368));
  expect(early, /mixes packet sizes .* first 6 packets are format A .* slot 6 /);
  assert.throws(() => parseCapture(early), /mixes packet sizes/);
});
