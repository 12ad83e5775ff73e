import { strict as assert } from "node:assert";
import { useEffect, useState } from "react";
import { Text } from "ink";
import { render } from "ink-testing-library";
import { noFixtures } from "../_fixtures.ts";
import { AppView } from "../../src/tui/app_view.tsx";
import { GLOBAL_KEYS, VIEWS } from "../../src/tui/views.ts";
import type { ViewDef, ViewProps } from "../../src/tui/view_types.ts";
import { keyHandlerChanges, useKeys } from "../../src/tui/use_keys.ts";
import {
  feed,
  frames,
  KEY,
  keysSettled,
  memoryApp,
  plain,
  renderSized,
  SUZUKA,
  waitFor,
} from "./_harness.tsx";

Deno.test("number keys switch views; the header marks the current one", async () => {
  const { app, close } = await memoryApp();
  const r = render(<AppView app={app} />);
  assert.match(plain(r.lastFrame()), /^\[1 Live\] {2}2 Sessions /);
  assert.ok(plain(r.lastFrame()).includes("No telemetry yet."));
  r.stdin.write("2");
  let text = await waitFor(r.lastFrame, (t) => t.includes("No sessions yet"));
  assert.match(text, /^ 1 Live {2}\[2 Sessions\]/);
  // Keys that name no view do nothing: the help asked for after them is still the sessions view's.
  r.stdin.write("7");
  r.stdin.write("x");
  r.stdin.write("?");
  await waitFor(r.lastFrame, (t) => t.includes("Keys") && t.includes("Sessions view\n"));
  r.stdin.write("?");
  text = await waitFor(r.lastFrame, (t) => !t.includes("Keys"));
  assert.match(text, /^ 1 Live {2}\[2 Sessions\]/);
  r.stdin.write("1");
  text = await waitFor(r.lastFrame, (t) => t.includes("No telemetry yet."));
  assert.match(text, /^\[1 Live\]/);
  r.unmount();
  close();
});

Deno.test("? shows the keys of everywhere and of the current view; ? or Esc hides it", async () => {
  const { app, close } = await memoryApp();
  const since = keyHandlerChanges();
  const r = renderSized(<AppView app={app} initialView="sessions" />, 80, 24);
  await waitFor(r.lastFrame, (t) => t.includes("No sessions yet"));
  await keysSettled(since);
  for (const view of VIEWS) {
    r.stdin.write(view.key);
    await waitFor(r.lastFrame, (t) => t.includes(`[${view.key} ${view.title}]`));
    r.stdin.write("?");
    const text = await waitFor(
      r.lastFrame,
      (t) => t.includes("Keys") && t.includes(`${view.title} view\n`),
    );
    const lines = text.split("\n");
    // Every view's number, the root's keys, then this view's own keys and no other view's.
    for (const v of VIEWS) {
      assert.ok(lines.includes(`  ${v.key.padEnd(7)} ${v.title} view`), v.title);
    }
    for (const k of GLOBAL_KEYS) {
      assert.ok(lines.includes(`  ${k.key.padEnd(7)} ${k.action}`), k.key);
    }
    assert.ok(lines.includes(`${view.title} view`), view.title);
    for (const k of view.keys) assert.ok(lines.includes(`  ${k.key.padEnd(7)} ${k.action}`), k.key);
    for (const other of VIEWS.filter((v) => v !== view)) {
      for (const k of other.keys.filter((k) => !view.keys.some((o) => o.action === k.action))) {
        assert.ok(!lines.includes(`  ${k.key.padEnd(7)} ${k.action}`), `${other.title} ${k.key}`);
      }
    }
    assert.ok(lines.length <= 23, `${lines.length} lines`);
    for (const line of lines) assert.ok([...line].length <= 80, line);
    r.stdin.write("?");
    await waitFor(r.lastFrame, (t) => !t.includes("Keys"));
  }
  r.stdin.write("2");
  await waitFor(r.lastFrame, (t) => t.includes("[2 Sessions]"));
  r.stdin.write("?");
  const help = await waitFor(r.lastFrame, (t) => t.includes("Keys"));
  assert.deepEqual(help.split("\n").slice(1, 12), [
    "Keys",
    "Everywhere",
    "  1       Live view",
    "  2       Sessions view",
    "  3       Survey view",
    "  4       Tracks view",
    "  5       Analysis view",
    "  6       Bests view",
    "  ?       show or hide this help (Esc hides it too)",
    "  q       quit (Ctrl+C too)",
    "Sessions view",
  ]);
  r.stdin.write(KEY.escape);
  const back = await waitFor(r.lastFrame, (t) => t.includes("No sessions yet"));
  assert.match(back, /^ ?1 Live +\[2 Sessions\]/);
  r.unmount();
  close();
});

Deno.test("q calls onQuit once and ends the Ink app", async () => {
  const { app, close } = await memoryApp();
  let quits = 0;
  const r = renderSized(<AppView app={app} onQuit={() => quits++} />, 80, 24);
  const exited = r.waitUntilExit();
  r.stdin.write("q");
  await exited;
  assert.equal(quits, 1);
  close();
});

