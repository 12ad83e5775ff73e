import { strict as assert } from "node:assert";
import { noFixtures } from "../_fixtures.ts";
import { runTui, tuiMode, type TuiOptions } from "../../src/tui/run_tui.tsx";
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
  sleep,
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
    const done = runTui(app, {
      interactive: false,
      signal: controller.signal,
      statusIntervalMs: 20,
      write: (line) => lines.push(line),
    });
    assert.deepEqual(lines, [
      "connected 192.168.1.30 format A 60 pkt/s drops 5 | no session yet",
    ]);
    await feed(app, frames(SUZUKA));
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
    // A status timer left running would also fail the test's op sanitizer.
    const count = lines.length;
    await sleep(60);
    assert.equal(lines.length, count, "lines after the stop");
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
