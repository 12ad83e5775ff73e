/**
 * Sends bad datagrams to 127.0.0.1:`port` at `rate` a second for `seconds`,
 * from its own process so the flood competes with the logger the way a
 * hostile host would, then prints how many it sent.
 *
 * Usage: deno run -A _garbage_sender.ts PORT SECONDS RATE
 *
 * @module
 */
import { garbageDatagrams } from "../_garbage.ts";

const [port, seconds, rate] = Deno.args.map(Number);
const pool = garbageDatagrams(5, 997);
const sock = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
const to: Deno.NetAddr = { transport: "udp", hostname: "127.0.0.1", port };
const start = performance.now();
let sent = 0;
console.log("started");
while (performance.now() - start < seconds * 1000) {
  const due = Math.floor((performance.now() - start) * rate / 1000);
  while (sent < due) await sock.send(pool[sent++ % pool.length], to);
  await new Promise((r) => setTimeout(r, 5));
}
sock.close();
console.log(`sent ${sent}`);
