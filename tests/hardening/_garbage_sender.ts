/**
 * Sends bad datagrams to 127.0.0.1:`port` at `rate` a second for `seconds`,
 * from its own process so the flood competes with the logger the way a
 * hostile host would, then prints how many it sent.
 *
 * Usage: deno run -A _garbage_sender.ts PORT SECONDS RATE
 *
 * @module
 */
import { createRng } from "../../src/core/synthetic/random.ts";

const [port, seconds, rate] = Deno.args.map(Number);
const VALID_SIZES = new Set([296, 316, 344, 368]);

/** Every bad kind: valid sizes with random bytes, short ones, and odd sizes. */
function garbagePool(count: number): Uint8Array[] {
  const rng = createRng(5);
  return Array.from({ length: count }, (_, i) => {
    let size: number;
    if (i % 3 === 0) size = [296, 316, 344, 368][i % 4];
    else if (i % 3 === 1) size = 1 + Math.floor(rng.next() * 295);
    else {
      do size = 369 + Math.floor(rng.next() * 1000); while (VALID_SIZES.has(size));
    }
    const bytes = new Uint8Array(size);
    for (let b = 0; b < size; b++) bytes[b] = Math.floor(rng.next() * 256);
    return bytes;
  });
}

const pool = garbagePool(997);
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
