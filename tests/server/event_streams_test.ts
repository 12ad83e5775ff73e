/**
 * The event streams belong to the HTTP app that serves them: two servers
 * over one application count and close their own clients only.
 */
import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { startHttp } from "../../src/server/http.ts";
import { HANG_MS, SseReader } from "./_sse.ts";

/** Waits until `cond` holds; the bound only turns a hang into a failure. */
async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + HANG_MS;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error(`${what}: never happened`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

Deno.test("each HTTP server holds its own event streams", async () => {
  const kv = await Deno.openKv(":memory:");
  const app = await createApp({ kv });
  const one = startHttp(app, { hostname: "127.0.0.1", port: 0 });
  const two = startHttp(app, { hostname: "127.0.0.1", port: 0 });
  try {
    const reader = new SseReader(await fetch(`${one.url}/api/events`));
    await until(() => one.events.stats().clients === 1, "the client registered");
    assert.deepEqual(two.events.stats(), { clients: 0, dropped: 0 });
    app.bus.emit({ type: "bundle", slug: "ring", track: "Ring", reason: "survey" });
    await reader.waitFor((m) => m.event === "bundle");
    await one.close();
    await reader.done;
    assert.deepEqual(one.events.stats(), { clients: 0, dropped: 0 });
  } finally {
    await two.close();
    kv.close();
  }
});
