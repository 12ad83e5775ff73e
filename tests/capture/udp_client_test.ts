import { strict as assert } from "node:assert";
import { acksAllowed, startUdpClient, type UdpClient } from "../../src/capture/udp_client.ts";
import { MAX_COUNTED_GAP, PacketAccounting } from "../../src/capture/packet_accounting.ts";
import { startLogger } from "../../src/cli/logger_process.ts";
import { cipherPacket } from "../server/_udp_packets.ts";
import type { SendJob } from "../server/_udp_sender_worker.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const decoder = new TextDecoder();

/** Waits (polling, up to 10 s) until `ok()`; the assertions after it say what was expected. */
async function until(ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!ok() && Date.now() < deadline) await sleep(5);
}

function udpSocket(): Deno.DatagramConn {
  return Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
}

function portOf(conn: Deno.DatagramConn | Deno.Listener): number {
  return (conn.addr as Deno.NetAddr).port;
}

/** A passive client (no console) collecting the packet ids it delivers. */
async function passiveClient(): Promise<{ client: UdpClient; ids: number[] }> {
  const ids: number[] = [];
  const client = await startUdpClient({
    hostname: "127.0.0.1",
    port: 0,
    console: null,
    consolePort: 33739,
    format: "A",
    onFrame: (frame) => ids.push(frame.packetId),
  });
  return { client, ids };
}

Deno.test("the client heartbeats the console at once, and again while the stream is stalled", async () => {
  const console = udpSocket();
  const client = await startUdpClient({
    hostname: "127.0.0.1",
    port: 0,
    console: "127.0.0.1",
    consolePort: portOf(console),
    format: "~",
    onFrame: () => {},
  });
  try {
    const letters: string[] = [];
    const started = performance.now();
    while (letters.length < 3) {
      const text = decoder.decode((await console.receive())[0]);
      // On loopback each heartbeat is followed by an acknowledgement (nothing consumed yet).
      if (text === "ack") continue;
      letters.push(text);
    }
    const elapsed = performance.now() - started;
    assert.deepEqual(letters, ["~", "~", "~"]);
    // Stalled (no packets at all), heartbeats repeat about every 0.5 s (three in ~1 s), not
    // every 1.5 s (three in ~3 s); the bound between leaves room for a busy machine.
    assert.ok(elapsed < 2500, `three heartbeats took ${elapsed.toFixed(0)} ms`);
    await until(() => client.status().heartbeats_sent >= 2);
    const status = client.status();
    assert.equal(status.connected, false);
    assert.ok(status.heartbeats_sent >= 2);
    assert.equal(status.console, `127.0.0.1:${portOf(console)}`);
  } finally {
    await client.close();
    console.close();
  }
});

Deno.test("without a console the client only listens, and closing twice is safe", async () => {
  const { client } = await passiveClient();
  const sender = udpSocket();
  try {
    const to: Deno.NetAddr = { transport: "udp", hostname: "127.0.0.1", port: client.port };
    await sender.send(new Uint8Array(368), to);
    await sender.send(new Uint8Array(0), to);
    await until(() => client.status().packets_received === 2);
    const s = client.status();
    assert.equal(s.packets_received, 2);
    assert.equal(s.rejected_magic, 1);
    assert.equal(s.rejected_size, 1);
    assert.equal(s.heartbeats_sent, 0);
    assert.equal(s.acks_sent, 0);
  } finally {
    sender.close();
    await client.close();
    await client.close();
  }
});

Deno.test("with the main thread blocked for 2 s while 60 Hz telemetry arrives, every frame is delivered in order", async () => {
  const { client, ids } = await passiveClient();
  const sender = new Worker(new URL("../server/_udp_sender_worker.ts", import.meta.url), {
    type: "module",
  });
  const started = Promise.withResolvers<void>();
  const done = Promise.withResolvers<void>();
  sender.onmessage = (e) => (e.data === "started" ? started : done).resolve();
  try {
    const expected = Array.from({ length: 120 }, (_, i) => 1000 + i);
    sender.postMessage({ port: client.port, ids: expected, hz: 60 } satisfies SendJob);
    await started.promise;
    // Block this thread as a lap store, a bundle import or a collection would, for
    // about as long as the sender takes: the receive worker must keep everything.
    const until2s = performance.now() + 2000;
    while (performance.now() < until2s) { /* busy */ }
    await done.promise;
    await until(() => ids.length >= expected.length);
    assert.deepEqual(ids, expected);
    const s = client.status();
    assert.equal(s.decoded, 120);
    assert.equal(s.packets_received, 120);
    assert.equal(s.missing, 0);
    assert.equal(s.duplicates, 0);
    assert.equal(s.restarts, 0);
    assert.equal(s.packet_format, "A");
  } finally {
    sender.terminate();
    await client.close();
  }
});

Deno.test("every forward gap counts as missing, repeats as duplicates, jumps as restarts", async () => {
  const { client, ids } = await passiveClient();
  const sender = udpSocket();
  try {
    const to: Deno.NetAddr = { transport: "udp", hostname: "127.0.0.1", port: client.port };
    const sent = [
      ...Array.from({ length: 10 }, (_, i) => 1 + i), // 1..10
      ...Array.from({ length: 10 }, (_, i) => 511 + i), // 500 ids skipped
      520, // a repeat
      5, // backwards: a new stream
      5 + MAX_COUNTED_GAP + 1, // too far ahead to be a loss: a new stream
      5 + MAX_COUNTED_GAP + 2, // counting goes on from the new stream
    ];
    for (const id of sent) await sender.send(cipherPacket(id), to);
    await until(() => ids.length === sent.length);
    assert.deepEqual(ids, sent);
    const s = client.status();
    assert.equal(s.missing, 500);
    assert.equal(s.duplicates, 1);
    assert.equal(s.restarts, 2);
    assert.equal(s.decoded, sent.length);
  } finally {
    sender.close();
    await client.close();
  }
});

