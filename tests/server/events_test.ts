import { strict as assert } from "node:assert";
import { Hono } from "hono";
import { type App, createApp } from "../../src/app/context.ts";
import type { AppEvent } from "../../src/app/events.ts";
import type { Session } from "../../src/core/laps/session.ts";
import { startHttp } from "../../src/server/http.ts";
import {
  closeEventStreams,
  eventRoutes,
  eventStreamStats,
  sseMessage,
} from "../../src/server/routes/events.ts";
import { SseReader } from "./_sse.ts";

const SESSION: Session = {
  id: 4,
  kind: "live",
  started_at: "2026-11-21T12:00:00.000Z",
  updated_at: "2026-11-21T12:00:00.000Z",
  car_id: 3450,
  car_name: "Test car",
  track_name: "Ring",
  track_source: "bundle",
  lap_count: 1,
  best_lap_time_ms: 90_000,
};

async function withEvents(
  opts: { queueLimit?: number; heartbeatMs?: number },
  fn: (url: string, app: App) => Promise<void>,
): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv });
  const http = new Hono().route("/api", eventRoutes(app, opts));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, http.fetch);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, app);
  } finally {
    closeEventStreams(app);
    await server.shutdown();
    kv.close();
  }
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
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
  await withEvents({}, async (url, app) => {
    const res = await fetch(`${url}/api/events`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
    const reader = new SseReader(res);
    await until(() => eventStreamStats(app).clients === 1);
    const sent: AppEvent[] = [
      { type: "session", session: SESSION, reason: "identified" },
      { type: "bundle", slug: "ring", track: "Ring", reason: "import" },
      { type: "session", session: null, reason: "telemetry" },
    ];
    for (const e of sent) app.bus.emit(e);
    await until(() => reader.messages.filter((m) => m.event !== "comment").length === 3);
    const got = reader.messages.filter((m) => m.event !== "comment");
    assert.deepEqual(got.map((m) => m.event), ["session", "bundle", "session"]);
    assert.deepEqual(got.map((m) => JSON.parse(m.data)), sent);
    assert.equal(reader.messages[0].event, "comment");
    await reader.cancel();
    await until(() => eventStreamStats(app).clients === 0);
  });
});

Deno.test("an idle stream gets heartbeat comments", async () => {
  await withEvents({ heartbeatMs: 30 }, async (url) => {
    const res = await fetch(`${url}/api/events`);
    const reader = new SseReader(res);
    await until(() => reader.messages.filter((m) => m.event === "comment").length >= 3);
    await reader.cancel();
  });
});

Deno.test("a slow client is dropped without blocking the bus; the others lose nothing", async () => {
  await withEvents({ queueLimit: 16 }, async (url, app) => {
    // A client that connects and never reads.
    const slow = await Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(url).port) });
    await slow.write(new TextEncoder().encode("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n"));
    const fastRes = await fetch(`${url}/api/events`);
    const fast = new SseReader(fastRes);
    // The server's shutdown waits for every connection: a failed assertion must
    // still let both clients go, or the test hangs instead of failing.
    try {
      await until(() => eventStreamStats(app).clients === 2);
      const big = "x".repeat(64 * 1024);
      const count = 400;
      let slowest = 0;
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        app.bus.emit({
          type: "session",
          session: { ...SESSION, id: i, car_name: big },
          reason: "test",
        });
        slowest = Math.max(slowest, performance.now() - started);
        // Events come one at a time, as they do in use; the fast client keeps up between them.
        await new Promise((r) => setTimeout(r, 1));
      }
      await until(
        () => fast.messages.filter((m) => m.event === "session").length === count,
        20_000,
      );
      const ids = fast.messages.filter((m) => m.event === "session").map((m) =>
        JSON.parse(m.data).session.id
      );
      assert.deepEqual(ids, Array.from({ length: count }, (_, i) => i));
      assert.deepEqual(eventStreamStats(app), { clients: 1, dropped: 1 });
      // Emitting never waited for a socket: each call is a queue append. A wait for the slow
      // client would last until its drop; the bound only allows for a busy machine.
      assert.ok(slowest < 250, `slowest emit ${slowest.toFixed(1)} ms`);
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
    await until(() => eventStreamStats(app).clients === 1);
    app.bus.emit({ type: "bundle", slug: "ring", track: "Ring", reason: "survey" });
    await reader.waitFor((m) => m.event === "bundle");
    const started = performance.now();
    await server.close();
    await reader.done;
    assert.ok(performance.now() - started < 2000);
    assert.equal(eventStreamStats(app).clients, 0);
  } finally {
    kv.close();
  }
});
