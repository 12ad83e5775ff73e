/**
 * The race engineer on one hub process over PGlite (#40): tokens (401, 403,
 * `?token=`), a fake logger's frames reaching an engineer's stream, the
 * rate and size rules, messages to the driver's socket (and after a
 * reconnect, from its last id), and GET /api/live.
 */
import { deepStrictEqual as assertEquals, match as assertMatch } from "node:assert/strict";
import { silentLog } from "../../../src/app/log.ts";
import { MAX_FRAME_BYTES } from "../../../src/app/hub/live_rules.ts";
import { startHubHttp } from "../../../src/server/hub/hub_http.ts";
import { ADMIN_TOKEN, freshPglite, testHub } from "../../_hub.ts";
import type { SqlPort } from "../../../src/storage/hub/sql_port.ts";
import { fakeFrame, fakeLogger, readFrames, until } from "../../_engineer.ts";

let shared: SqlPort | undefined;

async function liveHub() {
  const db = shared ??= await freshPglite();
  const hub = await testHub(db, new Date());
  const server = startHubHttp(hub.app, { hostname: "127.0.0.1", port: 0, log: silentLog });
  const alice = await hub.driver("alice");
  const bob = await hub.driver("bob");
  return {
    ...hub,
    url: server.url,
    alice,
    bob,
    async close() {
      await server.close();
    },
  };
}

Deno.test("engineer routes: 401 without a token, 403 for the admin's socket, ?token= for the stream", async () => {
  const h = await liveHub();
  try {
    assertEquals((await h.call("GET", "/api/live")).status, 401);
    assertEquals(
      (await h.call("POST", "/api/messages", { body: { driver: "alice", text: "box" } })).status,
      401,
    );
    const noToken = await readFrames(`${h.url}/api/live/alice`);
    assertEquals(noToken.status, 401);
    const badToken = await readFrames(`${h.url}/api/live/alice?token=nope-nope-nope-nope`);
    assertEquals(badToken.status, 401);
    const res = await fetch(`${h.url}/api/live/socket`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, upgrade: "websocket" },
    });
    assertEquals(res.status, 403);
    assertMatch((await res.json()).detail, /driver's token/);
    const unknown = await readFrames(`${h.url}/api/live/carol?token=${h.bob}`);
    assertEquals(unknown.status, 404);
    const ok = await readFrames(`${h.url}/api/live/alice?token=${h.bob}`);
    assertEquals(ok.status, 200);
    await ok.close();
  } finally {
    await h.close();
  }
});

Deno.test("a logger's frames reach an engineer's stream; more than 10 a second and oversized ones are dropped", async () => {
  const h = await liveHub();
  try {
    const engineer = await readFrames(`${h.url}/api/live/alice`, h.bob);
    const logger = await fakeLogger(h.url, h.alice);
    logger.send({
      type: "hello",
      last_message_id: null,
      circuit: "suzuka",
      track_name: "Suzuka Circuit",
      car_id: 3294,
    });
    for (let i = 0; i < 15; i++) logger.send({ type: "frame", frame: fakeFrame(100 + i) });
    await until(() => logger.received.some((m) => m.type === "error"), "the rate refusal");
    assertEquals(logger.received[0], {
      type: "error",
      field: "frame",
      message: "frame more than 10 frames a second: dropped",
    });
    const big = fakeFrame(999);
    big.padding = "x".repeat(MAX_FRAME_BYTES);
    logger.send({ type: "frame", frame: big });
    await until(() => logger.received.length === 2, "the size refusal");
    assertMatch(String(logger.received[1].message), /^message is \d+ bytes, at most 32768$/);
    // How many more than 10 pass depends on how long the burst took to arrive (the bucket refills):
    // the exact count is live_link_test.ts's, on a fake clock.
    await until(() => engineer.frames.length >= 10, "ten frames");
    const first = engineer.frames[0].data;
    assertEquals(first.driver, "alice");
    assertEquals((first.frame as Record<string, unknown>).packet_id, 100);
    assertEquals(
      engineer.frames.slice(0, 10).map((f) => (f.data.frame as { packet_id: number }).packet_id),
      [
        100,
        101,
        102,
        103,
        104,
        105,
        106,
        107,
        108,
        109,
      ],
    );
    const list = await h.call("GET", "/api/live", { token: h.bob });
    assertEquals(list.status, 200);
    const [row] = list.body.drivers as Record<string, unknown>[];
    assertEquals({ ...row, last_frame_at: "" }, {
      driver: "alice",
      circuit: "suzuka",
      track_name: "Suzuka Circuit",
      car_id: 3294,
      lap: 2,
      last_frame_at: "",
    });
    await logger.close();
    await engineer.close();
  } finally {
    await h.close();
  }
});