Deno.test("packet accounting: the largest counted gap and the first id", () => {
  const a = new PacketAccounting();
  assert.equal(a.see(7), false);
  a.see(7 + MAX_COUNTED_GAP);
  assert.deepEqual([a.missing, a.restarts, a.duplicates], [MAX_COUNTED_GAP - 1, 0, 0]);
  assert.equal(a.see(7 + MAX_COUNTED_GAP), true);
  a.see(-3);
  assert.deepEqual([a.missing, a.restarts, a.duplicates], [MAX_COUNTED_GAP - 1, 1, 1]);
});

Deno.test("acknowledgements go only to a console on loopback, never to a packet's sender", async () => {
  assert.equal(acksAllowed("127.0.0.1"), true);
  assert.equal(acksAllowed("127.1.2.3"), true);
  assert.equal(acksAllowed("localhost"), true);
  assert.equal(acksAllowed("::1"), true);
  assert.equal(acksAllowed("192.168.1.30"), false);
  assert.equal(acksAllowed("10.0.0.127"), false);
  assert.equal(acksAllowed("ps5.local"), false);
  assert.equal(acksAllowed(null), false);

  const console = udpSocket();
  const sender = udpSocket();
  const ids: number[] = [];
  const client = await startUdpClient({
    hostname: "127.0.0.1",
    port: 0,
    console: "127.0.0.1",
    consolePort: portOf(console),
    format: "A",
    onFrame: (frame) => ids.push(frame.packetId),
  });
  try {
    const to: Deno.NetAddr = { transport: "udp", hostname: "127.0.0.1", port: client.port };
    for (const id of [41, 42, 43]) await sender.send(cipherPacket(id), to);
    const seen: string[] = [];
    while (!seen.includes("ack 43")) seen.push(decoder.decode((await console.receive())[0]));
    assert.equal(seen[0], "A", "the heartbeat comes first");
    assert.ok(seen.every((t) => t === "A" || /^ack( \d+)?$/.test(t)), seen.join(", "));
    assert.deepEqual(ids, [41, 42, 43]);
    // The sender got nothing from the client: the first datagram it reads is this probe.
    await console.send(Uint8Array.of(0x70), {
      transport: "udp",
      hostname: "127.0.0.1",
      port: portOf(sender),
    });
    assert.deepEqual([...(await sender.receive())[0]], [0x70]);
    await until(() =>
      (client.status().acks_sent ?? 0) >= seen.filter((t) => t.startsWith("ack")).length
    );
    assert.ok((client.status().acks_sent ?? 0) >= 2);
  } finally {
    await client.close();
    console.close();
    sender.close();
  }
});

Deno.test("close() releases the port and the worker", async () => {
  const { client } = await passiveClient();
  const port = client.port;
  await client.close();
  const again = Deno.listenDatagram({ hostname: "127.0.0.1", port, transport: "udp" });
  again.close();
});

Deno.test("the status reports the receive buffer the kernel gave and its drops", async () => {
  const { client } = await passiveClient();
  try {
    const s = client.status();
    if (Deno.build.os !== "linux") {
      assert.equal(s.receive_buffer_bytes, null);
      assert.match(s.receive_buffer_note ?? "", /^platform default/);
      return;
    }
    // With -A on Linux the FFI path works: as root SO_RCVBUFFORCE gives the 8 MiB asked,
    // otherwise SO_RCVBUF is capped at net.core.rmem_max. Linux reports twice what was set.
    const asked = 8 * 2 ** 20;
    const rmemMax = Number(Deno.readTextFileSync("/proc/sys/net/core/rmem_max"));
    const forced = /SO_RCVBUFFORCE/.test(s.receive_buffer_note ?? "");
    assert.match(s.receive_buffer_note ?? "", /^8388608 bytes asked with SO_RCVBUF(FORCE)?/);
    assert.equal(s.receive_buffer_bytes, 2 * (forced ? asked : Math.min(asked, rmemMax)));
    assert.equal(s.kernel_drops, 0);
  } finally {
    await client.close();
  }
});

Deno.test("a taken UDP port is refused with AddrInUse", async () => {
  const taken = udpSocket();
  try {
    await assert.rejects(
      startUdpClient({
        hostname: "127.0.0.1",
        port: portOf(taken),
        console: null,
        consolePort: 33739,
        format: "A",
        onFrame: () => {},
      }),
      Deno.errors.AddrInUse,
    );
  } finally {
    taken.close();
  }
});

Deno.test("a logger whose port is taken names the port and the flag that chooses another", async () => {
  const udp = udpSocket();
  const tcp = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const base = {
    data: ":memory:",
    host: "127.0.0.1",
    console: null,
    consolePort: 33739,
    format: "C" as const,
  };
  try {
    await assert.rejects(startLogger({ ...base, port: 0, udpPort: portOf(udp) }), {
      name: "AddrInUse",
      message: `UDP port ${portOf(udp)} is already in use (another logger running?); ` +
        "choose another with --udp-port",
    });
    await assert.rejects(startLogger({ ...base, port: portOf(tcp), udpPort: 0 }), {
      name: "AddrInUse",
      message: `HTTP port ${portOf(tcp)} is already in use (another logger running?); ` +
        "choose another with --port",
    });
  } finally {
    udp.close();
    tcp.close();
  }
});
