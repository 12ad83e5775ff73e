import { strict as assert } from "node:assert";
import { AppView, rootKeysText } from "../../src/tui/app_view.tsx";
import { VIEWS } from "../../src/tui/views.ts";
import { TuiNotices } from "../../src/tui/notices.ts";
import { qrLines } from "../../src/cli/qr_text.ts";
import { keyHandlerChanges } from "../../src/tui/use_keys.ts";
import { KEY, keysSettled, memoryApp, renderSized, waitFor } from "./_harness.tsx";

const URL = "http://192.168.1.10:8765/";

Deno.test("with --lan the QR code is up on start; p hides and shows it, Esc hides it", async () => {
  const { app, close } = await memoryApp();
  const lines = qrLines(URL);
  const since = keyHandlerChanges();
  const r = renderSized(
    <AppView app={app} apiUrl={URL} livePage={{ url: URL, lines, open: true }} />,
    80,
    24,
  );
  let text = await waitFor(r.lastFrame, (t) => t.includes("Live page: "));
  const shown = text.split("\n");
  // The key is named in the header, beside the address.
  assert.equal(
    shown[0],
    "[1 Live] 2 Sessions 3 Survey 4 Tracks 5 Analysis 6 Bests    :8765/  p QR  ? help",
  );
  assert.equal(shown[1], `Live page: ${URL}  (scan with a phone on the same Wi-Fi)`);
  assert.deepEqual(shown.slice(2, 2 + lines.length), [...lines]);
  assert.equal(shown[2 + lines.length], "p or Esc hides it (p shows it again)");
  assert.ok(!text.includes("No telemetry yet."), text);
  await keysSettled(since);
  r.stdin.write("p");
  text = await waitFor(r.lastFrame, (t) => t.includes("No telemetry yet."));
  assert.ok(!text.includes(lines[1]), text);
  r.stdin.write("p");
  await waitFor(r.lastFrame, (t) => t.includes(lines[1]) && !t.includes("No telemetry yet."));
  r.stdin.write(KEY.escape);
  await waitFor(r.lastFrame, (t) => t.includes("No telemetry yet."));
  // The help lists the key.
  r.stdin.write("?");
  text = await waitFor(r.lastFrame, (t) => t.includes("Everywhere"));
  assert.ok(text.split("\n").includes("  p       show or hide the live page's QR code"), text);
  r.unmount();
  close();
});

Deno.test("the waiting name prompt names p among the dashboard's keys only with a QR code", () => {
  assert.equal(rootKeysText(VIEWS, true), "1-6 ? q p");
  assert.equal(rootKeysText(VIEWS, false), "1-6 ? q");
});

Deno.test("without a QR code p is no key: not in the header, the help or the screen", async () => {
  const { app, close } = await memoryApp();
  const since = keyHandlerChanges();
  const r = renderSized(<AppView app={app} apiUrl="http://127.0.0.1:8765" />, 100, 30);
  await waitFor(r.lastFrame, (t) => t.includes("No telemetry yet."));
  await keysSettled(since);
  r.stdin.write("p?");
  const text = await waitFor(r.lastFrame, (t) => t.includes("Everywhere"));
  assert.ok(!text.includes("p QR") && !text.includes("QR code") && !text.includes("Live page:"));
  r.unmount();
  close();
});

Deno.test("standing notices stay side by side: the store's state is not replaced by the drive's end", async () => {
  const { app, close } = await memoryApp();
  const notices = new TuiNotices();
  notices.post("new store created at /data");
  notices.post("store space low: 50.0 MB free on /data", { sticky: true, topic: "store" });
  const r = renderSized(<AppView app={app} notices={notices} />, 100, 30);
  // A passing notice posted first is shown first, whatever stands.
  let text = await waitFor(r.lastFrame, (t) => t.includes("No telemetry yet."));
  assert.equal(text.split("\n")[1], "new store created at /data");
  notices.post("demo: the drive is over (10 packets); q quits", { sticky: true, topic: "drive" });
  text = await waitFor(r.lastFrame, (t) => t.includes("drive is over"));
  assert.equal(
    text.split("\n")[1],
    "store space low: 50.0 MB free on /data  ·  demo: the drive is over (10 packets); q quits",
  );
  // Back to ok: the store's notice ends, the drive's stands.
  notices.clear("store");
  text = await waitFor(r.lastFrame, (t) => !t.includes("store space low"));
  assert.equal(text.split("\n")[1], "demo: the drive is over (10 packets); q quits");
  r.unmount();
  close();
});
