import { strict as assert } from "node:assert";
import { ACK_WINDOW, type ReplayResult, runFakeConsole } from "../../src/cli/fake_console.ts";
import { decryptPacket } from "../../src/core/gt7/cipher.ts";
import { readPacketId } from "../../src/core/gt7/decode.ts";
import { plainPacket } from "../server/_udp_packets.ts";
import { startUdpClient } from "../../src/capture/udp_client.ts";

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

Deno.test("a logger restarted on the same port within a second is streamed to again", async () => {
  const controller = new AbortController();
  const consolePort = Promise.withResolvers<number>();
  const replay = runFakeConsole({
    hostname: "127.0.0.1",
    port: 0,
    packets: () => PACKETS,
    speed: "max",
    loop: true,
    onListen: (p) => consolePort.resolve(p),
    signal: controller.signal,
  });
  const logger = async (port: number) => {
    const ids: number[] = [];
    const arrived = Promise.withResolvers<void>();
    const client = await startUdpClient({
      hostname: "127.0.0.1",
      port,
      console: "127.0.0.1",
      consolePort: await consolePort.promise,
      format: "A",
      receiveBufferBytes: 0,
      onFrame: (frame) => {
        ids.push(frame.packetId);
        if (ids.length === 3 * ACK_WINDOW) arrived.resolve();
      },
    });
    return { client, ids, arrived: arrived.promise };
  };
  const timeout = (what: string) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const promise = new Promise<never>((_, reject) => {
      // A bound on a hang, not a speed target: a busy machine may take seconds to start a worker.
      timer = setTimeout(() => reject(new Error(`no packets reached ${what} in 60 s`)), 60_000);
    });
    return { promise, clear: () => clearTimeout(timer) };
  };
  try {
    const first = await logger(0);
    const firstLimit = timeout("the first logger");
    await Promise.race([first.arrived, firstLimit.promise]).finally(firstLimit.clear);
    await first.client.close();
    // The console keeps sending into the closed port until its window is full of
    // ids nobody will acknowledge; then the same port is bound again at once.
    const second = await logger(first.client.port);
    try {
      const secondLimit = timeout("the restarted logger");
      await Promise.race([second.arrived, secondLimit.promise]).finally(secondLimit.clear);
      assert.equal(second.ids.length >= 3 * ACK_WINDOW, true);
      // What it got is the replay carrying on: consecutive ids, none of the first logger's.
      const start = second.ids[0];
      assert.deepEqual(
        second.ids.slice(0, 3 * ACK_WINDOW),
        Array.from({ length: 3 * ACK_WINDOW }, (_, i) => start + i),
      );
      assert.ok(start > first.ids.at(-1)!, `${start} after ${first.ids.at(-1)}`);
    } finally {
      await second.client.close();
    }
  } finally {
    controller.abort();
    await replay;
  }
});

Deno.test("a logger restarted before it acknowledged anything is streamed to after a second", async () => {
  const logger = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  try {
    // Read before the console can have sent anything: it finds its window full (and starts
    // its second) before this side has read the window's packets, later by however long
    // reading them took on a busy machine, so a reading taken after them could come too late.
    const began = performance.now();
    const { replay } = await replayTo(logger, true);
    const ids: number[] = [];
    const [first, sender] = await logger.receive();
    const fake = sender as Deno.NetAddr;
    ids.push(readPacketId(decryptPacket(first)!));
    while (ids.length < ACK_WINDOW) ids.push(await receiveId(logger));
    // The window is full and nothing was acknowledged: from here on this socket
    // plays a new logger on the same port, which only says "nothing consumed yet".
    const next = receiveId(logger);
    let arrived = false;
    next.then(() => arrived = true, () => {});
    while (!arrived) {
      await logger.send(encoder.encode("ack"), fake);
      await Promise.race([next, new Promise((r) => setTimeout(r, 100))]);
    }
    assert.equal(await next, 500 + ACK_WINDOW);
    assert.ok(performance.now() - began >= 1000, "the window is kept for a second first");
    while (ids.length < PACKETS.length - 1) ids.push(await receiveId(logger));
    await logger.send(encoder.encode(`ack ${ids.at(-1)}`), fake);
    assert.equal((await replay).sent, 100);
  } finally {
    logger.close();
  }
});

Deno.test("a window the logger never received is given up once it has been full a second", async () => {
  const logger = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  const controller = new AbortController();
  // Unpaced until the first acknowledgement, the console overflows the logger's socket: it
  // keeps the first ~166 datagrams and the kernel drops the rest. Past 1,024 more sent, the
  // console no longer remembers the ids the logger can name.
  const pastMemory = Promise.withResolvers<void>();
  const port = Promise.withResolvers<number>();
  let sent = 0;
  const replay = runFakeConsole({
    hostname: "127.0.0.1",
    port: 0,
    packets: () => PACKETS,
    speed: "max",
    loop: true,
    onListen: (p) => port.resolve(p),
    backpressure: (n) => {
      sent = n;
      if (n === 1500) pastMemory.resolve();
    },
    signal: controller.signal,
  });
  try {
    const to: Deno.NetAddr = { transport: "udp", hostname: "127.0.0.1", port: await port.promise };
    await logger.send(encoder.encode("A"), to);
    await pastMemory.promise;
    // The ids the socket kept run on without a gap; the first gap is where the kernel dropped.
    let last = await receiveId(logger);
    for (let id = await receiveId(logger); id === last + 1; id = await receiveId(logger)) last = id;
    assert.ok(last - 500 < 1500 - 1024, `the socket kept up to id ${last}: no overflow to test`);
    // As the logger does: its last consumed id, sent again with each heartbeat.
    const ack = () => logger.send(encoder.encode(`ack ${last}`), to);
    await ack();
    // The console stops once the acknowledgement made its window count: wait for that.
    let seen = -1;
    while (seen !== sent) {
      seen = sent;
      await new Promise((r) => setTimeout(r, 300));
    }
    const began = performance.now();
    while (sent === seen) {
      assert.ok(performance.now() - began < 30_000, `the replay stayed stopped at ${seen}`);
      await ack();
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    controller.abort();
    await replay;
    logger.close();
  }
});
