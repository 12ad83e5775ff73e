import { strict as assert } from "node:assert";
import { concatBytes } from "../../_bytes.ts";
import { gzipSync } from "node:zlib";
import { CaptureError } from "../../../src/core/gt7/capture.ts";
import {
  captureFileOf,
  fileContent,
  gunzipIfCompressed,
  openCaptureFile,
  packetOf,
} from "../../../src/core/gt7/capture_file.ts";
import { encryptPacket } from "../../../src/core/gt7/cipher.ts";
import { PACKET_MAGIC } from "../../../src/core/gt7/format.ts";
import { buildRecordFile, encryptAll } from "../../_capture_files.ts";

/** `count` decrypted packets of `size` bytes with ids from 1000. */
function packets(count: number, size: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => {
    const p = new Uint8Array(size);
    const view = new DataView(p.buffer);
    view.setUint32(0, PACKET_MAGIC, true);
    view.setInt32(0x70, 1000 + i, true);
    return p;
  });
}

const gzip = (bytes: Uint8Array) => new Uint8Array(gzipSync(bytes));
const text = (s: string) => new TextEncoder().encode(s);

function refuses(bytes: Uint8Array, pattern: RegExp): void {
  assert.throws(() => openCaptureFile(bytes), (e: unknown) => {
    return e instanceof CaptureError && pattern.test(e.message);
  }, String(pattern));
}

Deno.test("fileContent tells record files, JSON and packets apart by their first bytes", () => {
  const record = buildRecordFile(1000, [[1001, new Uint8Array(3)]]);
  assert.equal(fileContent(record), "record");
  assert.equal(fileContent(concatBytes(packets(2, 296))), "packets");
  assert.equal(fileContent(text('{"format": "x"}')), "json");
  assert.equal(fileContent(text(" \r\n\t[1, 2]")), "json");
  assert.equal(fileContent(text("\ufeff{}")), "json");
  assert.equal(fileContent(text("hello")), "packets");
  assert.equal(fileContent(new Uint8Array(0)), "packets");
  // An encrypted packet may start with "{": it decrypts, so it is packets.
  const plain = packets(1, 296)[0];
  let iv = 0;
  while (encryptPacket(plain, iv)[0] !== 0x7b) iv++;
  const braced = encryptPacket(plain, iv);
  assert.equal(braced[0], 0x7b);
  assert.equal(fileContent(braced), "packets");
});

Deno.test("gunzipIfCompressed unpacks gzip only, and names broken gzip", () => {
  const bytes = concatBytes(packets(3, 316));
  const plain = gunzipIfCompressed(bytes);
  assert.equal(plain.bytes, bytes);
  assert.equal(plain.compressed, false);
  const unzipped = gunzipIfCompressed(gzip(bytes));
  assert.deepEqual(unzipped.bytes, bytes);
  assert.equal(unzipped.compressed, true);
  const broken = gzip(bytes).subarray(0, 20);
  assert.throws(() => gunzipIfCompressed(broken), (e: unknown) => {
    return e instanceof CaptureError && /starts as gzip but is not valid gzip/.test(e.message);
  });
});

Deno.test("a record file opens as its datagrams and arrival times, plain or gzip", () => {
  const valid = encryptAll(packets(3, 368));
  const entries = [
    [1_764_000_000_000, valid[0]],
    [1_764_000_000_017, new Uint8Array([1, 2, 3])],
    [1_764_000_000_033, valid[1]],
    [1_764_000_000_050, valid[2]],
  ] as const;
  const bytes = buildRecordFile(1_763_999_999_990, entries, 7);
  for (const [input, compressed] of [[bytes, false], [gzip(bytes), true]] as const) {
    const file = openCaptureFile(input);
    assert.equal(file.kind, "record");
    assert.equal(file.compressed, compressed);
    assert.equal(file.encrypted, true);
    assert.equal(file.format, null);
    assert.equal(file.startedAtMs, 1_763_999_999_990);
    // The last entry lost 7 bytes: it is the trailing part, not a datagram.
    assert.deepEqual(file.datagrams, [valid[0], new Uint8Array([1, 2, 3]), valid[1]]);
    assert.deepEqual(file.arrivals, [1_764_000_000_000, 1_764_000_000_017, 1_764_000_000_033]);
    assert.equal(file.trailingBytes, 10 + 368 - 7);
  }
});

Deno.test("a capture opens as packet slots, encrypted or not, gzip or not", () => {
  const plain = packets(20, 344);
  const encrypted = openCaptureFile(concatBytes(encryptAll(plain)));
  assert.equal(encrypted.kind, "capture");
  assert.equal(encrypted.format, "~");
  assert.equal(encrypted.encrypted, true);
  assert.equal(encrypted.arrivals, null);
  assert.equal(encrypted.startedAtMs, null);
  assert.equal(encrypted.datagrams.length, 20);
  const gz = openCaptureFile(gzip(concatBytes([...plain, new Uint8Array(5)])));
  assert.equal(gz.compressed, true);
  assert.equal(gz.encrypted, false);
  assert.deepEqual(gz.datagrams, plain);
  assert.equal(gz.trailingBytes, 5);
  assert.deepEqual(captureFileOf({ bytes: concatBytes(plain), compressed: true }).datagrams, plain);
});

Deno.test("openCaptureFile refuses what is not packets, naming the problem", () => {
  refuses(new Uint8Array(0), /^capture is empty$/);
  refuses(gzip(new Uint8Array(0)), /^capture is empty once gunzipped$/);
  refuses(text('{"format":"sim-datalogger-lap"}'), /^file holds JSON, not packets$/);
  refuses(
    text("not a capture at all, just some text of a few hundred bytes ".repeat(8)),
    /^unrecognised capture of 480 bytes/,
  );
  const packet = encryptAll(packets(1, 296))[0];
  refuses(buildRecordFile(5, []), /^record file holds no datagrams$/);
  refuses(
    buildRecordFile(5, [[6, packet]], 100),
    /^record file holds no datagrams \(only a truncated entry of 206 bytes\)$/,
  );
  refuses(buildRecordFile(5, [[6, packet]]).subarray(0, 12), /record file header is truncated/);
  refuses(concatBytes([...packets(20, 296), ...packets(20, 368)]), /mixes packet sizes/);
});

Deno.test("packetOf keeps what the live client keeps and names why it drops the rest", () => {
  const [plain] = packets(1, 296);
  const cipher = encryptPacket(plain, 77);
  assert.equal(packetOf(new Uint8Array(300), true), "size");
  assert.equal(packetOf(new Uint8Array(296), true), "magic");
  assert.equal(packetOf(new Uint8Array(296), false), "magic");
  assert.equal(packetOf(plain, false), plain);
  const fresh = packetOf(cipher, true);
  assert.deepEqual(fresh, plain);
  const buffer = new Uint8Array(296);
  const reused = packetOf(cipher, true, { A: buffer });
  assert.equal(reused, buffer);
  assert.deepEqual(buffer, plain);
  assert.deepEqual(cipher, encryptPacket(plain, 77), "the datagram is left as it was");
});
