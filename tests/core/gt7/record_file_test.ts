import { strict as assert } from "node:assert";
import { gzipSync } from "node:zlib";
import { CaptureError } from "../../../src/core/gt7/capture.ts";
import {
  encodeRecordHeader,
  isRecordFile,
  parseRecordFile,
  RECORD_ENTRY_HEADER_BYTES,
  RECORD_HEADER_BYTES,
  RECORD_MAGIC,
  RECORD_MAX_DATAGRAM_BYTES,
  writeRecordEntry,
} from "../../../src/core/gt7/record_file.ts";

/** A record file holding `datagrams` after a header started at `startedAtMs`. */
function buildFile(startedAtMs: number, datagrams: [number, Uint8Array][]): Uint8Array {
  const size = datagrams.reduce((n, [, d]) => n + RECORD_ENTRY_HEADER_BYTES + d.length, 0);
  const out = new Uint8Array(RECORD_HEADER_BYTES + size);
  out.set(encodeRecordHeader(startedAtMs), 0);
  let offset = RECORD_HEADER_BYTES;
  for (const [at, d] of datagrams) offset += writeRecordEntry(out, offset, at, d);
  assert.equal(offset, out.length);
  return out;
}

Deno.test("the header is the magic then the start time as an f64 LE", () => {
  const header = encodeRecordHeader(1_764_000_000_123.5);
  assert.equal(header.length, RECORD_HEADER_BYTES);
  assert.equal(new TextDecoder().decode(header.subarray(0, 8)), RECORD_MAGIC);
  assert.equal(new DataView(header.buffer).getFloat64(8, true), 1_764_000_000_123.5);
  assert.equal(isRecordFile(header), true);
  assert.throws(() => encodeRecordHeader(NaN), /startedAtMs must be a finite number/);
});

Deno.test("an entry is an f64 LE time, a u16 LE length and the bytes", () => {
  const out = new Uint8Array(20).fill(0xee);
  const written = writeRecordEntry(out, 3, 42.25, Uint8Array.of(7, 8, 9));
  assert.equal(written, 13);
  const view = new DataView(out.buffer);
  assert.equal(view.getFloat64(3, true), 42.25);
  assert.equal(view.getUint16(11, true), 3);
  assert.deepEqual([...out.subarray(13, 16)], [7, 8, 9]);
  assert.deepEqual([...out.subarray(0, 3)], [0xee, 0xee, 0xee]);
  assert.deepEqual([...out.subarray(16)], [0xee, 0xee, 0xee, 0xee]);
});

Deno.test("writeRecordEntry refuses, writing nothing, what does not fit", () => {
  const out = new Uint8Array(12);
  assert.throws(
    () => writeRecordEntry(out, 0, 1, new Uint8Array(3)),
    /entry of 13 bytes does not fit at offset 0 of a 12-byte buffer/,
  );
  assert.throws(() => writeRecordEntry(out, -1, 1, new Uint8Array(0)), /does not fit at offset -1/);
  assert.throws(
    () =>
      writeRecordEntry(new Uint8Array(70_000), 0, 1, new Uint8Array(RECORD_MAX_DATAGRAM_BYTES + 1)),
    /datagram of 65536 bytes exceeds the 65535-byte entry limit/,
  );
  assert.throws(
    () => writeRecordEntry(out, 0, Infinity, new Uint8Array(0)),
    /atMs must be a finite/,
  );
  assert.deepEqual([...out], new Array(12).fill(0));
});

Deno.test("parseRecordFile returns every datagram in order, as views into the input", () => {
  const a = Uint8Array.of(1, 2, 3);
  const empty = new Uint8Array(0);
  const big = new Uint8Array(RECORD_MAX_DATAGRAM_BYTES).fill(5);
  const file = buildFile(1000.5, [[1001, a], [1002.75, empty], [1003, big]]);
  const parsed = parseRecordFile(file);
  assert.equal(parsed.startedAtMs, 1000.5);
  assert.equal(parsed.trailingBytes, 0);
  assert.deepEqual(parsed.datagrams.map((d) => d.atMs), [1001, 1002.75, 1003]);
  assert.deepEqual(parsed.datagrams.map((d) => d.bytes.length), [3, 0, RECORD_MAX_DATAGRAM_BYTES]);
  assert.deepEqual([...parsed.datagrams[0].bytes], [1, 2, 3]);
  assert.equal(parsed.datagrams[0].bytes.buffer, file.buffer);
  assert.equal(parsed.datagrams[2].bytes.every((b) => b === 5), true);
});

Deno.test("parseRecordFile reads a file held at an offset of a larger buffer", () => {
  const file = buildFile(7, [[8, Uint8Array.of(9)]]);
  const host = new Uint8Array(file.length + 5);
  host.set(file, 5);
  const parsed = parseRecordFile(host.subarray(5));
  assert.equal(parsed.startedAtMs, 7);
  assert.deepEqual(parsed.datagrams.map((d) => [d.atMs, [...d.bytes]]), [[8, [9]]]);
});

Deno.test("a header alone is an empty recording", () => {
  assert.deepEqual(parseRecordFile(encodeRecordHeader(5)), {
    startedAtMs: 5,
    datagrams: [],
    trailingBytes: 0,
  });
});

Deno.test("a truncated final entry is counted in trailingBytes, not an error", () => {
  const file = buildFile(0, [[1, Uint8Array.of(1, 2)], [2, Uint8Array.of(3, 4, 5, 6)]]);
  // Cut inside the second entry's bytes, then inside its header.
  for (const cut of [3, 12]) {
    const parsed = parseRecordFile(file.subarray(0, file.length - cut));
    assert.equal(parsed.datagrams.length, 1);
    assert.equal(parsed.trailingBytes, 14 - cut);
  }
});

Deno.test("parseRecordFile names what is wrong with a bad header", () => {
  const bad: [Uint8Array, RegExp][] = [
    [new Uint8Array(0), /not a record file: it does not start with "SDLREC01"/],
    [new TextEncoder().encode("SDLREC02xxxxxxxx"), /not a record file/],
    [encodeRecordHeader(1).subarray(0, 12), /header is truncated: 12 of 16 bytes/],
    [new Uint8Array(gzipSync(encodeRecordHeader(1))), /gzip-compressed; gunzip it before parsing/],
  ];
  const nan = encodeRecordHeader(1);
  new DataView(nan.buffer).setFloat64(8, NaN, true);
  bad.push([nan, /start time must be finite, got NaN/]);
  for (const [bytes, message] of bad) {
    assert.throws(() => parseRecordFile(bytes), (e: unknown) => {
      assert.ok(e instanceof CaptureError);
      assert.match(e.message, message);
      return true;
    });
  }
  assert.equal(isRecordFile(new TextEncoder().encode("SDLREC0")), false);
});
