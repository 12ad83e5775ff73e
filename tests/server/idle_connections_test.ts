/**
 * The idle limit closes connections with no request in progress, and never
 * one whose answer is still being sent (an event stream). The limit is set
 * short; tests/hardening/slow_clients_test.ts runs 200 at once.
 */
import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { consoleLog } from "../../src/server/console_log.ts";
import { startHttp } from "../../src/server/http.ts";
import { connectionPorts, openSocketLibc } from "../../src/capture/libc_sockets.ts";

const IDLE_MS = 400;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Everything `conn` receives until the server closes it. */
async function untilClosed(conn: Deno.Conn): Promise<string> {
  const buf = new Uint8Array(4096);
  let text = "";
  try {
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += decoder.decode(buf.subarray(0, n));
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.ConnectionReset)) throw err;
  }
  return text;
}

Deno.test("idle connections close after the limit; an event stream in progress stays open", async () => {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv, log: consoleLog });
  const server = startHttp(app, { hostname: "127.0.0.1", port: 0, idleTimeoutMs: IDLE_MS });
  const connect = () => Deno.connect({ hostname: "127.0.0.1", port: server.port });
  const stream = await connect();
  try {
    assert.equal(server.limits.idle.note, null);
    await stream.write(encoder.encode("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n"));
    const head = new Uint8Array(4096);
    const n = (await stream.read(head))!;
    assert.match(decoder.decode(head.subarray(0, n)), /^HTTP\/1\.1 200 OK\r\n/);
    let streamEnded = false;
    const streamDone = untilClosed(stream).finally(() => streamEnded = true);

    // Opened after the stream: by the time the limit closes them, the stream is older.
    // The clock is read before connecting: the server may see (and start timing) a
    // connection before this side's connect resolves, so a later reading could
    // make a close exactly at the limit look early.
    const opened = performance.now();
    const silent = await connect();
    const keptAlive = await connect();
    await keptAlive.write(encoder.encode("GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n"));
    const [silentText, keptText] = await Promise.all([untilClosed(silent), untilClosed(keptAlive)]);
    const elapsed = performance.now() - opened;
    silent.close();
    keptAlive.close();
    assert.equal(silentText, "");
    assert.match(keptText, /^HTTP\/1\.1 200 OK\r\n[\s\S]*"status":"ok"/);
    assert.ok(elapsed >= IDLE_MS, `closed after ${elapsed} ms`);
    assert.equal(streamEnded, false, "the event stream was cut");
    assert.equal(server.limits.idle.closed, 2);

    // Closing the server ends the stream.
    await server.close();
    await streamDone;
    assert.equal(streamEnded, true);
  } finally {
    try {
      stream.close();
    } catch {
      // closed by the shutdown
    }
    await server.close();
    kv.close();
  }
});

Deno.test("connectionPorts answers the ports of a TCP connection and nothing for other descriptors", async () => {
  const libc = openSocketLibc();
  assert.ok(libc, "libc opens here");
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const file = await Deno.open(Deno.execPath());
  try {
    const client = await Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port });
    const accepted = await listener.accept();
    const fds = [...Deno.readDirSync("/proc/self/fd")].map((e) => Number(e.name));
    const found = fds.map((fd) => connectionPorts(libc, fd)).filter((p) => p !== null);
    const mine = { local: listener.addr.port, remote: client.localAddr.port };
    assert.deepEqual(found.filter((p) => p.local === mine.local), [mine]);
    assert.deepEqual(found.filter((p) => p.remote === mine.local), [{
      local: mine.remote,
      remote: mine.local,
    }]);
    client.close();
    accepted.close();
  } finally {
    file.close();
    listener.close();
    libc.close();
  }
});
