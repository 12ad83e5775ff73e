import { strict as assert } from "node:assert";
import { createApp } from "../../src/app/create_app.ts";
import { dashboardNotices, livePageQr } from "../../src/cli/dashboard_options.ts";
import { qrLines } from "../../src/cli/qr_text.ts";

Deno.test("the dashboard gets the live page's QR code off loopback, up on start with --lan", () => {
  const url = "http://192.168.1.10:8765/";
  assert.deepEqual(livePageQr(url, true), { url, lines: qrLines(url), open: true });
  assert.deepEqual(livePageQr(url, false), { url, lines: qrLines(url), open: false });
  // No other device can open a loopback page: nothing to scan.
  assert.equal(livePageQr("http://127.0.0.1:8765/", true), undefined);
  assert.equal(livePageQr("http://[::1]:8765/", true), undefined);
});

Deno.test("the dashboard's notices: the new store passes, the store's low space stands", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const app = await createApp({
      kv,
      now: () => new Date("2026-11-26T12:00:00.000Z"),
      spill: null,
      disk: { where: "/data", freeBytes: () => 50 * 2 ** 20 },
      lowSpaceBytes: 100 * 2 ** 20,
    });
    const low = "store space low: 50.0 MB free on /data (warning under 100.0 MB)";
    const shown = dashboardNotices(app, { created: "new store created at /data", now: true });
    assert.deepEqual(
      [shown.passing?.text, shown.standing],
      ["new store created at /data", low],
    );
    // Printed lines that stay in sight (plain output) are not posted again.
    const printed = dashboardNotices(app, { created: "new store created at /data", now: false });
    assert.deepEqual([printed.passing, printed.standing], [null, null]);
    await app.shutdown();
  } finally {
    kv.close();
  }
});