Deno.test("while a view reads a name, q and the number keys are text", async () => {
  const { app, close } = await memoryApp();
  let quits = 0;
  // A view that reads text from the start, as the sessions view does while renaming.
  let renders = 0;
  function Reader({ setCapturing }: ViewProps) {
    const [typed, setTyped] = useState("");
    useEffect(() => setCapturing(true), [setCapturing]);
    useKeys((input) => setTyped((t) => t + input));
    renders++;
    return <Text>reading {typed}</Text>;
  }
  const views: ViewDef[] = [{
    key: "1",
    id: "reader",
    title: "Reader",
    keys: [],
    Component: Reader,
  }, VIEWS[1]];
  const since = keyHandlerChanges();
  const r = render(<AppView app={app} views={views} onQuit={() => quits++} />);
  await waitFor(r.lastFrame, (t) => t.includes("reading"));
  // The root's and the reader's handlers on, then the root's off once it knows the view captures.
  await keysSettled(since, 3);
  assert.ok(renders >= 2);
  r.stdin.write("q");
  r.stdin.write("2");
  r.stdin.write("?");
  // The reader got all three as text, in order; the root none of them.
  await waitFor(r.lastFrame, (t) => t.includes("reading q2?"));
  assert.equal(quits, 0);
  r.unmount();
  close();
});

Deno.test("a view added to the list gets its number key, header tab and help entry", async () => {
  const { app, close } = await memoryApp();
  function Extra({ columns, rows }: ViewProps) {
    return <Text>extra view {columns}x{rows}</Text>;
  }
  const views: ViewDef[] = [
    ...VIEWS,
    {
      key: "7",
      id: "extra",
      title: "Extra",
      keys: [{ key: "x", action: "do the extra thing" }],
      Component: Extra,
    },
  ];
  const r = renderSized(<AppView app={app} views={views} />, 90, 30);
  assert.match(
    plain(r.lastFrame()),
    /^\[1 Live\] +2 Sessions +3 Survey +4 Tracks +5 Analysis +6 Bests +7 Extra /,
  );
  r.stdin.write("7");
  await waitFor(r.lastFrame, (t) => t.includes("extra view 90x29"));
  r.stdin.write("?");
  const help = await waitFor(r.lastFrame, (t) => t.includes("Keys"));
  assert.ok(help.includes("  7       Extra view"), help);
  assert.ok(help.includes("  x       do the extra thing"), help);
  r.unmount();
  close();
});

Deno.test({
  name: "every view fits 80x24, and follows a resize",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    await feed(app, frames(SUZUKA));
    const r = renderSized(<AppView app={app} />, 80, 24);
    const check = (text: string) => {
      const lines = text.split("\n");
      assert.ok(lines.length <= 23, `${lines.length} lines:\n${text}`);
      for (const line of lines) assert.ok([...line].length <= 80, `too wide: ${line}`);
    };
    check(await waitFor(r.lastFrame, (t) => t.includes("* best")));
    r.stdin.write("2");
    check(await waitFor(r.lastFrame, (t) => t.includes("Enter to pick one")));
    r.stdin.write("?");
    check(await waitFor(r.lastFrame, (t) => t.includes("Keys")));
    r.stdin.write("3");
    check(await waitFor(r.lastFrame, (t) => t.includes("Survey stopped")));
    r.stdin.write("?");
    check(await waitFor(r.lastFrame, (t) => t.includes("Survey view\n")));
    r.stdin.write("4");
    check(await waitFor(r.lastFrame, (t) => t.includes("No track bundles yet")));
    r.stdin.write("?");
    check(await waitFor(r.lastFrame, (t) => t.includes("Tracks view\n")));
    r.stdin.write("1");
    await waitFor(r.lastFrame, (t) => t.includes("Throttle"));
    r.stdout.columns = 120;
    r.stdout.emit("resize");
    const wide = await waitFor(r.lastFrame, (t) => t.includes("Top km/h"));
    assert.ok(wide.split("\n").some((l) => [...l].length > 80), wide);
    r.unmount();
    close();
  },
});

Deno.test("a stored lap's top three notes pass by under the tabs", async () => {
  const { app, close } = await memoryApp();
  const listeners = app.bus.size;
  const r = renderSized(<AppView app={app} />, 120, 24);
  const note = (n: number, loss: number) => ({
    n,
    name: "",
    corner: `Turn ${n}`,
    loss_s: loss,
    causes: [],
    text: "",
    cue: `Turn ${n}: brake later`,
    cue_at_m: 100,
  });
  // The notes line listens from the first frame's effects on.
  await waitFor(() => String(app.bus.size), (n) => Number(n) > listeners);
  app.bus.emit({
    type: "notes",
    session_id: 1,
    lap_number: 3,
    notes: {
      lap_id: 3,
      ref_id: 1,
      ref_hub_lap_id: null,
      ref_driver: null,
      source: "lap",
      lap_start_m: null,
      lap_delta_s: 0.6,
      notes_sum_s: 0.6,
      summary: "",
      unknown: [],
      notes: [note(4, 0.3), note(1, 0.2), note(7, 0.1), note(2, 0.06)],
    },
  });
  const text = await waitFor(r.lastFrame, (t) => t.includes("Lap 3: "));
  assert.equal(
    text.split("\n")[1],
    "Lap 3: Turn 4: brake later +0.30 · Turn 1: brake later +0.20 · Turn 7: brake later +0.10",
  );
  // No corner noted: the lap's gap, said once, not "Lap 4: Lap +0.08 s...".
  app.bus.emit({
    type: "notes",
    session_id: 1,
    lap_number: 4,
    notes: {
      lap_id: 4,
      ref_id: 1,
      ref_hub_lap_id: null,
      ref_driver: null,
      source: "lap",
      lap_start_m: null,
      lap_delta_s: 0.08,
      notes_sum_s: 0,
      summary: "Lap +0.08 s against the reference; no corner past the threshold",
      unknown: [],
      notes: [],
    },
  });
  const quiet = await waitFor(r.lastFrame, (t) => t.includes("Lap 4 "));
  assert.equal(quiet.split("\n")[1], "Lap 4 was +0.08 s against the reference; no corner noted");
  r.unmount();
  close();
});
