import { strict as assert } from "node:assert";
import { SseClients } from "../../src/server/sse_clients.ts";

const message = new TextEncoder().encode("event: x\ndata: 1\n\n");

Deno.test("a client dropped while its stream is set up releases its feed and its watch, and leaves no timer", async () => {
  const clients = new SseClients();
  let detached = 0;
  let unwatched = 0;
  // The feed replays more than the limit at once: the client is dropped inside attach.
  const overflowing = clients.open({
    limit: 2,
    heartbeatMs: 60_000,
    name: "test stream",
    attach(send) {
      for (let i = 0; i < 5; i++) send(message);
      return () => detached++;
    },
    watch: () => () => unwatched++,
  });
  await assert.rejects(overflowing.getReader().read(), /fell 2 messages behind/);
  assert.equal(detached, 1);
  assert.equal(unwatched, 0);
  // The watch reports at once: the client is dropped inside watch.
  const watched = clients.open({
    limit: 10,
    heartbeatMs: 60_000,
    name: "test stream",
    attach: () => () => detached++,
    watch(drop) {
      drop("its socket is gone");
      return () => unwatched++;
    },
  });
  await assert.rejects(watched.getReader().read(), /its socket is gone/);
  assert.equal(detached, 2);
  assert.equal(unwatched, 1);
  assert.deepEqual(clients.stats(), { clients: 0, dropped: 2 });
  // Deno's test sanitizer fails this test if either stream left its heartbeat interval running.
});
