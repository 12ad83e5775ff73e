import { strict as assert } from "node:assert";
import { noFixtures, readGzFixture } from "../_fixtures.ts";
import { parseCapture } from "../../src/core/gt7/capture.ts";
import { decryptPacket } from "../../src/core/gt7/cipher.ts";
import { PACKET_SIZE, type PacketFormat } from "../../src/core/gt7/format.ts";
import type { Logger, LoggerOptions } from "../../src/cli/logger_process.ts";
import { runFakeConsole } from "../../src/cli/fake_console.ts";
import { statusSchema } from "../../src/server/openapi/status_schemas.ts";
import { RELAY_TIMEOUT_MS } from "../../src/capture/relay_hub.ts";
import { enlargeReceiveBuffer, locateUdpSocket } from "../../src/capture/socket_buffer.ts";
import type { TelemetryRelayApp } from "../../src/app/live/telemetry_source.ts";
import {
  assertSuzukaLap,
  getJson,
  HANG_MS,
  newestSessionLaps,
  settle,
  startTestLogger,
} from "./harness.ts";

/** The console's plaintext packets of a capture, 0x40..0x43 (the IV slot) zeroed as decryption leaves them. */
function consolePackets(name: string): Uint8Array[] {
  return parseCapture(readGzFixture(`gt7/${name}`)).packets.map((p) => {
    const copy = p.slice();
    copy.fill(0, 0x40, 0x44);
    return copy;
  });
}

/**
 * A tool on loopback that receives telemetry: with `letter` it heartbeats a
 * relay every 500 ms (as such tools heartbeat a console) until `stop()`;
 * without, it only listens (a `--forward` target). Keeps every datagram.
 */
class TestApp {
  readonly sock = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  readonly received: Uint8Array[] = [];
  /** When the last heartbeat was handed to the socket (performance.now()); 0 before any. */
  lastBeatAt = 0;
  #timer: ReturnType<typeof setInterval> | null = null;
  readonly #loop: Promise<void>;

