import { strict as assert } from "node:assert";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { openReplaySource } from "../../src/cli/replay_source.ts";
import { PACKET_MAGIC } from "../../src/core/gt7/format.ts";
import { buildRecordFile, mixWithGarbage } from "../_capture_files.ts";

/** `count` decrypted C packets with ids from 500; bytes 0x40..0x43 zero, as decryption leaves them. */
function packets(count: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => {
    const p = new Uint8Array(368);
    const view = new DataView(p.buffer);
    view.setUint32(0, PACKET_MAGIC, true);
    view.setInt32(0x70, 500 + i, true);
    p[0x100] = i & 0xff;
    return p;
  });
}

Deno.test("replay streams the valid packets of a record file, in order, plain or gzip", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const plain = packets(30);
    const mixed = mixWithGarbage(plain, { startMs: 1000, periodMs: 16, every: 4, seed: 2 });
    const bytes = buildRecordFile(990, mixed.entries, 0);
    for (const [name, content] of [["s.rec", bytes], ["s.rec.gz", gzipSync(bytes)]] as const) {
      const file = join(dir, name);
      await Deno.writeFile(file, content);
      const source = await openReplaySource(file);
      assert.equal(source.format, "C");
      assert.deepEqual([...source.packets()], plain);
      assert.equal(
        source.description,
        `${file} (record file, 30 valid packets of 37 datagrams, format C)`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("replay refuses a record file without a valid packet, and a file of no known kind", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const junk = join(dir, "junk.rec");
    await Deno.writeFile(
      junk,
      buildRecordFile(1, [[2, new Uint8Array(296)], [3, new Uint8Array(7)]]),
    );
    await assert.rejects(
      openReplaySource(junk),
      new Error(`${junk}: record file holds 2 datagrams and no valid packet`),
    );
    const text = join(dir, "notes.txt");
    await Deno.writeTextFile(text, "x".repeat(400));
    await assert.rejects(
      openReplaySource(text),
      /notes\.txt: unrecognised capture of 400 bytes: .*; expected a capture of GT7 packets/,
    );
    const json = join(dir, "lap.json");
    await Deno.writeTextFile(json, '{"format":"sim-datalogger-lap"}');
    await assert.rejects(
      openReplaySource(json),
      /lap\.json: file holds JSON, not packets; expected/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
