import { strict as assert } from "node:assert";
import { ACK_WINDOW, type ReplayResult, runFakeConsole } from "../../src/server/fake_console.ts";
import { decryptPacket } from "../../src/core/gt7/cipher.ts";
import { readPacketId } from "../../src/core/gt7/decode.ts";
import { plainPacket } from "./_udp_packets.ts";

const encoder = new TextEncoder();
const PACKETS = Array.from({ length: 100 }, (_, i) => plainPacket(500 + i));

/**
 * A replay of PACKETS at `max` to a logger stand-in that has sent it a
 * heartbeat, followed (as this project's logger does) by a bare ack when `acks`.
 */
async function replayTo(
  logger: Deno.DatagramConn,
  acks: boolean,
): Promise<{ replay: Promise<ReplayResult> }> {
  const port = Promise.withResolvers<number>();
  const replay = runFakeConsole({
    hostname: "127.0.0.1",
    port: 0,
    packets: () => PACKETS,
    speed: "max",
    onListen: (p) => port.resolve(p),
  });
  const to: Deno.NetAddr = { transport: "udp", hostname: "127.0.0.1", port: await port.promise };
  await logger.send(encoder.encode("A"), to);
  if (acks) await logger.send(encoder.encode("ack"), to);
  return { replay };
}

async function receiveId(logger: Deno.DatagramConn): Promise<number> {
  const [data] = await logger.receive();
  return readPacketId(decryptPacket(data)!);
}

Deno.test("with acknowledgements a replay never has more than the window in flight", async () => {
  const logger = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  try {
    const { replay } = await replayTo(logger, true);
    const ids: number[] = [];
    let acked = 0;
    const [first, sender] = await logger.receive();
    const fake = sender as Deno.NetAddr;
    ids.push(readPacketId(decryptPacket(first)!));
    while (ids.length < PACKETS.length) {
      ids.push(await receiveId(logger));
      // Sound whatever the timing: received <= sent, and the console may not have
      // read the latest ack yet, so received - acked <= sent - acked_seen <= window.
      assert.ok(ids.length - acked <= ACK_WINDOW, `${ids.length - acked} in flight`);
      if (ids.length - acked === ACK_WINDOW) {
        acked = ids.length;
        await logger.send(encoder.encode(`ack ${ids.at(-1)}`), fake);
      }
    }
    await logger.send(encoder.encode(`ack ${ids.at(-1)}`), fake);
    const result = await replay;
    assert.deepEqual(ids, PACKETS.map((_, i) => 500 + i));
    assert.equal(result.sent, 100);
    assert.equal(result.maxInFlight, ACK_WINDOW);
    assert.ok(result.acks >= 2);
    assert.equal(result.heartbeats, 1);
  } finally {
    logger.close();
  }
});

Deno.test("without acknowledgements (another logger) a replay paces as before", async () => {
  const logger = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  try {
    const { replay } = await replayTo(logger, false);
    const ids: number[] = [];
    while (ids.length < PACKETS.length) ids.push(await receiveId(logger));
    const result = await replay;
    assert.deepEqual(ids, PACKETS.map((_, i) => 500 + i));
    assert.deepEqual(result, { sent: 100, heartbeats: 1, acks: 0, maxInFlight: 0 });
  } finally {
    logger.close();
  }
});
