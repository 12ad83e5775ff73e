/**
 * docs/formats.md's packet table says what the code does: each format's size
 * and the constant its nonce is built with, so a reader can decrypt packets
 * from the page alone.
 */
import { strict as assert } from "node:assert";
import { NONCE_XOR, PACKET_FORMATS, PACKET_SIZE } from "../../../src/core/gt7/format.ts";

const DOC = new URL("../../../docs/formats.md", import.meta.url);

/** The packet table's rows: format letter, size and IV XOR constant as written. */
function packetRows(text: string): Map<string, { size: number; xor: number }> {
  const rows = new Map<string, { size: number; xor: number }>();
  for (const m of text.matchAll(/^\| (\S) +\| (\d+) B \| `(0x[0-9A-F]{8})` +\|/gm)) {
    rows.set(m[1], { size: Number(m[2]), xor: Number(m[3]) });
  }
  return rows;
}

Deno.test("docs/formats.md gives every format's size and IV XOR constant as the code has them", async () => {
  const rows = packetRows(await Deno.readTextFile(DOC));
  assert.deepEqual([...rows.keys()], [...PACKET_FORMATS]);
  for (const f of PACKET_FORMATS) {
    assert.deepEqual(rows.get(f), { size: PACKET_SIZE[f], xor: NONCE_XOR[f] }, f);
  }
});
