import { strict as assert } from "node:assert";
import fc from "fast-check";
import { salsa20 } from "@noble/ciphers/salsa.js";
import { Salsa20 } from "../../../src/core/gt7/salsa20.ts";

// @noble/ciphers is the oracle: the in-place core must give its bytes exactly.

const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

const bytesOf = (length: number) => fc.uint8Array({ minLength: length, maxLength: length });

/** The lengths the brief names, plus block edges around the packet sizes. */
const EDGE_LENGTHS = [0, 1, 2, 3, 4, 63, 64, 65, 127, 128, 129, 296, 316, 344, 368, 1000];

Deno.test("known answer: ECRYPT Salsa20/20 256-bit set 1 vector 0", () => {
  const key = new Uint8Array(32);
  key[0] = 0x80;
  const stream = new Salsa20(key).xor(new Uint8Array(8), new Uint8Array(64));
  assert.equal(
    hex(stream).toUpperCase(),
    "E3BE8FDD8BECA2E3EA8EF9475B29A6E7003951E1097A5C38D23B7A5FAD9F6844" +
      "B22C97559E2723C7CBBD3FE4FC8D9A0744652A83E72A9C461876AF4D7EF1A117",
  );
});

Deno.test("equals @noble/ciphers' salsa20 at every edge length (into a new buffer and in place)", () => {
  fc.assert(
    fc.property(bytesOf(32), bytesOf(8), fc.constantFrom(...EDGE_LENGTHS), (key, nonce, n) => {
      const data = new Uint8Array(n).map((_, i) => (i * 131 + key[i % 32]) & 0xff);
      const expected = salsa20(key, nonce, data);
      const cipher = new Salsa20(key);
      const out = new Uint8Array(n);
      assert.equal(cipher.xor(nonce, data, out), out);
      assert.equal(hex(out), hex(expected), `length ${n}`);
      const inPlace = data.slice();
      assert.equal(cipher.xor(nonce, inPlace), inPlace);
      assert.equal(hex(inPlace), hex(expected), `length ${n} in place`);
    }),
    { numRuns: 300 },
  );
  // Every edge length at least once, whatever the generator picked.
  const key = Uint8Array.from({ length: 32 }, (_, i) => i * 7);
  const nonce = Uint8Array.from({ length: 8 }, (_, i) => 0xf0 | i);
  for (const n of EDGE_LENGTHS) {
    const data = new Uint8Array(n).fill(0x5a);
    assert.equal(hex(new Salsa20(key).xor(nonce, data.slice())), hex(salsa20(key, nonce, data)));
  }
});

Deno.test("equals @noble/ciphers' salsa20 on random keys, nonces, data and counters (property)", () => {
  fc.assert(
    fc.property(
      bytesOf(32),
      bytesOf(8),
      fc.uint8Array({ maxLength: 700, size: "max" }),
      fc.nat({ max: 0xffffff }),
      (key, nonce, data, counter) => {
        const expected = salsa20(key, nonce, data, undefined, counter);
        const got = new Salsa20(key).xor(nonce, data, new Uint8Array(data.length), counter);
        assert.equal(hex(got), hex(expected));
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("xorWords takes the nonce as its two little-endian words", () => {
  fc.assert(
    fc.property(
      bytesOf(32),
      bytesOf(8),
      fc.uint8Array({ maxLength: 400, size: "max" }),
      (key, nonce, data) => {
        const view = new DataView(nonce.buffer);
        const got = new Salsa20(key).xorWords(
          view.getUint32(0, true),
          view.getUint32(4, true),
          data,
          new Uint8Array(data.length),
        );
        assert.equal(hex(got), hex(salsa20(key, nonce, data)));
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("one instance reused: message B after message A equals B on a fresh instance", () => {
  fc.assert(
    fc.property(
      bytesOf(32),
      bytesOf(8),
      fc.uint8Array({ maxLength: 600, size: "max" }),
      bytesOf(8),
      fc.uint8Array({ maxLength: 600, size: "max" }),
      fc.nat({ max: 1000 }),
      (key, nonceA, dataA, nonceB, dataB, counterA) => {
        const shared = new Salsa20(key);
        shared.xor(nonceA, dataA, new Uint8Array(dataA.length), counterA);
        const reused = shared.xor(nonceB, dataB, new Uint8Array(dataB.length));
        const fresh = new Salsa20(key).xor(nonceB, dataB, new Uint8Array(dataB.length));
        assert.equal(hex(reused), hex(fresh));
        assert.equal(hex(fresh), hex(salsa20(key, nonceB, dataB)));
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("works on views at an offset of a larger buffer and leaves the rest untouched", () => {
  const key = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);
  const nonce = Uint8Array.from({ length: 8 }, (_, i) => i + 1);
  const backing = new Uint8Array(400).fill(0xee);
  const input = backing.subarray(3, 3 + 296);
  input.fill(0x11);
  const expected = salsa20(key, nonce, input.slice());
  new Salsa20(key).xor(nonce, input);
  assert.equal(hex(input), hex(expected));
  assert.deepEqual([...backing.subarray(0, 3)], [0xee, 0xee, 0xee]);
  assert.ok(backing.subarray(299).every((b) => b === 0xee));
});

Deno.test("refuses bad keys, nonces, outputs and counters, naming the rule", () => {
  assert.throws(() => new Salsa20(new Uint8Array(16)), /key must hold 32 bytes, got 16/);
  const cipher = new Salsa20(new Uint8Array(32));
  const data = new Uint8Array(100);
  assert.throws(() => cipher.xor(new Uint8Array(12), data), /nonce must hold 8 bytes, got 12/);
  assert.throws(
    () => cipher.xorWords(0, 0, data, new Uint8Array(99)),
    /output must hold 100 bytes, got 99/,
  );
  assert.throws(() => cipher.xorWords(0, 0, data, data, -1), /counter must be a uint32, got -1/);
  assert.throws(() => cipher.xorWords(0, 0, data, data, 2 ** 32), /counter must be a uint32/);
  assert.throws(() => cipher.xorWords(0, 0, data, data, 1.5), /counter must be a uint32/);
  // Output shifted by one byte over its input would read bytes it already wrote.
  const backing = new Uint8Array(101);
  assert.throws(
    () => cipher.xorWords(0, 0, backing.subarray(0, 100), backing.subarray(1, 101)),
    /partly overlaps/,
  );
  // Adjacent views of one buffer do not overlap and are fine.
  const two = new Uint8Array(200);
  cipher.xorWords(0, 0, two.subarray(0, 100), two.subarray(100, 200));
  assert.equal(hex(two.subarray(100)), hex(salsa20(new Uint8Array(32), new Uint8Array(8), data)));
  assert.ok(two.subarray(0, 100).every((b) => b === 0));
});