Deno.test("a message reaches the driver's socket at once, and after a reconnect from its last id", async () => {
  const h = await liveHub();
  try {
    const bad = await h.call("POST", "/api/messages", {
      token: h.bob,
      body: { driver: "alice", text: "a".repeat(141) },
    });
    assertEquals(bad.status, 400);
    assertEquals(bad.body.detail, "text is too long: 141 characters, at most 140");
    const control = await h.call("POST", "/api/messages", {
      token: h.bob,
      body: { driver: "alice", text: "box\nnow" },
    });
    assertEquals(
      control.body.detail,
      "text holds a control character, U+000A, at character 4: none is allowed",
    );
    const nobody = await h.call("POST", "/api/messages", {
      token: h.bob,
      body: { driver: "carol", text: "box" },
    });
    assertEquals(nobody.status, 404);
    const early = await h.call("POST", "/api/messages", {
      token: h.bob,
      body: { driver: "alice", text: "push now" },
    });
    assertEquals(early.status, 201);
    assertEquals({ ...early.body, sent_at: "" }, {
      id: 1,
      driver: "alice",
      text: "push now",
      from: "bob",
      sent_at: "",
    });

    const logger = await fakeLogger(h.url, h.alice);
    logger.send({ type: "hello", last_message_id: null });
    await until(() => logger.received.length === 1, "the backlog");
    assertEquals(logger.received[0].text, "push now");
    const box = await h.call("POST", "/api/messages", {
      token: ADMIN_TOKEN,
      body: { driver: "alice", text: " box this lap " },
    });
    await until(() => logger.received.length === 2, "the new message");
    assertEquals(logger.received[1], {
      type: "message",
      id: 2,
      text: "box this lap",
      from: "admin",
      sent_at: box.body.sent_at,
    });
    await logger.close();
    await h.call("POST", "/api/messages", {
      token: h.bob,
      body: { driver: "alice", text: "fuel +3" },
    });
    const again = await fakeLogger(h.url, h.alice);
    again.send({ type: "hello", last_message_id: 2 });
    await until(() => again.received.length === 1, "the message sent while away");
    assertEquals(again.received.map((m) => [m.id, m.text]), [[3, "fuel +3"]]);
    await again.close();
  } finally {
    await h.close();
  }
});

Deno.test("the engineer's pages are served open, their data asked with the token", async () => {
  const h = await liveHub();
  try {
    const page = await fetch(`${h.url}/live/alice`);
    assertEquals(page.headers.get("content-type"), "text/html; charset=utf-8");
    assertMatch(await page.text(), /<script type="module" src="\/engineer.js">/);
    const list = await fetch(`${h.url}/live`);
    assertMatch(await list.text(), /live_drivers.js/);
    for (
      const file of ["/engineer.js", "/live_sectors.js", "/cues.js", "/hub_token.js", "/live.css"]
    ) {
      const res = await fetch(`${h.url}${file}`);
      await res.body?.cancel();
      assertEquals([file, res.status], [file, 200]);
    }
    const doc = (await h.call("GET", "/openapi.json")).body as { paths: Record<string, unknown> };
    for (
      const path of [
        "/api/live",
        "/api/live/socket",
        "/api/live/{driver}",
        "/api/messages",
        "/live/{driver}",
      ]
    ) {
      assertEquals([path, path in doc.paths], [path, true]);
    }
  } finally {
    await h.close();
  }
});

Deno.test("closing the test database", async () => {
  await shared?.close();
});
