/**
 * Eight telemetry tools for bench/relay_bench.ts, in a process of their own so
 * their receiving never counts as the logger's work: each heartbeats the
 * relay every second with its letter (two each of A, B, ~ and C), keeps a
 * count of the datagrams it received and of those that decrypt, with its
 * letter's key, to a packet of its format. Prints "ready" once all eight
 * are served... as far as it can tell: once each has sent a heartbeat. Stops
 * when its standard input closes, then prints the counts as one JSON line.
 *
 * Usage: deno run -A bench/_relay_apps.ts RELAY_PORT
 *
 * @module
 */
import { decryptPacket } from "../src/core/gt7/cipher.ts";
import { PACKET_SIZE, type PacketFormat } from "../src/core/gt7/format.ts";
import { enlargeReceiveBuffer, locateUdpSocket } from "../src/capture/socket_buffer.ts";

/** What one app saw. */
export interface AppCount {
  format: PacketFormat;
  received: number;
  /** Datagrams of the app's size that decrypted with its key. */
  valid: number;
}

const relayPort = Number(Deno.args[0]);
const LETTERS: PacketFormat[] = ["A", "A", "B", "B", "~", "~", "C", "C"];
const to: Deno.NetAddr = { transport: "udp", hostname: "127.0.0.1", port: relayPort };

const apps = LETTERS.map((format) => {
  const sock = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  const local = sock.addr as Deno.NetAddr;
  enlargeReceiveBuffer(locateUdpSocket(local.hostname, local.port), 8 * 2 ** 20);
  const count: AppCount = { format, received: 0, valid: 0 };
  const beat = new TextEncoder().encode(format);
  const heartbeat = () => void sock.send(beat, to).catch(() => {});
  heartbeat();
  const timer = setInterval(heartbeat, 1000);
  const loop = (async () => {
    const buf = new Uint8Array(2048);
    try {
      for (;;) {
        const [data] = await sock.receive(buf);
        count.received++;
        if (data.length === PACKET_SIZE[format] && decryptPacket(data, format) !== null) {
          count.valid++;
        }
      }
    } catch {
      // Closed.
    }
  })();
  return { count, close: () => (clearInterval(timer), sock.close(), loop) };
});

console.log("ready");
// Standard input closing is the signal to stop.
for await (const _ of Deno.stdin.readable) {
  // Nothing is expected on it.
}
await Promise.all(apps.map((a) => a.close()));
console.log(JSON.stringify(apps.map((a) => a.count)));
