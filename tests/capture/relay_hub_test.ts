import { strict as assert } from "node:assert";
import { encryptPacket } from "../../src/core/gt7/cipher.ts";
import { PACKET_SIZE } from "../../src/core/gt7/format.ts";
import {
  MAX_RELAY_APPS,
  RELAY_TIMEOUT_MS,
  RelayHub,
  type RelayHubOptions,
  type RelayPeer,
} from "../../src/capture/relay_hub.ts";

const LAN = [{ address: "192.168.1.10", prefix: 24 }];
const letter = (l: string) => new TextEncoder().encode(l);

/** A C packet with id `id`, encrypted as the console would, and its decryption. */
function consolePacket(id: number): { cipher: Uint8Array; plain: Uint8Array } {
  const plain = new Uint8Array(PACKET_SIZE.C);
  const view = new DataView(plain.buffer);
  view.setUint32(0, 0x47375330, true);
  view.setInt32(0x70, id, true);
  return { cipher: encryptPacket(plain, 1000 + id), plain };
}

/** A hub whose sends are recorded, on a clock the test moves. */
function testHub(extra: Partial<RelayHubOptions> = {}) {
  const sent: { to: string; bytes: Uint8Array }[] = [];
  let now = 0;
  const hub = new RelayHub({
    nets: LAN,
    forwards: [],
    send: (bytes: Uint8Array, peer: RelayPeer) => {
      sent.push({ to: `${peer.hostname}:${peer.port}`, bytes });
      return true;
    },
    monotonic: () => now,
    wallClock: () => 1_800_000_000_000 + now,
    ...extra,
  });
  const relayOne = (id: number) => {
    const { cipher, plain } = consolePacket(id);
    hub.relay(cipher, plain);
  };
  return { hub, sent, relayOne, advance: (ms: number) => (now += ms) };
}

Deno.test("a heartbeat from a non-local address is not answered, only counted", () => {
  const { hub, sent, relayOne } = testHub();
  for (const hostname of ["203.0.113.5", "8.8.8.8", "192.168.2.7", "192.168.1.255"]) {
    assert.equal(hub.heartbeat(letter("A"), { hostname, port: 33740 }), false, hostname);
  }
  relayOne(1);
  assert.deepEqual(sent, []);
  assert.equal(hub.size, 0);
  assert.equal(hub.wanted(), null);
  const c = hub.counters();
  assert.equal(c.refusedNotLocal, 4);
  assert.deepEqual(c.apps, []);
});

Deno.test("loopback and LAN apps are served from their first heartbeat, in their format", () => {
  const { hub, sent, relayOne } = testHub();
  assert.equal(hub.heartbeat(letter("A"), { hostname: "127.0.0.1", port: 5001 }), true);
  assert.equal(hub.heartbeat(letter("~"), { hostname: "192.168.1.33", port: 5002 }), true);
  assert.equal(hub.wanted(), "~");
  relayOne(7);
  assert.deepEqual(sent.map((s) => [s.to, s.bytes.length]), [
    ["127.0.0.1:5001", PACKET_SIZE.A],
    ["192.168.1.33:5002", PACKET_SIZE["~"]],
  ]);
  const c = hub.counters();
  assert.deepEqual(c.apps.map((a) => [a.address, a.kind, a.format, a.packetsSent]), [
    ["127.0.0.1:5001", "heartbeat", "A", 1],
    ["192.168.1.33:5002", "heartbeat", "~", 1],
  ]);
  assert.equal(c.apps[0].lastHeartbeatAtMs, 1_800_000_000_000);
});

Deno.test("an app is dropped 5 s after its last heartbeat, as a console drops it", () => {
  const { hub, sent, relayOne, advance } = testHub();
  hub.heartbeat(letter("B"), { hostname: "127.0.0.1", port: 5001 });
  advance(RELAY_TIMEOUT_MS);
  relayOne(1);
  assert.equal(sent.length, 1, "still served at exactly the timeout");
  advance(1);
  relayOne(2);
  assert.equal(sent.length, 1, "gone just after");
  assert.equal(hub.counters().expired, 1);
  assert.equal(hub.wanted(), null);
  // A new heartbeat starts it again.
  hub.heartbeat(letter("B"), { hostname: "127.0.0.1", port: 5001 });
  relayOne(3);
  assert.equal(sent.length, 2);
});

