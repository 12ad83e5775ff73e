import { strict as assert } from "node:assert";
import { startUdpClient } from "../../src/server/udp_client.ts";

Deno.test("the client heartbeats the console at once, and again while the stream is stalled", async () => {
  const console = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  const client = startUdpClient({
    hostname: "127.0.0.1",
    port: 0,
    console: "127.0.0.1",
    consolePort: (console.addr as Deno.NetAddr).port,
    format: "~",
    onFrame: () => {},
  });
  try {
    const letters: string[] = [];
    const started = performance.now();
    while (letters.length < 3) {
      const [data] = await console.receive();
      letters.push(new TextDecoder().decode(data));
    }
    const elapsed = performance.now() - started;
    assert.deepEqual(letters, ["~", "~", "~"]);
    // Stalled (no packets at all), heartbeats repeat about every 0.5 s (three in ~1 s), not
    // every 1.5 s (three in ~3 s); the bound between leaves room for a busy machine.
    assert.ok(elapsed < 2500, `three heartbeats took ${elapsed.toFixed(0)} ms`);
    const status = client.status();
    assert.equal(status.connected, false);
    assert.ok(status.heartbeats_sent >= 2);
    assert.equal(status.console, `127.0.0.1:${(console.addr as Deno.NetAddr).port}`);
  } finally {
    await client.close();
    console.close();
  }
});

Deno.test("without a console the client only listens, and closing twice is safe", async () => {
  const client = startUdpClient({
    hostname: "127.0.0.1",
    port: 0,
    console: null,
    consolePort: 33739,
    format: "C",
    onFrame: () => {},
  });
  const sender = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  try {
    await sender.send(new Uint8Array(368), {
      transport: "udp",
      hostname: "127.0.0.1",
      port: client.port,
    });
    await sender.send(new Uint8Array(0), {
      transport: "udp",
      hostname: "127.0.0.1",
      port: client.port,
    });
    for (let i = 0; i < 100 && client.status().packets_received < 2; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const s = client.status();
    assert.equal(s.packets_received, 2);
    assert.equal(s.rejected_magic, 1);
    assert.equal(s.rejected_size, 1);
    assert.equal(s.heartbeats_sent, 0);
  } finally {
    sender.close();
    await client.close();
    await client.close();
  }
});
