/**
 * `--share-live` through HTTP (issue #40): a message the hub sends comes
 * out in `GET /api/live`'s frames, and `GET /api/status` shows the live link.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { syntheticFrames } from "../../src/core/synthetic/drive.ts";
import { startFakeLiveHub } from "../_fake_live_hub.ts";
import { withServer } from "./_server.ts";
import { SseReader } from "./_sse.ts";

Deno.test("a hub message is in GET /api/live's frames; GET /api/status has hub.live", async () => {
  const hub = startFakeLiveHub();
  try {
    await withServer(async (url, app) => {
      const posted = hub.post("Box this lap");
      const { promise, resolve } = Promise.withResolvers<void>();
      app.hub!.messages.onMessage(() => resolve());
      await promise;
      const stream = new SseReader(await fetch(`${url}/api/live?hz=60`));
      const frames = syntheticFrames({ seed: 7, laps: 1 });
      for (let i = 0; i < 30; i++) app.live.ingest(frames.next().value!);
      const m = await stream.waitFor((m) => m.event === "frame");
      assert.deepEqual(JSON.parse(m.data).message, posted);
      await stream.cancel();
      const status = await (await fetch(`${url}/api/status`)).json();
      assert.equal(status.hub.live.connected, true);
      assert.deepEqual(Object.keys(status.hub.live).sort(), [
        "connected",
        "frames_dropped",
        "frames_sent",
      ]);
    }, { hub: { settings: { url: hub.url, token: hub.token, shareLive: true } } });
  } finally {
    await hub.close();
  }
});
