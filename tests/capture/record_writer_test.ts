import { strict as assert } from "node:assert";
import { join } from "node:path";
import { parseRecordFile, RECORD_HEADER_BYTES } from "../../src/core/gt7/record_file.ts";
import {
  MIN_RECORD_FILE_BYTES,
  RECORD_BUFFER_BYTES,
  RECORD_FLUSH_MS,
  RecordWriter,
} from "../../src/capture/record_writer.ts";

/** A datagram of `size` bytes whose first four hold `n`, so its place can be checked. */
function datagram(n: number, size = 1000): Uint8Array {
  const bytes = new Uint8Array(size).fill(n & 0xff);
  new DataView(bytes.buffer).setUint32(0, n, true);
  return bytes;
}

const numberOf = (bytes: Uint8Array) =>
  new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true);

async function inTempDir(fn: (dir: string) => Promise<void> | void): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a recording holds every datagram in order; writes wait for 64 KiB or 250 ms", () =>
  inTempDir((dir) => {
    const path = join(dir, "rec");
    const writer = new RecordWriter({ path, maxBytes: 2 ** 20, keep: 1 }, 1000, () => {});
    assert.equal(Deno.statSync(path).size, RECORD_HEADER_BYTES, "the header is written at once");
    writer.write(1001, datagram(1));
    writer.write(1002, datagram(2, 4));
    assert.equal(Deno.statSync(path).size, RECORD_HEADER_BYTES, "buffered");
    writer.tick(1000 + RECORD_FLUSH_MS - 1);
    assert.equal(Deno.statSync(path).size, RECORD_HEADER_BYTES, "not yet due");
    writer.tick(1000 + RECORD_FLUSH_MS);
    assert.equal(Deno.statSync(path).size, RECORD_HEADER_BYTES + 1010 + 14);
    // Filling the buffer writes it without waiting.
    for (let n = 3; (n - 3) * 1010 <= RECORD_BUFFER_BYTES; n++) writer.write(1000 + n, datagram(n));
    assert.ok(Deno.statSync(path).size > RECORD_HEADER_BYTES + RECORD_BUFFER_BYTES / 2);
    writer.write(5000, new Uint8Array(0));
    writer.close();
    writer.close();
    const parsed = parseRecordFile(Deno.readFileSync(path));
    assert.equal(parsed.startedAtMs, 1000);
    assert.equal(parsed.trailingBytes, 0);
    const numbers = parsed.datagrams.slice(0, -1).map((d) => numberOf(d.bytes));
    assert.deepEqual(numbers, Array.from({ length: numbers.length }, (_, i) => i + 1));
    assert.deepEqual(parsed.datagrams.map((d) => d.atMs), [
      ...numbers.map((n) => 1000 + n),
      5000,
    ]);
    assert.equal(parsed.datagrams.at(-1)!.bytes.length, 0);
    assert.deepEqual(writer.status(), {
      path,
      bytes: Deno.statSync(path).size,
      files_rotated: 0,
      error: null,
    });
  }));

Deno.test("a full file is rotated: FILE.1 is the newest, --record-keep files kept, each self-contained", () =>
  inTempDir((dir) => {
    const path = join(dir, "rec");
    const notices: string[] = [];
    const cap = MIN_RECORD_FILE_BYTES;
    const writer = new RecordWriter({ path, maxBytes: cap, keep: 3 }, 0, (l) => notices.push(l));
    const perFile = Math.floor((cap - RECORD_HEADER_BYTES) / 1010);
    const total = perFile * 6 + 5;
    for (let n = 0; n < total; n++) writer.write(n, datagram(n));
    writer.close();
    assert.equal(writer.status().files_rotated, 6);
    assert.equal(notices.length, 6);
    assert.match(
      notices[0],
      /record: .*rec reached 65561 bytes; kept it as .*rec\.1 and started a new file/,
    );
    const names = [`${path}.3`, `${path}.2`, `${path}.1`, path];
    assert.throws(() => Deno.statSync(`${path}.4`), Deno.errors.NotFound);
    const files = names.map((name) => parseRecordFile(Deno.readFileSync(name)));
    for (const name of names) assert.ok(Deno.statSync(name).size <= cap);
    // The three newest full files and the partial current one, oldest first.
    const numbers = files.flatMap((f) => f.datagrams.map((d) => numberOf(d.bytes)));
    const first = total - perFile * 3 - 5;
    assert.deepEqual(numbers, Array.from({ length: total - first }, (_, i) => first + i));
    // Each file starts when its first datagram arrived.
    assert.deepEqual(files.map((f) => f.startedAtMs), files.map((f) => f.datagrams[0].atMs));
  }));

Deno.test("an earlier recording at FILE is kept as FILE.1 (or replaced with keep 0)", () =>
  inTempDir((dir) => {
    const path = join(dir, "rec");
    Deno.writeTextFileSync(path, "earlier");
    const notices: string[] = [];
    new RecordWriter({ path, maxBytes: MIN_RECORD_FILE_BYTES, keep: 2 }, 0, (l) => notices.push(l))
      .close();
    assert.equal(Deno.readTextFileSync(`${path}.1`), "earlier");
    assert.equal(Deno.statSync(path).size, RECORD_HEADER_BYTES);
    assert.match(notices[0], /kept the earlier .*rec as .*rec\.1/);
    Deno.writeTextFileSync(path, "again");
    new RecordWriter({ path, maxBytes: MIN_RECORD_FILE_BYTES, keep: 0 }, 0, () => {}).close();
    assert.equal(Deno.statSync(path).size, RECORD_HEADER_BYTES);
    assert.equal(Deno.readTextFileSync(`${path}.1`), "earlier");
  }));

Deno.test("a cap too small for the largest datagram, or a bad keep count, is refused", () =>
  inTempDir((dir) => {
    const path = join(dir, "rec");
    assert.throws(
      () => new RecordWriter({ path, maxBytes: MIN_RECORD_FILE_BYTES - 1, keep: 1 }, 0, () => {}),
      /record size cap must be at least 65561 bytes, got 65560/,
    );
    assert.throws(
      () => new RecordWriter({ path, maxBytes: 2 ** 20, keep: -1 }, 0, () => {}),
      /record keep must be a whole number >= 0, got -1/,
    );
    assert.throws(() => Deno.statSync(path), Deno.errors.NotFound, "nothing was created");
  }));
