import { strict as assert } from "node:assert";
import { noFixtures } from "../_fixtures.ts";
import {
  CLEAR_AND_HOME,
  ENTER_ALTERNATE_SCREEN,
  runTui,
  tuiMode,
  type TuiOptions,
} from "../../src/tui/run_tui.tsx";
import { AppView, headerFit } from "../../src/tui/app_view.tsx";
import { VIEWS } from "../../src/tui/views.ts";
import { TuiNotices } from "../../src/tui/notices.ts";
import type { LiveFrameService } from "../../src/app/live/live_frames.ts";
import { plainStatusLine } from "../../src/tui/plain_status.ts";
import { LiveModel } from "../../src/tui/live_model.ts";
import {
  FakeStdin,
  FakeStdout,
  fakeTelemetry,
  feed,
  frames,
  memoryApp,
  plain,
  renderSized,
  SUZUKA,
  waitFor,
} from "./_harness.tsx";

/**
 * How long a wait for the screen may last: long enough that only a hang runs
 * into it, however busy the machine.
 */
const HANG_MS = 120_000;

Deno.test("tuiMode draws with Ink only when asked or when both ends are terminals", () => {
  assert.equal(tuiMode({ interactive: false }), "plain");
  assert.equal(tuiMode({ interactive: true }), "ink");
  const tty = Deno.stdin.isTerminal() && Deno.stdout.isTerminal();
  assert.equal(tuiMode(), tty ? "ink" : "plain");
});

Deno.test({
  name: "without a terminal: a status line now and every interval, a line per lap, until aborted",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    app.attachTelemetry(fakeTelemetry());
    const lines: string[] = [];
    const controller = new AbortController();
    const listeners = app.bus.size;
    const done = runTui(app, {
      interactive: false,
      signal: controller.signal,
      statusIntervalMs: 20,
      write: (line) => lines.push(line),
    });
    assert.deepEqual(lines, [
      "connected 192.168.1.30 format A 60 pkt/s drops 5 | no session yet",
    ]);
    const list = frames(SUZUKA);
    await feed(app, list);
    // The live frames read the reference lap after the lap event: the next frame carries the gap.
    await (app.frames as unknown as LiveFrameService).settled();
    app.live.ingest({ ...list.at(-1)!, packetId: list.at(-1)!.packetId + 1 });
    await app.live.flush();
    assert.ok(
      lines.includes("lap 1 1:39.036 fuel 0.00 events 7 session 1 (best)"),
      lines.join("\n"),
    );
    // The best lap's path is read from the store after the lap event, so a
    // status line may come out before the delta can be shown: wait for it.
    await waitFor(
      () => lines.at(-1),
      (l) => l.includes("session 1") && / [+-]\d\.\d\d \|/.test(l),
      HANG_MS,
    );
    assert.match(
      lines.at(-1)!,
      /^connected 192\.168\.1\.30 format A 60 pkt\/s drops 5 \| session 1 Suzuka Circuit laps 1 best 1:39\.036 \| lap 2 0:01\.7 [+-]\d\.\d\d \| 298 km\/h gear 6$/,
    );
    controller.abort();
    await done;
    // Nothing can print after the stop: the bus listeners are gone (a lap line comes from them,
    // synchronously), and a status timer left running would fail the test's op sanitizer.
    assert.equal(app.bus.size, listeners, "bus listeners after the stop");
    close();
  },
});

Deno.test("plainStatusLine says when there is no telemetry at all", async () => {
  const { app, close } = await memoryApp();
  const model = new LiveModel(app);
  assert.equal(plainStatusLine(model.snapshot()), "no telemetry source | no session yet");
  await model.settled();
  close();
});

Deno.test("an already aborted signal stops the plain output at once", async () => {
  const { app, close } = await memoryApp();
  const lines: string[] = [];
  await runTui(app, {
    interactive: false,
    signal: AbortSignal.abort(),
    write: (l) => lines.push(l),
  });
  assert.equal(lines.length, 1);
  close();
});

/** Doubles of a terminal's streams, and the same streams as runTui takes them. */
function terminal() {
  const stdout = Object.assign(new FakeStdout(80, 24), { isTTY: true });
  const stdin = new FakeStdin();
  const streams = { stdin, stdout, stderr: new FakeStdout(80, 24) };
  return { stdin, stdout, streams: streams as unknown as TuiOptions["streams"] };
}

Deno.test("on a terminal, q ends the dashboard and the promise resolves after Ink let go", async () => {
  const { app, close } = await memoryApp();
  const t = terminal();
  let resolved = false;
  const done = runTui(app, { interactive: true, streams: t.streams }).then(() => resolved = true);
  await waitFor(
    () => t.stdout.frames.join(""),
    (text) => text.includes("Live") && text.includes("q quit"),
    HANG_MS,
  );
  assert.equal(resolved, false);
  t.stdin.write("q");
  await done;
  assert.equal(resolved, true);
  const all = t.stdout.frames.join("");
  // The alternate screen was entered and left, and the cursor shown again.
  assert.ok(all.includes("\u001B[?1049h"), "entered the alternate screen");
  assert.ok(all.includes("\u001B[?1049l"), "left the alternate screen");
  assert.ok(all.lastIndexOf("\u001B[?25h") > all.lastIndexOf("\u001B[?25l"), "cursor shown");
  close();
});

Deno.test("on a terminal, the signal ends the dashboard too", async () => {
  const { app, close } = await memoryApp();
  const t = terminal();
  const controller = new AbortController();
  const done = runTui(app, { interactive: true, signal: controller.signal, streams: t.streams });
  await waitFor(() => plain(t.stdout.frames.join("")), (text) => text.includes("Live"), HANG_MS);
  controller.abort();
  await done;
  close();
});

