/**
 * The race engineer across two real `hub` processes on one real
 * PostgreSQL (#40): a fake logger's frames sent to process A reach an
 * engineer's stream on process B (LISTEN/NOTIFY), a message posted on B
 * reaches the logger's socket on A, and after a reconnect to B the
 * messages sent meanwhile; B lists the driver as A wrote it. Skipped, with
 * a message, where no PostgreSQL can be started.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { noPostgres, startPostgres } from "../../_postgres.ts";
import {
  addDriver,
  fakeFrame,
  fakeLogger,
  readFrames,
  startHubProcess,
  until,
} from "../../_engineer.ts";

const ADMIN = "admin-token-for-engineer-tests-0123";

Deno.test({
  name:
    "two hub processes on one PostgreSQL: frames from A stream on B, a message from B reaches A's socket",
  ignore: noPostgres(),
  async fn() {
    const pg = await startPostgres();
    const a = await startHubProcess(pg.url, ADMIN);
    const b = await startHubProcess(pg.url, ADMIN);
    try {
      const alice = await addDriver(a.url, ADMIN, "alice");
      const bob = await addDriver(b.url, ADMIN, "bob");
      const engineer = await readFrames(`${b.url}/api/live/alice?token=${bob}`);
      assertEquals(engineer.status, 200);
      const logger = await fakeLogger(a.url, alice);
      logger.send({ type: "hello", last_message_id: null, circuit: "suzuka", car_id: 3294 });
      for (let i = 0; i < 5; i++) logger.send({ type: "frame", frame: fakeFrame(500 + i) });
      await until(() => engineer.frames.length === 5, "five frames on B");
      assertEquals(
        engineer.frames.map((f) => (f.data.frame as { packet_id: number }).packet_id),
        [500, 501, 502, 503, 504],
      );
      // A frame bigger than a NOTIFY goes by its row.
      const big = fakeFrame(600);
      big.padding = "x".repeat(9000);
      logger.send({ type: "frame", frame: big });
      await until(() => engineer.frames.length === 6, "the big frame on B");
      assertEquals((engineer.frames[5].data.frame as { padding: string }).padding.length, 9000);

      const listed = await (await fetch(`${b.url}/api/live`, {
        headers: { authorization: `Bearer ${bob}` },
      })).json();
      assertEquals(
        listed.drivers.map((d: { driver: string; circuit: string }) => [d.driver, d.circuit]),
        [[
          "alice",
          "suzuka",
        ]],
      );

      const post = (text: string) =>
        fetch(`${b.url}/api/messages`, {
          method: "POST",
          headers: { authorization: `Bearer ${bob}`, "content-type": "application/json" },
          body: JSON.stringify({ driver: "alice", text }),
        }).then((r) => r.json());
      const sent = await post("box this lap");
      await until(
        () => logger.received.some((m) => m.type === "message"),
        "the message on A's socket",
      );
      assertEquals(logger.received.filter((m) => m.type === "message").map((m) => [m.id, m.text]), [
        [
          sent.id,
          "box this lap",
        ],
      ]);
      await logger.close();
      const later = await post("fuel plus three");
      const again = await fakeLogger(b.url, alice);
      again.send({ type: "hello", last_message_id: sent.id });
      await until(() => again.received.length === 1, "the message sent while away");
      assertEquals(again.received.map((m) => [m.id, m.text]), [[later.id, "fuel plus three"]]);
      await again.close();
      await engineer.close();
    } finally {
      await a.stop();
      await b.stop();
      await pg.stop();
    }
  },
});
