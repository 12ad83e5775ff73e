/**
 * The cost of one look of the idle-connection limit
 * (src/server/idle_connections.ts): finding the server's connections among
 * this process's descriptors, with 200 connections open to a Deno.serve
 * server on loopback. The limit looks every second on the main thread, so
 * this is what it takes from the event loop each second. For comparison,
 * reading the host's /proc/net/tcp and /proc/net/tcp6 (the other way to
 * find them) is timed too. Figures are printed (median of 50 looks) before
 * the Deno.bench table.
 *
 * Target (issue 25): measured; well under the 16 ms of one 60 Hz frame.
 *
 * @module
 */
import { connectionsOn } from "../src/server/idle_connections.ts";
import { openSocketLibc } from "../src/capture/libc_sockets.ts";
import { readTcpRows } from "../src/capture/proc_sockets.ts";

const CONNECTIONS = 200;
const RUNS = 50;
const TARGET_MS = 16;

const libc = openSocketLibc();
if (libc === null) throw new Error("libc could not be opened: this bench needs Linux and -A");
const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen: () => {} },
  () => new Response("ok"),
);
const port = server.addr.port;
const clients = await Promise.all(
  Array.from({ length: CONNECTIONS }, () => Deno.connect({ hostname: "127.0.0.1", port })),
);
// Accepted once the server side shows every connection.
while (connectionsOn(libc, port).length < CONNECTIONS) await new Promise((r) => setTimeout(r, 10));

function median(fn: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(RUNS / 2)];
}

const look = median(() => connectionsOn(libc, port));
const proc = median(() => readTcpRows());
console.log(
  `one look, ${CONNECTIONS} connections: ${look.toFixed(2)} ms median of ${RUNS} ` +
    `(target <= ${TARGET_MS} ms: ${look <= TARGET_MS ? "met" : "NOT met"}); ` +
    `/proc/net/tcp{,6} read and parsed: ${proc.toFixed(2)} ms`,
);

Deno.bench(`one look of the idle limit, ${CONNECTIONS} connections open`, () => {
  connectionsOn(libc, port);
});

globalThis.addEventListener("unload", () => {
  for (const c of clients) c.close();
  libc.close();
});
