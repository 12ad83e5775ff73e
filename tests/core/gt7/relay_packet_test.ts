import { strict as assert } from "node:assert";
import { salsa20 } from "@noble/ciphers/salsa.js";
import { encryptPacket } from "../../../src/core/gt7/cipher.ts";
import { NONCE_XOR, PACKET_SIZE, type PacketFormat } from "../../../src/core/gt7/format.ts";
import {
  ACK_WORD,
  heartbeatFormat,
  isAckDatagram,
  relayDatagram,
  relayedFormat,
  richestFormat,
} from "../../../src/core/gt7/relay_packet.ts";
import { parseCapture } from "../../../src/core/gt7/capture.ts";
import { noFixtures, readGzFixture } from "../../_fixtures.ts";

const KEY = new TextEncoder().encode("Simulator Interface Packet GT7 ver 0.0").subarray(0, 32);

/** Decrypts as any GT7 tool does, with @noble/ciphers: the ordinary key for `format`. */
function toolDecrypt(datagram: Uint8Array, format: PacketFormat): Uint8Array {
  const view = new DataView(datagram.buffer, datagram.byteOffset, datagram.byteLength);
  const iv = view.getUint32(0x40, true);
  const nonce = new Uint8Array(8);
  const n = new DataView(nonce.buffer);
  n.setUint32(0, (iv ^ NONCE_XOR[format]) >>> 0, true);
  n.setUint32(4, iv, true);
  return salsa20(KEY, nonce, datagram);
}

const FORMATS: PacketFormat[] = ["A", "B", "~", "C"];

Deno.test({
  name: "a C packet relayed in each format decrypts with that format's key to the console's bytes",
  ignore: noFixtures,
  fn() {
    const packets = parseCapture(readGzFixture("gt7/spa-full-lap.C.gt7.gz")).packets.slice(0, 200);
    packets.forEach((plain, i) => {
      const iv = (0x9e3779b9 * (i + 1)) >>> 0;
      const cipher = encryptPacket(plain, iv);
      const decrypted = plain.slice();
      decrypted.fill(0, 0x40, 0x44);
      for (const format of FORMATS) {
        const out = relayDatagram(cipher, decrypted, format);
        assert.equal(out.length, PACKET_SIZE[format]);
        // The console's IV, in clear where tools read it.
        assert.deepEqual(out.subarray(0x40, 0x44), cipher.subarray(0x40, 0x44));
        const back = toolDecrypt(out, format);
        const expected = plain.slice(0, PACKET_SIZE[format]);
        back.fill(0, 0x40, 0x44);
        expected.fill(0, 0x40, 0x44);
        assert.deepEqual(back, expected, `${format} from packet ${i}`);
      }
      // B shares C's nonce constant: its datagram is the console's, cut.
      assert.deepEqual(relayDatagram(cipher, decrypted, "B"), cipher.slice(0, PACKET_SIZE.B));
      assert.deepEqual(relayDatagram(cipher, decrypted, "C"), cipher);
    });
  },
});

Deno.test("a packet shorter than asked goes whole in its own format, never padded", () => {
  const plain = new Uint8Array(PACKET_SIZE.A);
  new DataView(plain.buffer).setUint32(0, 0x47375330, true);
  plain[0x70] = 42;
  const cipher = encryptPacket(plain, 7);
  for (const wanted of FORMATS) {
    const out = relayDatagram(cipher, plain, wanted);
    assert.deepEqual(out, cipher);
    assert.notEqual(out, cipher, "a fresh array the caller may keep");
  }
  assert.equal(relayedFormat("A", "C"), "A");
  assert.equal(relayedFormat("~", "B"), "B");
  assert.equal(relayedFormat("B", "~"), "B");
});

Deno.test("relayDatagram refuses a packet and decryption of different or unknown sizes", () => {
  assert.throws(
    () => relayDatagram(new Uint8Array(296), new Uint8Array(368), "A"),
    /296 and 368 bytes/,
  );
  assert.throws(() => relayDatagram(new Uint8Array(300), new Uint8Array(300), "A"), RangeError);
});

Deno.test("the richest format and the heartbeat letters", () => {
  assert.equal(richestFormat([]), null);
  assert.equal(richestFormat(["A", "~", "B"]), "~");
  assert.equal(richestFormat(["C", "A"]), "C");
  assert.equal(heartbeatFormat(new TextEncoder().encode("A")), "A");
  assert.equal(heartbeatFormat(new TextEncoder().encode("B")), "B");
  assert.equal(heartbeatFormat(new TextEncoder().encode("~")), "~");
  assert.equal(heartbeatFormat(new TextEncoder().encode("C")), "C");
  for (const other of ["a", "D", "AB", "", "ack 12", "A\n"]) {
    assert.equal(heartbeatFormat(new TextEncoder().encode(other)), null, JSON.stringify(other));
  }
});

Deno.test("an acknowledgement is any datagram starting with the bytes 'ack', and no heartbeat", () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  assert.equal(ACK_WORD, "ack");
  for (const ack of ["ack", "ack 12", "ack -3", "ackx"]) {
    assert.equal(isAckDatagram(encode(ack)), true, ack);
    assert.equal(heartbeatFormat(encode(ack)), null, ack);
  }
  for (const other of ["", "a", "ac", "Ack", "ACK", "xack", " ack", "A", "C"]) {
    assert.equal(isAckDatagram(encode(other)), false, JSON.stringify(other));
  }
  assert.equal(isAckDatagram(new Uint8Array([0x61, 0x63, 0x6b])), true);
  assert.equal(isAckDatagram(new Uint8Array([0x61, 0x63, 0x6c])), false);
});
