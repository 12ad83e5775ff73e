/**
 * A body its client cuts off (fewer bytes than its Content-Length, then a
 * half-close) over a real server and a raw TCP client: a 400 problem
 * document, nothing stored, and nothing printed; and a failure of the
 * server's own reaches the application's log, never the console.
 */
import { strict as assert } from "node:assert";
import { type App, createApp } from "../../src/app/create_app.ts";
import { type Log, logLine } from "../../src/app/log.ts";
import { startHttp } from "../../src/server/http.ts";
import { testSession } from "../_stored_laps.ts";

/** Every entry of the store: key, value and versionstamp. */
async function snapshot(kv: Deno.Kv): Promise<[Deno.KvKey, unknown, string][]> {
  const out: [Deno.KvKey, unknown, string][] = [];
  for await (const e of kv.list({ prefix: [] })) out.push([e.key, e.value, e.versionstamp]);
  return out;
}

/** The console's writers, replaced while `fn` runs; returns what they were given. */
async function printedBy(fn: () => Promise<void>): Promise<unknown[][]> {
  const printed: unknown[][] = [];
  const saved = { error: console.error, warn: console.warn, log: console.log };
  const keep = (...args: unknown[]) => void printed.push(args);
  console.error = console.warn = console.log = keep;
  try {
    await fn();
  } finally {
    Object.assign(console, saved);
  }
  return printed;
}

/** Runs `fn` with a server over an application whose log keeps its lines in `reports`. */
async function withServer(
  fn: (port: number, app: App, reports: string[]) => Promise<void>,
): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  const reports: string[] = [];
  const log: Log = {
    warn: (message, err) => void reports.push(logLine(message, err)),
    error: (message, err) => void reports.push(logLine(message, err)),
  };
  const app = await createApp({ kv, log });
  const server = startHttp(app, { hostname: "127.0.0.1", port: 0 });
  try {
    await fn(server.port, app, reports);
  } finally {
    await server.close();
    kv.close();
  }
}

/** Sends `head` and `body` over a fresh connection, half-closes it, and reads the answer whole. */
async function rawExchange(port: number, head: string, body: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(new TextEncoder().encode(head + body));
    await conn.closeWrite();
    const decoder = new TextDecoder();
    const buffer = new Uint8Array(16 * 1024);
    let text = "";
    for (;;) {
      const n = await conn.read(buffer);
      if (n === null) break;
      text += decoder.decode(buffer.subarray(0, n), { stream: true });
    }
    return text + decoder.decode();
  } finally {
    conn.close();
  }
}

const CUT = '{"name":"ab"'; // 12 bytes of an announced 1000.

for (
  const [method, path] of [
    ["PATCH", "/api/sessions/1"],
    ["POST", "/api/track-bundles/import"],
    ["POST", "/api/laps/import"],
  ] as const
) {
  Deno.test(`${method} ${path}: a body cut off at 12 of 1000 bytes is a 400, stores nothing, prints nothing`, async () => {
    await withServer(async (port, app, reports) => {
      const session = await testSession(app.kv, "Old Name", 1);
      assert.equal(session.id, 1);
      const before = await snapshot(app.kv);
      let answer = "";
      const printed = await printedBy(async () => {
        answer = await rawExchange(
          port,
          `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
            "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
          CUT,
        );
      });
      const [head, body] = answer.split("\r\n\r\n");
      assert.match(head, /^HTTP\/1\.1 400 Bad Request\r\n/);
      assert.match(head, /\r\ncontent-type: application\/problem\+json\r\n/i);
      assert.match(head, /\r\nconnection: close\r\n/i);
      const rule = "ended before all 1000 bytes arrived: the client stopped sending it";
      assert.deepEqual(JSON.parse(body), {
        type: "https://sim-datalogger.dev/problems/bad-request",
        title: "Bad request",
        status: 400,
        detail: `request body ${rule}; nothing was changed`,
        errors: [{ path: "body", message: rule }],
      });
      assert.deepEqual(await snapshot(app.kv), before);
      assert.deepEqual(printed, []);
      assert.deepEqual(reports, []);
    });
  });
}

Deno.test("a request that fails inside the server is reported to the app's log, not the console", async () => {
  await withServer(async (port, app, reports) => {
    app.sessions.listing = () =>
      Promise.reject(new TypeError("the store fell over\n  at somewhere"));
    let status = 0;
    let problem: unknown = null;
    const printed = await printedBy(async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/sessions`);
      status = res.status;
      problem = await res.json();
    });
    assert.equal(status, 500);
    assert.deepEqual(problem, {
      type: "about:blank",
      title: "Internal Server Error",
      status: 500,
      detail: "the server failed to handle the request; see its log",
    });
    assert.deepEqual(printed, []);
    assert.deepEqual(reports, ["request failed: TypeError: the store fell over"]);
  });
});
