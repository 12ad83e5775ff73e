import { strict as assert } from "node:assert";
import { join } from "node:path";
import { AppView } from "../../src/tui/app_view.tsx";
import { formatLapTime } from "../../src/core/laps/lap_time.ts";
import { keyHandlerChanges } from "../../src/tui/use_keys.ts";
import { noFixtures, SHARED_FIXTURES } from "../_fixtures.ts";
import { KEY, keysSettled, memoryApp, renderSized, typeInto, waitFor } from "./_harness.tsx";

const PROMPT = "Import laps from: ";

Deno.test({
  name: "i in Sessions imports a gt7dashboard save's 4 laps; the typed keys stay in the prompt",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    // Relative to the output folder, as the bundle import takes paths; the path holds 4 (the
    // Tracks view's key), r (rename) and i, which must all land in the field.
    const r = renderSized(
      <AppView app={app} initialView="sessions" outDir={SHARED_FIXTURES} />,
      100,
      24,
    );
    await waitFor(r.lastFrame, (t) => t.includes("No sessions yet"));
    const before = keyHandlerChanges();
    r.stdin.write("i");
    await waitFor(r.lastFrame, (t) => t.includes(PROMPT));
    await keysSettled(before, 2);
    await typeInto(r, PROMPT, "gt7/broad-bean-raceway-4-laps.json");
    r.stdin.write(KEY.enter);
    // The list is read again and the new session selected, its laps shown.
    const text = await waitFor(
      r.lastFrame,
      (t) => t.includes("imported 4 laps") && t.includes("Laps of session 1"),
    );
    const [session] = await app.sessions.list();
    const laps = await app.sessions.laps(session.id);
    assert.equal(laps.length, 4);
    assert.equal(session.kind, "imported");
    const times = laps.map((l) => formatLapTime(l.time_ms)).join(", ");
    assert.ok(
      text.includes(
        `imported 4 laps (${times}) into new session ${session.id} from a gt7dashboard save`,
      ),
      text,
    );
    // Still the Sessions view (4 did not switch), listing the new session, nothing renamed.
    assert.ok(text.includes("[2 Sessions]"), text);
    assert.ok(text.includes("Sessions (1)"), text);
    assert.equal(session.track_source === "user", false);
    r.unmount();
    close();
  },
});

Deno.test("a malformed file's reason is shown, nothing is stored; q and ? typed stay in the prompt", async () => {
  const { app, close } = await memoryApp();
  const dir = await Deno.makeTempDir();
  // A gt7dashboard save cut off mid-array: not JSON.
  await Deno.writeTextFile(join(dir, "q?cut.json"), '[{"data_speed": [1, 2');
  await Deno.writeTextFile(join(dir, "other.json"), JSON.stringify({ format: "nope" }));
  const r = renderSized(<AppView app={app} initialView="sessions" outDir={dir} />, 100, 24);
  await waitFor(r.lastFrame, (t) => t.includes("No sessions yet"));
  let before = keyHandlerChanges();
  r.stdin.write("i");
  await waitFor(r.lastFrame, (t) => t.includes(PROMPT));
  await keysSettled(before, 2);
  await typeInto(r, PROMPT, "q?cut.json");
  before = keyHandlerChanges();
  r.stdin.write(KEY.enter);
  let text = await waitFor(r.lastFrame, (t) => t.includes("import failed: "));
  assert.ok(text.includes(`import failed: ${join(dir, "q?cut.json")} is not valid JSON`), text);
  // q did not quit, ? did not open the help.
  assert.ok(!text.includes("close help"), text);
  assert.deepEqual(await app.sessions.list(), []);

  // JSON of no import format: the reason names what was found and what is expected.
  r.stdin.write("i");
  await waitFor(r.lastFrame, (t) => t.includes(PROMPT));
  await keysSettled(before, 4);
  await typeInto(r, PROMPT, "other.json");
  r.stdin.write(KEY.enter);
  text = await waitFor(r.lastFrame, (t) => t.includes('has format "nope"'));
  assert.ok(text.includes(`import failed: ${join(dir, "other.json")} has format "nope"`), text);
  assert.deepEqual(await app.sessions.list(), []);
  r.unmount();
  close();
  await Deno.remove(dir, { recursive: true });
});
