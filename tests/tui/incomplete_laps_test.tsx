/**
 * Incomplete laps in the dashboard: marked in both lap lists with a legend,
 * never the best or the delta's reference, and named in the plain lap line.
 */
import { strict as assert } from "node:assert";
import { noFixtures } from "../_fixtures.ts";
import { AppView } from "../../src/tui/app_view.tsx";
import { LiveModel } from "../../src/tui/live_model.ts";
import { plainEventLine } from "../../src/tui/plain_status.ts";
import { INCOMPLETE_LEGEND } from "../../src/tui/format.ts";
import type { AppEvent } from "../../src/app/events.ts";
import type { Frame } from "../../src/core/gt7/frame.ts";
import { feed, frames, KEY, memoryApp, renderSized, SUZUKA, waitFor } from "./_harness.tsx";

/** Suzuka less two seconds of packets, 2,000 ticks into the lap. */
function holedSuzuka(): Frame[] {
  const list = frames(SUZUKA);
  return [...list.slice(0, 2375), ...list.slice(2495)];
}

Deno.test({
  name: "the live view marks an incomplete lap with a legend; no best, no delta reference",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    const events: AppEvent[] = [];
    app.bus.subscribe((e) => events.push(e));
    await feed(app, holedSuzuka());
    const r = renderSized(<AppView app={app} />, 80, 24);
    const text = await waitFor(r.lastFrame, (t) => t.includes("! incomplete"));
    const lines = text.split("\n");
    // Named from its reference line, on a fresh store.
    assert.equal(lines[2], "Session 1  Suzuka Circuit [matched by reference]  McLaren VGT  1 lap");
    assert.match(
      lines[4],
      /^Lap 2 {2}0:01\.7 {2}delta -- {2}predicted -:--\.-- {2}best ever -:--\.---$/,
    );
    assert.match(lines[13], /^ {3}1 {2}1:39\.036 {4}0\.00 +\d+ {2}! incomplete, 120 missing$/);
    assert.equal(lines[14], INCOMPLETE_LEGEND);
    assert.equal(text.includes("* best"), false);
    for (const line of lines) assert.ok([...line].length <= 80, line);
    assert.ok(lines.length <= 23);
    r.unmount();

    const model = new LiveModel(app);
    model.start();
    await model.settled();
    const snap = model.snapshot();
    assert.equal(snap.deltaMs, null, "an incomplete lap is no reference");
    assert.deepEqual(
      snap.laps.map((l) => [l.best, l.counts, l.complete, l.missing]),
      [[false, false, false, 120]],
    );
    model.stop();

    const lap = events.find((e) => e.type === "lap")!;
    assert.match(
      plainEventLine(lap)!,
      /^lap 1 1:39\.036 fuel 0\.00 events \d+ session 1 \(incomplete: 120 of 5942 samples missing, longest gap 120 packets\)$/,
    );
    close();
  },
});

Deno.test({
  name: "the sessions view marks an incomplete lap with a legend and keeps its height",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    await feed(app, holedSuzuka());
    const r = renderSized(<AppView app={app} initialView="sessions" />, 80, 24);
    let text = await waitFor(r.lastFrame, (t) => t.includes("! incomplete"));
    assert.match(text, /^ {6}1 {4}1 {2}1:39\.036 {4}0\.00 +\d+ {2}! incomplete, 120 missing$/m);
    assert.ok(text.includes(INCOMPLETE_LEGEND), text);
    // The session has no best.
    assert.match(text, /^> {4}1 live {5}McLaren VGT +\[ref\] Suzuka Circuit +1 {2}-:--\.---$/m);
    r.stdin.write(KEY.enter);
    text = await waitFor(r.lastFrame, (t) => t.includes("j JSON"));
    assert.match(text, /^> {5}1 {4}1 {2}1:39\.036 .*! incomplete, 120 missing$/m);
    const lines = text.split("\n");
    for (const line of lines) assert.ok([...line].length <= 80, line);
    assert.ok(lines.length <= 23, `${lines.length} lines`);
    r.unmount();
    close();
  },
});