  constructor(readonly letter: PacketFormat | null, relayPort?: number) {
    const local = this.sock.addr as Deno.NetAddr;
    // Room for a whole lap queued, whatever the test's thread is doing.
    enlargeReceiveBuffer(locateUdpSocket(local.hostname, local.port), 8 * 2 ** 20);
    if (letter !== null && relayPort !== undefined) {
      const to: Deno.NetAddr = { transport: "udp", hostname: "127.0.0.1", port: relayPort };
      const beat = new TextEncoder().encode(letter);
      const send = () => {
        this.lastBeatAt = performance.now();
        void this.sock.send(beat, to).catch(() => {});
      };
      send();
      this.#timer = setInterval(send, 500);
    }
    this.#loop = (async () => {
      try {
        for await (const [data] of this.sock) this.received.push(data);
      } catch {
        // Closed.
      }
    })();
  }

  get address(): string {
    return `127.0.0.1:${(this.sock.addr as Deno.NetAddr).port}`;
  }

  get port(): number {
    return (this.sock.addr as Deno.NetAddr).port;
  }

  /** Stops heartbeating (keeps listening). */
  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Resolves once `n` datagrams arrived; a hang fails with the count. */
  async waitFor(n: number): Promise<void> {
    const deadline = Date.now() + HANG_MS;
    while (this.received.length < n) {
      if (Date.now() > deadline) throw new Error(`app got ${this.received.length} of ${n}`);
      await sleep(10);
    }
  }

  async close(): Promise<void> {
    this.stop();
    this.sock.close();
    await this.#loop;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the logger's relay status satisfies `ok`. */
async function relayUntil(
  logger: Logger,
  ok: (apps: TelemetryRelayApp[], expired: number) => boolean,
): Promise<void> {
  const deadline = Date.now() + HANG_MS;
  for (;;) {
    const relay = logger.udp.status().relay!;
    if (ok(relay.apps, relay.expired)) return;
    if (Date.now() > deadline) throw new Error(`relay never got there: ${JSON.stringify(relay)}`);
    await sleep(10);
  }
}

/**
 * Replays `packets` into a logger with a relay; `hold(sent)` is awaited
 * before each packet once the logger is up, so apps can be in place before
 * the first one and the stream can be held at a chosen packet.
 */
async function relayReplay(
  packets: Uint8Array[],
  extra: Partial<LoggerOptions>,
  hold: (sent: number, logger: Logger) => Promise<void>,
): Promise<{ logger: Logger; sent: number }> {
  const listening = Promise.withResolvers<number>();
  const up = Promise.withResolvers<Logger>();
  const replay = runFakeConsole({
    hostname: "127.0.0.1",
    port: 0,
    packets: () => packets,
    speed: 20,
    onListen: (p) => listening.resolve(p),
    backpressure: async (sent) => await hold(sent, await up.promise),
  });
  const logger = await startTestLogger(await listening.promise, undefined, extra);
  up.resolve(logger);
  try {
    const result = await replay;
    await settle(logger, result.sent);
    return { logger, sent: result.sent };
  } catch (err) {
    await logger.close();
    throw err;
  }
}

Deno.test({
  name:
    "relay: apps asking A and ~ get every Suzuka packet, a silent app stops after 5 s, --forward gets all, the lap is unchanged",
  ignore: noFixtures,
  async fn() {
    const packets = consolePackets("suzuka-full-lap.A.gt7.gz");
    assert.equal(packets.length, 6420);
    const forwardA = new TestApp(null);
    const forwardC = new TestApp(null);
    const apps: TestApp[] = [];
    const HOLD_AT = 1000;
    let silentFor = 0;
    let logger: Logger | null = null;
    try {
      const run = await relayReplay(packets, {
        relay: 0,
        forwards: [
          { hostname: "127.0.0.1", port: forwardA.port, format: "A" },
          { hostname: "127.0.0.1", port: forwardC.port, format: "C" },
        ],
      }, async (sent, logger) => {
        if (sent === 0) {
          // Three apps heartbeat the relay before the first packet.
          const port = Number(logger.udp.status().relay!.listen!.split(":")[1]);
          apps.push(new TestApp("A", port), new TestApp("~", port), new TestApp("B", port));
          await relayUntil(logger, (a) => a.length === 5);
        }
        if (sent === HOLD_AT) {
          // The third app falls silent; the stream holds until the relay dropped it.
          apps[2].stop();
          await apps[2].waitFor(HOLD_AT);
          await relayUntil(logger, (a, expired) => a.length === 4 && expired === 1);
          // Measured from its last heartbeat, not from stop(): on a busy machine the 500 ms
          // timer can fire late, so that heartbeat may have gone well before stop().
          silentFor = performance.now() - apps[2].lastBeatAt;
        }
      });
      logger = run.logger;
      assert.equal(run.sent, 6420);
      const [appA, appTilde, silent] = apps;
      await Promise.all([appA, appTilde, forwardA, forwardC].map((a) => a.waitFor(6420)));

      // The A app: every packet, in order, the console's bytes (ids included).
      assert.equal(appA.received.length, 6420);
      appA.received.forEach((d, i) => {
        assert.equal(d.length, PACKET_SIZE.A);
        assert.deepEqual(decryptPacket(d, "A"), packets[i], `A packet ${i}`);
      });
      // The ~ app: every packet too; the console sent A (a capture of A), and the relay
      // never pads, so it gets the console's A packet, counted as short.
      assert.equal(appTilde.received.length, 6420);
      appTilde.received.forEach((d, i) => {
        assert.deepEqual(decryptPacket(d, "A"), packets[i], `~ app packet ${i}`);
      });
      // The silent app got the packets sent while it was served, then nothing.
      assert.equal(silent.received.length, HOLD_AT);
      silent.received.forEach((d, i) => assert.deepEqual(decryptPacket(d, "A"), packets[i]));
      // --forward: every packet with no heartbeat.
      for (const target of [forwardA, forwardC]) {
        assert.equal(target.received.length, 6420);
        target.received.forEach((d, i) => assert.deepEqual(decryptPacket(d, "A"), packets[i]));
      }

      const relay = logger.udp.status().relay!;
      assert.equal(relay.console_format, "A");
      assert.equal(relay.requested_format, "C");
      assert.equal(relay.expired, 1);
      assert.equal(relay.refused_not_local, 0);
      assert.equal(relay.send_errors, 0);
      const byAddress = new Map(relay.apps.map((a) => [a.address, a]));
      assert.deepEqual(
        relay.apps.map((a) => [a.address, a.kind, a.format, a.packets_sent, a.packets_short]),
        [
          [appA.address, "heartbeat", "A", 6420, 0],
          [appTilde.address, "heartbeat", "~", 6420, 6420],
          [forwardA.address, "forward", "A", 6420, 0],
          [forwardC.address, "forward", "C", 6420, 6420],
        ],
      );
      assert.ok(byAddress.get(appA.address)!.last_heartbeat_at !== null);
      assert.equal(byAddress.get(forwardA.address)!.last_heartbeat_at, null);
      // Served until the timeout after its last heartbeat (less a few ms: two threads' clocks).
      assert.ok(silentFor >= RELAY_TIMEOUT_MS - 10, `dropped after ${silentFor} ms of silence`);

      // GET /api/status shows the same, as the OpenAPI document describes it.
      const served = statusSchema.parse(await getJson(logger, "/api/status")).telemetry!.relay!;
      assert.deepEqual(served.apps.map((a) => [a.address, a.packets_sent]), [
        [appA.address, 6420],
        [appTilde.address, 6420],
        [forwardA.address, 6420],
        [forwardC.address, 6420],
      ]);
      assert.equal(served.listen, relay.listen);

      // The logger's own lap, as without a relay.
      const status = logger.udp.status();
      assert.equal(status.decoded, 6420);
      assert.equal(status.packet_format, "A");
      await assertSuzukaLap(logger);
    } finally {
      await Promise.all([...apps, forwardA, forwardC].map((a) => a.close()));
      await logger?.close();
    }
  },
});

Deno.test({
  name:
    "relay: a console streaming the Suzuka lap as ~ (its A bytes, the ~ fields zero): apps asking A and ~ each get their format's exact bytes; the lap is unchanged",
  ignore: noFixtures,
  async fn() {
    // What a console asked for ~ sends for this lap, as far as the capture knows it: the
    // A bytes it recorded, the B and ~ fields (not in the capture) zero.
    const packets = consolePackets("suzuka-full-lap.A.gt7.gz").map((a) => {
      const tilde = new Uint8Array(PACKET_SIZE["~"]);
      tilde.set(a);
      return tilde;
    });
    const apps: TestApp[] = [];
    let logger: Logger | null = null;
    try {
      const run = await relayReplay(packets, { relay: 0 }, async (sent, logger) => {
        if (sent > 0) return;
        const port = Number(logger.udp.status().relay!.listen!.split(":")[1]);
        apps.push(new TestApp("A", port), new TestApp("~", port));
        await relayUntil(logger, (a) => a.length === 2);
      });
      logger = run.logger;
      assert.equal(run.sent, 6420);
      await Promise.all(apps.map((a) => a.waitFor(6420)));
      for (const [app, format] of [[apps[0], "A"], [apps[1], "~"]] as const) {
        assert.equal(app.received.length, 6420);
        app.received.forEach((d, i) => {
          assert.equal(d.length, PACKET_SIZE[format]);
          assert.deepEqual(
            decryptPacket(d, format),
            packets[i].subarray(0, PACKET_SIZE[format]),
            `${format} packet ${i}`,
          );
        });
      }
      const relay = logger.udp.status().relay!;
      assert.deepEqual(relay.apps.map((a) => [a.format, a.packets_sent, a.packets_short]), [
        ["A", 6420, 0],
        ["~", 6420, 0],
      ]);
      await assertSuzukaLap(logger);
    } finally {
      await Promise.all(apps.map((a) => a.close()));
      await logger?.close();
    }
  },
});

Deno.test({
  name:
    "relay: from the Spa capture (C) apps asking A, B, ~ and C each get their format's bytes; the console is asked for C only while an app needs it; the logger keeps --format A",
  ignore: noFixtures,
  async fn() {
    const packets = consolePackets("spa-full-lap.C.gt7.gz");
    const letters: PacketFormat[] = ["A", "B", "~", "C"];
    const apps: TestApp[] = [];
    let logger: Logger | null = null;
    try {
      const run = await relayReplay(packets, { relay: 0, format: "A" }, async (sent, logger) => {
        if (sent > 0) return;
        // Before any app, the console is asked for the logger's own format.
        assert.equal(logger.udp.status().relay!.requested_format, "A");
        const port = Number(logger.udp.status().relay!.listen!.split(":")[1]);
        apps.push(...letters.map((l) => new TestApp(l, port)));
        await relayUntil(logger, (a) => a.length === 4);
      });
      logger = run.logger;
      assert.equal(run.sent, packets.length);
      await Promise.all(apps.map((a) => a.waitFor(packets.length)));
      apps.forEach((app, k) => {
        const format = letters[k];
        assert.equal(app.received.length, packets.length);
        app.received.forEach((d, i) => {
          assert.equal(d.length, PACKET_SIZE[format]);
          const expected = packets[i].subarray(0, PACKET_SIZE[format]);
          assert.deepEqual(decryptPacket(d, format), expected, `${format} packet ${i}`);
        });
      });
      const status = logger.udp.status();
      // The console was asked for C for the C app; the logger still decodes its own A.
      assert.equal(status.relay!.requested_format, "C");
      assert.equal(status.relay!.console_format, "C");
      assert.equal(status.packet_format, "A");
      assert.equal(status.decoded, packets.length);
      const laps = await newestSessionLaps(logger);
      assert.equal(laps.length, 1);
      assert.equal(laps[0].time_ms, 115244);
      // Once the apps fall silent and are dropped, the logger asks for its own format again.
      for (const app of apps) app.stop();
      await relayUntil(logger, (a, expired) => a.length === 0 && expired === 4);
      const deadline = Date.now() + HANG_MS;
      while (logger.udp.status().relay!.requested_format !== "A") {
        if (Date.now() > deadline) throw new Error("the logger kept asking for C");
        await sleep(10);
      }
    } finally {
      await Promise.all(apps.map((a) => a.close()));
      await logger?.close();
    }
  },
});

Deno.test("a relay port already in use is named with --relay", async () => {
  const taken = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  const port = (taken.addr as Deno.NetAddr).port;
  try {
    await assert.rejects(
      () => startTestLogger(9, undefined, { relay: port }),
      (err: Error) => {
        assert.equal(
          err.message,
          `relay port ${port} is already in use; choose another with --relay`,
        );
        return true;
      },
    );
  } finally {
    taken.close();
  }
});

Deno.test("a logger whose console port is its own relay port never relays to itself", async () => {
  const probe = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const told = Promise.withResolvers<string>();
  const logger = await startTestLogger(port, undefined, {
    relay: port,
    onNotice: (line) => told.resolve(line),
  });
  try {
    assert.equal(
      await told.promise,
      "the logger's own heartbeats reach its relay port (is --console-port the --relay port?); ignored",
    );
    assert.deepEqual(logger.udp.status().relay!.apps, []);
  } finally {
    await logger.close();
  }
});
