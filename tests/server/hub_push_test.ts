/**
 * POST /api/hub/push and the `hub` field of GET /api/status (issue #38),
 * against a fake hub on a real port (tests/_fake_hub.ts).
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { listOutbox } from "../../src/storage/hub_outbox.ts";
import { startFakeHub } from "../_fake_hub.ts";
import { fakeTimers } from "../_fake_timers.ts";
import { minimalLapFile } from "../_lap_files.ts";
import { withServer } from "./_server.ts";

const post = (url: string, body: unknown) =>
  fetch(`${url}/api/hub/push`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

Deno.test("without a hub: status says null and a push is a 409 saying how to set one", async () => {
  await withServer(async (url) => {
    assert.equal((await (await fetch(`${url}/api/status`)).json()).hub, null);
    const res = await post(url, { laps: [1] });
    assert.equal(res.status, 409);
    assert.equal(
      (await res.json()).detail,
      "no team hub is configured: start the logger with --hub URL --hub-token TOKEN " +
        "(or SIM_DATALOGGER_HUB and SIM_DATALOGGER_HUB_TOKEN)",
    );
  });
});

Deno.test("a push of an imported lap answers 202 and the lap reaches the hub; unknown or bad ids are named", async () => {
  const hub = startFakeHub();
  const clock = fakeTimers();
  try {
    await withServer(async (url, app) => {
      const imported = await app.laps.importFile(minimalLapFile(30, { track_name: "Monza" }));
      const id = imported.lap.id;

      let res = await post(url, { laps: [id, 41, 42] });
      assert.equal(res.status, 404);
      assert.equal(
        (await res.json()).detail,
        "no stored lap has id 41, 42: nothing was queued for the hub",
      );
      res = await post(url, { laps: [id, 0] });
      assert.equal(res.status, 400);
      const bad = await res.json();
      assert.deepEqual(bad.errors.map((e: { message: string }) => e.message), [
        "the 2nd lap id (0) must be a positive integer",
      ]);
      res = await post(url, { laps: [] });
      assert.equal(res.status, 400);
      assert.deepEqual(await listOutbox(app.kv), []);

      const sent = hub.nextPost();
      res = await post(url, { laps: [id] });
      assert.equal(res.status, 202);
      const body = await res.json();
      assert.deepEqual(body.queued, [id]);
      assert.equal(body.hub.url, hub.url);
      await sent;
      await app.hub!.flush();
      const status = (await (await fetch(`${url}/api/status`)).json()).hub;
      assert.deepEqual(status, {
        url: hub.url,
        waiting: 0,
        sent: 1,
        parked: 0,
        state: "idle",
        last_error: null,
      });
      assert.equal(hub.laps.length, 1);
      assert.equal(hub.laps[0].file.lap.track_name, "Monza");
    }, { hub: { settings: { url: hub.url, token: hub.token }, link: { timers: clock.timers } } });
  } finally {
    await hub.close();
  }
});
