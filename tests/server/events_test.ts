import { strict as assert } from "node:assert";
import { Hono } from "hono";
import { type App, createApp } from "../../src/app/create_app.ts";
import type { AppEvent } from "../../src/app/events.ts";
import { stubSession } from "../_sessions.ts";
import { startHttp } from "../../src/server/http.ts";
import { eventRoutes, EventStreams, sseMessage } from "../../src/server/routes/events.ts";
import { HANG_MS, SseReader } from "./_sse.ts";

const SESSION = stubSession({ track_name: "Ring" });

async function withEvents(
  opts: { queueLimit?: number; heartbeatMs?: number },
  fn: (url: string, app: App, streams: EventStreams) => Promise<void>,
): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv });
  const streams = new EventStreams(app.bus, opts);
  const http = new Hono().route("/", eventRoutes(streams));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, http.fetch);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, app, streams);
  } finally {
    streams.closeAll();
    await server.shutdown();
    kv.close();
  }
}

/** Waits until `cond` holds; the bound only turns a hang into a failure. */
async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + HANG_MS;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error(`${what}: never happened`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Resolves with `p`, or fails once `ms` have passed: a hang guard, not a latency bound. */
async function settles<T>(p: Promise<T>, what: string, ms = HANG_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, hang]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("an event is one SSE message: its type as the event name, the event as JSON", () => {
  const event: AppEvent = { type: "bundle", slug: "ring", track: "Ring", reason: "import" };
  assert.equal(
    sseMessage(event),
    'event: bundle\ndata: {"type":"bundle","slug":"ring","track":"Ring","reason":"import"}\n\n',
  );
});

Deno.test("a client receives every bus event in order, each type under its own name", async () => {
  await withEvents({}, async (url, app, streams) => {
    const res = await fetch(`${url}/api/events`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
    const reader = new SseReader(res);
    await until(() => streams.stats().clients === 1, "the client registered");
    const sent: AppEvent[] = [
      { type: "session", session: SESSION, reason: "identified" },
      { type: "bundle", slug: "ring", track: "Ring", reason: "import" },
      { type: "session", session: null, reason: "telemetry" },
    ];
    for (const e of sent) app.bus.emit(e);
    await reader.waitFor((m) => m.event === "session" && JSON.parse(m.data).session === null);
    const got = reader.messages.filter((m) => m.event !== "comment");
    assert.deepEqual(got.map((m) => m.event), ["session", "bundle", "session"]);
    assert.deepEqual(got.map((m) => JSON.parse(m.data)), sent);
    assert.equal(reader.messages[0].event, "comment");
    await reader.cancel();
    await until(() => streams.stats().clients === 0, "the client went away");
  });
});

Deno.test("an idle stream gets heartbeat comments", async () => {
  await withEvents({ heartbeatMs: 30 }, async (url) => {
    const res = await fetch(`${url}/api/events`);
    const reader = new SseReader(res);
    await until(
      () => reader.messages.filter((m) => m.event === "comment").length >= 3,
      "three comments arrived",
    );
    await reader.cancel();
  });
});

Deno.test("a slow client is dropped without blocking the bus; the others lose nothing", async () => {
  await withEvents({ queueLimit: 16 }, async (url, app, streams) => {
    // A client that connects and never reads.
    const slow = await Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(url).port) });
    await slow.write(new TextEncoder().encode("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n"));
    const fastRes = await fetch(`${url}/api/events`);
    const fast = new SseReader(fastRes);
    // The server's shutdown waits for every connection: a failed assertion must
    // still let both clients go, or the test hangs instead of failing.
    try {
      await until(() => streams.stats().clients === 2, "both clients registered");
      // 400 events of 64 KiB: 25 MiB, far more than the socket buffers between the server
      // and a client that never reads can take (a few MiB), so its queue must overflow.
      const big = "x".repeat(64 * 1024);
      const count = 400;
      for (let i = 0; i < count; i++) {
        // emit returns once every client's queue has the message: it cannot wait for a socket.
        const returned: unknown = app.bus.emit({
          type: "session",
          session: { ...SESSION, id: i, car_name: big },
          reason: "test",
        });
        assert.equal(returned, undefined);
        // Events come one at a time, as they do in use, each once the fast client read the one
        // before: however slowly this machine runs, it is never the one falling behind.
        await fast.waitFor((m) => m.event === "session" && JSON.parse(m.data).session.id === i);
      }
      const ids = fast.messages.filter((m) => m.event === "session").map((m) =>
        JSON.parse(m.data).session.id
      );
      assert.deepEqual(ids, Array.from({ length: count }, (_, i) => i));
      assert.deepEqual(streams.stats(), { clients: 1, dropped: 1 });
    } finally {
      slow.close();
      await fast.cancel().catch(() => {});
    }
  });
});

Deno.test("closing the server ends open streams instead of waiting for them", async () => {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv });
  const server = startHttp(app, { hostname: "127.0.0.1", port: 0 });
  try {
    const res = await fetch(`${server.url}/api/events`);
    const reader = new SseReader(res);
    await until(() => server.events.stats().clients === 1, "the client registered");
    app.bus.emit({ type: "bundle", slug: "ring", track: "Ring", reason: "survey" });
    await reader.waitFor((m) => m.event === "bundle");
    // The client keeps reading and never leaves: a close that waited for it would never end.
    await settles(server.close(), "closing the server with a stream open");
    await settles(reader.done, "the stream's end reaching the client");
    assert.equal(server.events.stats().clients, 0);
  } finally {
    kv.close();
  }
});
