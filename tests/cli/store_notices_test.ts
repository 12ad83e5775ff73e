import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { SyntheticDrive } from "../../src/core/synthetic/drive.ts";
import { postStoreNotices } from "../../src/cli/start.ts";
import { TuiNotices } from "../../src/tui/notices.ts";
import { refusingKv } from "../_refusing_kv.ts";

Deno.test("the dashboard's notice follows the store: full with its waiting count (sticky), then writable again", async () => {
  const memory = await Deno.openKv(":memory:");
  try {
    const store = refusingKv(memory);
    const app = await createApp({
      kv: store.kv,
      now: () => new Date("2026-11-26T12:00:00.000Z"),
      spill: null,
      disk: { where: "/data", freeBytes: () => (store.full ? 0 : 2 ** 30) },
    });
    const notices = new TuiNotices();
    const seen: [string, boolean][] = [];
    notices.subscribe((n) =>
      seen.push(n ? [n.text, n.sticky] : ["(standing notice cleared)", false])
    );
    const stop = postStoreNotices(app, notices);
    store.full = true;
    for (const f of new SyntheticDrive({ seed: 3, laps: 2 }).frames()) app.live.ingest(f);
    await app.live.flush();
    store.full = false;
    await app.live.retryWaiting();
    stop();
    // Back to writable, the full store's notice no longer stands.
    assert.equal(notices.standing, null);
    const memoryOnly = "; they are kept in memory only";
    assert.deepEqual(seen, [
      [`store full: 1 laps not yet saved (0.0 MB free on /data)${memoryOnly}`, true],
      [`store full: 2 laps not yet saved (0.0 MB free on /data)${memoryOnly}`, true],
      [`store full: 2 laps not yet saved (1024.0 MB free on /data)${memoryOnly}`, true],
      [`store full: 1 laps not yet saved (1024.0 MB free on /data)${memoryOnly}`, true],
      ["(standing notice cleared)", false],
      ["store writable: every lap is saved (1024.0 MB free on /data)", false],
    ]);
    await app.shutdown();
  } finally {
    memory.close();
  }
});
