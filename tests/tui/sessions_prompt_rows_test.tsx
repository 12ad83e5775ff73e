import { strict as assert } from "node:assert";
import { AppView } from "../../src/tui/app_view.tsx";
import { keyHandlerChanges } from "../../src/tui/use_keys.ts";
import { syntheticFrames } from "../../src/core/synthetic/drive.ts";
import { feed, keysSettled, memoryApp, renderSized, waitFor } from "./_harness.tsx";

Deno.test("80x24 with the name prompt waiting: the Sessions view lists laps or says how many are left out", async () => {
  const { app, close } = await memoryApp();
  const k0 = keyHandlerChanges();
  const r = renderSized(<AppView app={app} />, 80, 24);
  await keysSettled(k0);
  // An unnamed circuit: the prompt opens on the first full lap and waits without the keyboard.
  await feed(app, [...syntheticFrames({ seed: 3, laps: 5 })]);
  await waitFor(r.lastFrame, (t) => t.includes("type its name."));
  const [session] = await app.sessions.list();
  const count = session.lap_count;
  assert.equal(count, 5);
  r.stdin.write("2");
  const row = /^[> ]\s+\d+\s+\d+\s+\d:\d\d\.\d{3}/;
  const text = await waitFor(r.lastFrame, (t) => t.split("\n").some((l) => row.test(l)));
  const lines = text.split("\n");
  assert.ok(lines.length <= 24, text);
  // Each lap row starts with its id and number; the "more" line counts the rest.
  const listed = lines.filter((l) => row.test(l)).length;
  const more = lines.map((l) => /↓ (\d+) more/.exec(l)?.[1]).find((m) => m !== undefined);
  assert.equal(listed + Number(more ?? 0), count, text);
  // The prompt's panel is whole at the bottom: its keys line is the frame's last.
  assert.equal(lines.at(-1), "n name it (the view's keys work until then)", text);
  // It took the rows it fills (six, with no suggestion), not its 9-row allowance: laps fit there.
  assert.equal(lines.length - lines.findIndex((l) => l.startsWith("────")), 6, text);
  assert.ok(listed >= 2, text);
  r.unmount();
  close();
});