Deno.test("on a terminal: the screen is cleared and homed right after the alternate screen, the API address is in the header, notices under it", async () => {
  const { app, close } = await memoryApp();
  const t = terminal();
  const notices = new TuiNotices();
  notices.post("new store created at /tmp/typo-store");
  const done = runTui(app, {
    interactive: true,
    streams: t.streams,
    apiUrl: "http://127.0.0.1:8765",
    notices,
  });
  await waitFor(
    () => t.stdout.frames.join(""),
    (s) => s.includes("? help") && s.includes("new store"),
    HANG_MS,
  );
  const all = t.stdout.frames.join("");
  // Nothing is drawn between entering the alternate screen and homing the cursor.
  assert.ok(
    all.includes(ENTER_ALTERNATE_SCREEN + CLEAR_AND_HOME),
    JSON.stringify(all.slice(0, 80)),
  );
  assert.ok(all.indexOf(CLEAR_AND_HOME) < all.indexOf("? help"));
  const text = plain(all);
  // Six compact tabs at 80 columns leave room for the address without its scheme.
  assert.ok(
    text.startsWith(
      "[1 Live] 2 Sessions 3 Survey 4 Tracks 5 Analysis 6 Bests  127.0.0.1:8765  ? help\n",
    ),
    text,
  );
  assert.ok(text.includes("new store created at /tmp/typo-store"), text);
  // A sticky notice replaces it and stays.
  notices.post("demo: the drive is over (600 packets); q quits", { sticky: true });
  await waitFor(() => t.stdout.frames.join(""), (s) => s.includes("drive is over"), HANG_MS);
  t.stdin.write("q");
  await done;
  close();
});

Deno.test("the header fits the API address whole, without its scheme, as a port, or not at all", () => {
  const views = [
    { key: "1", id: "live", title: "Live", keys: [], Component: () => null },
    { key: "2", id: "sessions", title: "Sessions", keys: [], Component: () => null },
  ];
  const url = "http://127.0.0.1:8765";
  const hint = "? help  q quit";
  assert.deepEqual(headerFit(views, 100, url, hint), { compact: false, address: url, hint });
  // Tabs 21, hint 14, gaps 4: the whole address (21) fits from 60 columns.
  assert.deepEqual(headerFit(views, 60, url, hint).address, url);
  assert.deepEqual(headerFit(views, 59, url, hint).address, "127.0.0.1:8765");
  assert.deepEqual(headerFit(views, 51, url, hint), {
    compact: false,
    address: "127.0.0.1:8765",
    hint: "? help",
  });
  assert.deepEqual(headerFit(views, 45, url, hint).address, "127.0.0.1:8765");
  assert.deepEqual(headerFit(views, 43, url, hint).address, ":8765");
  assert.deepEqual(headerFit(views, 37, url, hint), {
    compact: false,
    address: ":8765",
    hint: "? help",
  });
  // Roomy tabs and the hint need 37 columns; below, the tabs lose their padding.
  assert.deepEqual(headerFit(views, 30, url, hint), { compact: true, address: null, hint });
  assert.deepEqual(headerFit(views, 100, null, hint).address, null);
});

Deno.test("with the help open the header keeps the address: the hint gives up its q quit", async () => {
  const { app, close } = await memoryApp();
  const url = "http://127.0.0.1:8765";
  const tabs = "[1 Live]  2 Sessions   3 Survey   4 Tracks   5 Analysis   6 Bests";
  const compact = "[1 Live] 2 Sessions 3 Survey 4 Tracks 5 Analysis 6 Bests";
  for (
    const [columns, rows, closed, open] of [
      [
        100,
        30,
        `${tabs}     127.0.0.1:8765  ? help  q quit`,
        `${tabs}       127.0.0.1:8765  ? close help`,
      ],
      [80, 24, `${compact}  127.0.0.1:8765  ? help`, `${compact}     :8765  ? close help`],
    ] as const
  ) {
    const r = renderSized(<AppView app={app} outDir="." apiUrl={url} />, columns, rows);
    let text = await waitFor(r.lastFrame, (t) => t.includes("? help"));
    assert.equal(text.split("\n")[0], closed);
    r.stdin.write("?");
    text = await waitFor(r.lastFrame, (t) => t.includes("? close help"));
    assert.equal(text.split("\n")[0], open);
    r.unmount();
  }
  // The help lists q itself: with it open, the header's hint can be cut to "? close help".
  assert.deepEqual(headerFit(VIEWS, 100, url, "? close help  q quit"), {
    compact: false,
    address: "127.0.0.1:8765",
    hint: "? close help",
  });
  close();
});

Deno.test("without a terminal, notices are printed as lines, the one posted first included", async () => {
  const { app, close } = await memoryApp();
  const notices = new TuiNotices();
  notices.post("new store created at /tmp/x");
  const lines: string[] = [];
  const controller = new AbortController();
  const done = runTui(app, {
    interactive: false,
    signal: controller.signal,
    notices,
    write: (l) => lines.push(l),
  });
  notices.post("demo: the drive is over (10 packets); Ctrl-C to quit", { sticky: true });
  controller.abort();
  await done;
  assert.deepEqual(lines, [
    "new store created at /tmp/x",
    "no telemetry source | no session yet",
    "demo: the drive is over (10 packets); Ctrl-C to quit",
  ]);
  close();
});
