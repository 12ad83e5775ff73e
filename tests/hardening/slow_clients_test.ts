/**
 * Slow and broken HTTP clients cannot hold the server: a body cut off, a body
 * trickled a byte a second, and 200 connections that never send a request
 * are each answered (a 408 problem document) or closed within the deadline
 * docs/api.md documents, while other clients are answered meanwhile. The
 * deadlines are set short here so the test runs in seconds; their default
 * values are checked as well.
 */
import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { consoleLog } from "../../src/server/console_log.ts";
import { type HttpServer, startHttp } from "../../src/server/http.ts";
import { DEFAULT_BODY_TIMEOUT_MS } from "../../src/server/body.ts";
import { DEFAULT_IDLE_TIMEOUT_MS, MAX_SWEEP_MS } from "../../src/server/idle_connections.ts";

/** Long enough for bytes to trickle in: each arrives well within it, yet the body is cut. */
const BODY_MS = 3500;
const IDLE_MS = 1500;
/** What a loaded 2-core machine may add to a deadline before the answer or the close is seen. */
const SLACK_MS = 2000;
const IDLE_CONNECTIONS = 200;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What came back on `conn` until the server closed it, and when (ms after `since`). */
interface Ending {
  text: string;
  closedAfterMs: number;
}

/** Reads `conn` until the server closes it (or it fails with a reset), or `capMs` pass. */
async function readToEnd(conn: Deno.Conn, since: number, capMs: number): Promise<Ending | null> {
  const buf = new Uint8Array(8192);
  let text = "";
  const cap = setTimeout(() => conn.close(), capMs);
  try {
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += decoder.decode(buf.subarray(0, n));
    }
  } catch (err) {
    if (err instanceof Deno.errors.BadResource || err instanceof Deno.errors.Interrupted) {
      return null; // closed here at the cap: the server never closed it
    }
    if (!(err instanceof Deno.errors.ConnectionReset)) throw err;
  } finally {
    clearTimeout(cap);
  }
  const closedAfterMs = performance.now() - since;
  try {
    conn.close();
  } catch {
    // already closed
  }
  return { text, closedAfterMs };
}

/** The status line and JSON body of an HTTP/1.1 answer in `text`. */
function answer(text: string): { status: number; type: string; body: Record<string, unknown> } {
  const [head, body] = text.split("\r\n\r\n", 2);
  const status = Number(head.split(" ")[1]);
  const type = /^content-type: (.*)$/im.exec(head)?.[1].trim() ?? "";
  return { status, type, body: JSON.parse(body) };
}

async function withSlowServer(fn: (server: HttpServer) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv, log: consoleLog });
  const server = startHttp(app, {
    hostname: "127.0.0.1",
    port: 0,
    bodyTimeoutMs: BODY_MS,
    idleTimeoutMs: IDLE_MS,
  });
  try {
    await fn(server);
  } finally {
    await server.close();
    kv.close();
  }
}

/** Asks GET /api/health every 50 ms until `done` settles; answers the statuses and the slowest. */
async function otherClient(
  url: string,
  done: Promise<unknown>,
): Promise<{ statuses: number[]; slowest: number }> {
  let finished = false;
  done.finally(() => finished = true).catch(() => {});
  const statuses: number[] = [];
  let slowest = 0;
  while (!finished) {
    const t = performance.now();
    const res = await fetch(`${url}/api/health`);
    await res.body?.cancel();
    statuses.push(res.status);
    slowest = Math.max(slowest, performance.now() - t);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { statuses, slowest };
}

Deno.test("the deadlines' defaults are 30 s each, and a server without options uses them", async () => {
  assert.equal(DEFAULT_BODY_TIMEOUT_MS, 30_000);
  assert.equal(DEFAULT_IDLE_TIMEOUT_MS, 30_000);
  assert.equal(MAX_SWEEP_MS, 1000);
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv, log: consoleLog });
  const server = startHttp(app, { hostname: "127.0.0.1", port: 0 });
  try {
    assert.equal(server.limits.bodyTimeoutMs, 30_000);
    assert.equal(server.limits.idle.idleTimeoutMs, 30_000);
    assert.equal(server.limits.idle.note, null, "idle connections are limited here");
  } finally {
    await server.close();
    kv.close();
  }
});