Deno.test("a heartbeat of another letter changes the app's format; acks are ignored uncounted", () => {
  const { hub, sent, relayOne } = testHub();
  const from = { hostname: "127.0.0.1", port: 5001 };
  hub.heartbeat(letter("C"), from);
  hub.heartbeat(letter("A"), from);
  assert.equal(hub.heartbeat(letter("ack 12"), from), false);
  assert.equal(hub.heartbeat(letter("hello"), from), false);
  relayOne(1);
  assert.deepEqual(sent.map((s) => s.bytes.length), [PACKET_SIZE.A]);
  assert.equal(hub.counters().refusedNotAFormat, 1);
  assert.equal(hub.size, 1);
});

Deno.test("at most 8 apps, forward targets included; the ninth is counted and ignored", () => {
  const { hub, sent, relayOne } = testHub({
    forwards: [
      { hostname: "127.0.0.1", port: 6001, format: "A" },
      { hostname: "127.0.0.1", port: 6002, format: "C" },
    ],
  });
  assert.equal(MAX_RELAY_APPS, 8);
  for (let i = 0; i < 6; i++) {
    assert.equal(hub.heartbeat(letter("A"), { hostname: "127.0.0.1", port: 5000 + i }), true);
  }
  assert.equal(hub.heartbeat(letter("A"), { hostname: "127.0.0.1", port: 5006 }), false);
  // One already served still renews.
  assert.equal(hub.heartbeat(letter("A"), { hostname: "127.0.0.1", port: 5000 }), true);
  relayOne(1);
  assert.equal(sent.length, 8);
  assert.equal(hub.counters().refusedFull, 1);
  assert.deepEqual(hub.counters().apps.slice(6).map((a) => [a.kind, a.lastHeartbeatAtMs]), [
    ["forward", null],
    ["forward", null],
  ]);
  assert.throws(
    () =>
      new RelayHub({
        nets: [],
        forwards: Array.from({ length: 9 }, (_, i) => ({
          hostname: "127.0.0.1",
          port: 7000 + i,
          format: "A" as const,
        })),
        send: () => true,
      }),
    /at most 8 relay targets, got 9 --forward/,
  );
});

Deno.test("forward targets get every packet with no heartbeat; refused sends are counted", async () => {
  let calls = 0;
  const hub = new RelayHub({
    nets: [],
    forwards: [{ hostname: "127.0.0.1", port: 6001, format: "~" }],
    send: () => {
      calls++;
      return calls === 1 ? true : calls === 2 ? false : Promise.resolve(calls === 3);
    },
  });
  assert.equal(hub.wanted(), "~");
  for (let id = 1; id <= 4; id++) {
    const { cipher, plain } = consolePacket(id);
    hub.relay(cipher, plain);
  }
  await Promise.resolve();
  await Promise.resolve();
  const c = hub.counters();
  assert.equal(c.apps[0].packetsSent, 2);
  assert.equal(c.sendErrors, 2);
});

Deno.test("one datagram per format per packet, shared by every app of that format", () => {
  const { hub, sent, relayOne } = testHub();
  hub.heartbeat(letter("A"), { hostname: "127.0.0.1", port: 5001 });
  hub.heartbeat(letter("A"), { hostname: "127.0.0.1", port: 5002 });
  relayOne(1);
  assert.equal(sent[0].bytes, sent[1].bytes);
  relayOne(2);
  assert.notEqual(sent[2].bytes, sent[0].bytes, "a later packet never reuses an array sent before");
  assert.equal(new DataView(sent[2].bytes.buffer).getUint32(0x40, true), 1002);
});

Deno.test("the logger's own telemetry socket heartbeating its relay is never served", () => {
  let told = 0;
  const { hub, sent, relayOne } = testHub({ selfPort: 33740, onSelf: () => told++ });
  assert.equal(hub.heartbeat(letter("C"), { hostname: "127.0.0.1", port: 33740 }), false);
  assert.equal(hub.heartbeat(letter("C"), { hostname: "192.168.1.10", port: 33740 }), false);
  // Another machine's tool on the same port number is an app like any other.
  assert.equal(hub.heartbeat(letter("A"), { hostname: "192.168.1.50", port: 33740 }), true);
  relayOne(1);
  assert.deepEqual(sent.map((s) => s.to), ["192.168.1.50:33740"]);
  assert.equal(told, 2);
});