Deno.test({
  name: "a cut-off body, a trickled body and 200 idle connections are answered or closed in time",
  async fn() {
    await withSlowServer(async (server) => {
      const { port } = server;
      const connect = () => Deno.connect({ hostname: "127.0.0.1", port });

      // A body announced as 1000 bytes, 10 sent.
      const cut = await connect();
      const cutAt = performance.now();
      await cut.write(encoder.encode(
        "POST /api/laps/import HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
          'Content-Length: 1000\r\n\r\n{"format":',
      ));
      const cutEnd = readToEnd(cut, cutAt, BODY_MS + SLACK_MS + 5000);

      // A body trickled one byte a second, for longer than the deadline.
      const trickle = await connect();
      const trickleAt = performance.now();
      await trickle.write(encoder.encode(
        "POST /api/laps/import HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n",
      ));
      let trickling = true;
      let trickled = 0;
      const dripping = (async () => {
        while (trickling && trickled < 100) {
          await new Promise((r) => setTimeout(r, 1000));
          if (!trickling) break;
          try {
            await trickle.write(encoder.encode(" "));
            trickled++;
          } catch {
            break; // the server closed it
          }
        }
      })();
      const trickleEnd = readToEnd(trickle, trickleAt, BODY_MS + SLACK_MS + 5000).finally(() => {
        trickling = false;
      });

      // A body cut off on a route that reads none: answered at once, then closed as idle.
      const unread = await connect();
      const unreadAt = performance.now();
      await unread.write(encoder.encode(
        "GET /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{}",
      ));
      const unreadEnd = readToEnd(unread, unreadAt, IDLE_MS + MAX_SWEEP_MS + SLACK_MS + 5000);

      // 200 connections that never send a request.
      const idleAt = performance.now();
      const idle = await Promise.all(Array.from({ length: IDLE_CONNECTIONS }, connect));
      const idleEnds = Promise.all(
        idle.map((c) => readToEnd(c, idleAt, IDLE_MS + MAX_SWEEP_MS + SLACK_MS + 5000)),
      );

      const all = Promise.all([cutEnd, trickleEnd, idleEnds, unreadEnd, dripping]);
      const others = await otherClient(server.url, all);
      const [cutResult, trickleResult, idleResults, unreadResult] = await all;

      for (
        const [name, ending] of [["cut-off body", cutResult], [
          "trickled body",
          trickleResult,
        ]] as const
      ) {
        assert.ok(ending, `${name}: still open`);
        const res = answer(ending.text);
        assert.equal(res.status, 408, name);
        assert.equal(res.type, "application/problem+json", name);
        assert.equal(res.body.title, "Request timeout", name);
        assert.match(String(res.body.detail), /^request body not complete after \d+\.\d s: /, name);
        assert.ok(ending.closedAfterMs >= BODY_MS, `${name}: closed after ${ending.closedAfterMs}`);
        assert.ok(ending.closedAfterMs < BODY_MS + SLACK_MS, `${name}: ${ending.closedAfterMs} ms`);
      }
      assert.match(String(answer(cutResult!.text).body.detail), / 10 of 1000 bytes received$/);
      // A second's allowance per 64 KiB: a byte a second earns nothing worth counting.
      assert.ok(trickled >= 2 && trickled <= Math.ceil((BODY_MS + SLACK_MS) / 1000), `${trickled}`);

      assert.ok(unreadResult, "the connection of the unread body is still open");
      assert.equal(answer(unreadResult.text).status, 200);
      assert.ok(unreadResult.closedAfterMs >= IDLE_MS, `${unreadResult.closedAfterMs} ms`);
      assert.ok(unreadResult.closedAfterMs < IDLE_MS + MAX_SWEEP_MS + SLACK_MS);

      const closedAfter = idleResults.map((e, i) => {
        assert.ok(e, `idle connection ${i} still open`);
        assert.equal(e.text, "", "an idle connection is closed without an answer");
        return e.closedAfterMs;
      });
      assert.equal(closedAfter.length, IDLE_CONNECTIONS);
      assert.ok(Math.min(...closedAfter) >= IDLE_MS, `${Math.min(...closedAfter)} ms`);
      const latest = Math.max(...closedAfter);
      assert.ok(latest < IDLE_MS + MAX_SWEEP_MS + SLACK_MS, `${latest} ms`);
      assert.ok(server.limits.idle.closed >= IDLE_CONNECTIONS + 3);

      // Meanwhile other clients were answered, none waiting for a deadline.
      assert.ok(others.statuses.length >= 10, `${others.statuses.length} answers`);
      assert.deepEqual(new Set(others.statuses), new Set([200]));
      assert.ok(others.slowest < BODY_MS, `slowest other answer ${others.slowest} ms`);
    });
  },
});
