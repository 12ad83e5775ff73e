import { strict as assert } from "node:assert";
import { noFixtures } from "../_fixtures.ts";
import { AppView } from "../../src/tui/app_view.tsx";
import { render } from "ink-testing-library";
import { NamePrompt, waitingKeys } from "../../src/tui/name_prompt.tsx";
import { promptFor } from "../../src/tui/use_name_prompt.ts";
import { referenceLineOf } from "../../src/core/catalog/reference_lines.ts";
import { configurationById } from "../../src/core/catalog/tracks.ts";
import { ReferenceIndex } from "../../src/core/identify/reference_index.ts";
import { trackSuggestions } from "../../src/tui/track_suggestions.ts";
import type { AppEvent } from "../../src/app/events.ts";
import type { App } from "../../src/app/create_app.ts";
import { syntheticFrames } from "../../src/core/synthetic/drive.ts";
import { keyHandlerChanges } from "../../src/tui/use_keys.ts";
import type { Frame } from "../../src/core/gt7/frame.ts";
import {
  feed,
  frames,
  KEY,
  keysSettled,
  memoryApp,
  renderSized,
  SUZUKA,
  typeInto,
  waitFor,
} from "./_harness.tsx";

/** The synthetic race on circuit 3: the out-lap and two timed laps, as one car or another. */
function race3(carId?: number): Frame[] {
  return [...syntheticFrames({ seed: 3, laps: 2, carId })];
}

/** Records every event `app` announces. */
function record(app: App): AppEvent[] {
  const events: AppEvent[] = [];
  app.bus.subscribe((e) => events.push(e));
  return events;
}

/**
 * Waits for the key handlers of a dashboard rendered after `before` (a
 * {@linkcode keyHandlerChanges} reading) to listen, then answers the count,
 * for waiting on the prompt's handler (the root's turning off goes with it).
 */
async function rootKeysSettled(before: number): Promise<number> {
  await keysSettled(before);
  return keyHandlerChanges();
}

Deno.test("suggestions: the lap's shape first; typed words start words of the name", () => {
  // Suzuka's full course is 5,807 m, its east course 2,243 m.
  const none = (length_m: number | null) => ({ length_m, suggestions: [] });
  assert.deepEqual(trackSuggestions("suz", none(5800), 5).map((s) => s.name), [
    "Suzuka Circuit",
    "Suzuka Circuit East Course",
  ]);
  assert.deepEqual(trackSuggestions("suz", none(2250), 5).map((s) => s.name), [
    "Suzuka Circuit East Course",
    "Suzuka Circuit",
  ]);
  assert.deepEqual(trackSuggestions("SUZUKA east", null, 5).map((s) => [s.name, s.off, s.fit]), [
    ["Suzuka Circuit East Course", null, null],
  ]);
  assert.deepEqual(trackSuggestions("zzz", none(5800), 5), []);
  // Nothing typed: only what the shape suggests, in its order; the length alone suggests nothing.
  assert.deepEqual(trackSuggestions("", none(5807), 8), []);
  assert.deepEqual(trackSuggestions("", null, 5), []);
  const shape = {
    length_m: 5752,
    suggestions: [
      { official_id: "6e378b", fit: "fits" as const },
      { official_id: "4414cb", fit: "close" as const },
    ],
  };
  assert.deepEqual(trackSuggestions("", shape, 5).map((s) => [s.name, s.fit]), [
    ["Suzuka Circuit", "fits"],
    ["Suzuka Circuit East Course", "close"],
  ]);
  assert.deepEqual(trackSuggestions("", shape, 1).map((s) => s.name), ["Suzuka Circuit"]);
  // Typed: the shape's suggestions first, whatever the lengths say, then the rest by length.
  const east = { length_m: 5800, suggestions: [{ official_id: "4414cb", fit: "fits" as const }] };
  assert.deepEqual(trackSuggestions("suz", east, 5).map((s) => [s.name, s.fit]), [
    ["Suzuka Circuit East Course", "fits"],
    ["Suzuka Circuit", null],
  ]);
  assert.deepEqual(trackSuggestions("monza", shape, 5).map((s) => s.name), [
    "Autodromo Nazionale Monza No Chicane",
    "Autodromo Nazionale Monza",
  ]);
});

Deno.test("promptFor asks on a full lap of an unnamed session not asked about before", () => {
  const lap = { id: 4, number: 1, time_ms: 99036, counts_for_best: true, complete: true };
  const session = { id: 2, track_name: "", car_name: "McLaren VGT" };
  const event = { type: "lap", lap, session } as unknown as AppEvent;
  assert.deepEqual(promptFor(event, new Set()), {
    sessionId: 2,
    lapId: 4,
    lapNumber: 1,
    timeMs: 99036,
    car: "McLaren VGT",
  });
  assert.equal(promptFor(event, new Set([2])), null);
  const named = { ...event, session: { ...session, track_name: "Suzuka" } } as AppEvent;
  assert.equal(promptFor(named, new Set()), null);
  const partial = { ...event, lap: { ...lap, counts_for_best: false } } as AppEvent;
  assert.equal(promptFor(partial, new Set()), null);
  // An incomplete lap makes no signature, so it never asks, whatever counts_for_best says.
  const incomplete = { ...event, lap: { ...lap, complete: false } } as AppEvent;
  assert.equal(promptFor(incomplete, new Set()), null);
});

/**
 * Suzuka's reference line twice: as itself and as its East Course. A Suzuka
 * lap fits both, so the session is left unnamed and both are suggested.
 */
function ambiguousSuzuka(): ReferenceIndex {
  const suzuka = referenceLineOf("6e378b")!;
  const east = { ...suzuka, configuration: configurationById("4414cb")!, twins: [] };
  return new ReferenceIndex([suzuka, east]);
}

Deno.test({
  name: "a lap two configurations fit: the prompt offers both by shape; Enter stores the signature",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp({ references: ambiguousSuzuka() });
    const k0 = keyHandlerChanges();
    const r = renderSized(<AppView app={app} />, 80, 24);
    await waitFor(r.lastFrame, (t) => t.includes("No telemetry yet."));
    const since = await rootKeysSettled(k0);
    await feed(app, frames(SUZUKA));
    let text = await waitFor(r.lastFrame, (t) => t.includes(" km") && t.includes("equally"));
    await keysSettled(since);
    const lines = text.split("\n");
    // The prompt is a panel of at most 9 rows at the bottom: the live view stays above it.
    const top = lines.findIndex((l) => l.startsWith("Name this track"));
    // Header 1 row, the view at most 13 (14 less its free row), the panel 8 (two suggestions).
    assert.ok(lines.length <= 22, text);
    assert.equal(top, lines.length - 7);
    assert.match(lines[top - 1], /^─{80}$/);
    assert.ok(lines.slice(0, top).some((l) => l.startsWith("Speed 298 km/h  Gear 6")), text);
    assert.ok(lines.slice(0, top).some((l) => l.startsWith("Lap 2  0:01.7  delta")), text);
    // It opens without the keyboard: its last line says what gives it the keyboard.
    assert.equal(lines[top], "Name this track: session 1, lap 1 1:39.036, 5.75 km");
    assert.equal(lines[top + 1].trimEnd(), "Track name:");
    assert.equal(lines[top + 2], "The lap's shape fits these equally; pick one:");
    // Nothing typed: exactly the two the shape cannot tell apart, nothing found by length alone;
    // the share is said to be the lap's difference from the official length.
    assert.deepEqual(lines.slice(top + 3, top + 5).map((l) => l.replace(/ {2,}/g, " | ")), [
      " | Suzuka Circuit | 5.807 km | lap | 1.0% off",
      " | Suzuka Circuit East Course | 2.243 km | lap 156.4% off",
    ]);
    assert.equal(lines[top + 5].trim(), "");
    assert.equal(lines.at(-1), waitingKeys(false, "1-6 ? q"));
    assert.equal(
      lines.at(-1),
      "type the name, or n or Enter first (1-6 ? q keep their use until then)",
    );
    for (const line of lines) assert.ok([...line].length <= 80, line);

    // A first letter gives it the keyboard and starts the name; from then on every key is text.
    await typeInto(r, "Track name: ", "suzuka e");
    text = await waitFor(r.lastFrame, (t) => t.includes("(keys are text)"));
    assert.equal(
      text.split("\n").at(-1),
      "↑↓ pick  Tab copy it  Enter save  Esc dismiss (leave it unnamed)",
    );
    text = await waitFor(r.lastFrame, (t) => t.includes("Track name: suzuka e"));
    assert.ok(text.includes("Official circuits (the lap's shape first):"), text);
    assert.ok(text.includes("  Suzuka Circuit East Course"), text);
    assert.ok(!text.includes("  Suzuka Circuit  "), text);
    // "suzuka " matches the same circuits as "suzuka".
    await typeInto(r, "Track name: ", KEY.backspace, "suzuka e");
    await waitFor(r.lastFrame, (t) => /Track name: suzuka\s/.test(t));
    r.stdin.write("\t");
    await waitFor(r.lastFrame, (t) => t.includes("Track name: Suzuka Circuit"));
    r.stdin.write(KEY.enter);
    text = await waitFor(r.lastFrame, (t) => t.includes('session 1 named "Suzuka Circuit"'));
    // Said on the line under the tabs; the prompt's panel is gone.
    assert.equal(text.split("\n")[1], 'session 1 named "Suzuka Circuit"');
    assert.ok(!text.includes("Name this track"), text);
    await waitFor(r.lastFrame, (t) => t.includes("Session 1  Suzuka Circuit  McLaren VGT  1 lap"));

    // POST /api/tracks semantics: a user signature from lap 1, and the session named.
    const [signature] = await app.tracks.list();
    assert.equal(signature.name, "Suzuka Circuit");
    assert.equal(signature.lap_id, 1);
    assert.equal(signature.session_id, 1);
    assert.equal(signature.provenance, "user");
    assert.equal(signature.direction, "recorded");
    assert.equal(Math.round(signature.length_m), 5752);
    const [stored] = await app.sessions.list();
    assert.deepEqual([stored.track_name, stored.track_source], ["Suzuka Circuit", "user"]);
    assert.equal(app.live.session?.track_name, "Suzuka Circuit");
    r.unmount();
    close();
  },
});

Deno.test({
  name: "↓ picks a suggestion and Enter saves it; a refused name keeps the prompt open",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp({ references: ambiguousSuzuka() });
    const k0 = keyHandlerChanges();
    const r = renderSized(<AppView app={app} />, 100, 30);
    const since = await rootKeysSettled(k0);
    await feed(app, frames(SUZUKA));
    await waitFor(r.lastFrame, (t) => t.includes("equally") && t.includes(" km "));
    await keysSettled(since);
    // On the Live view, Enter gives the prompt the keyboard; the second Enter saves.
    const focusing = keyHandlerChanges();
    r.stdin.write(KEY.enter);
    await waitFor(r.lastFrame, (t) => t.includes("(keys are text)"));
    await keysSettled(focusing);
    r.stdin.write(KEY.enter);
    // Nothing typed and nothing picked: the one track-name rule refuses the blank name.
    await waitFor(
      r.lastFrame,
      (t) => t.includes("track name is blank: type 1 to 80 characters, or pick one"),
    );
    assert.deepEqual(await app.tracks.list(), []);
    await typeInto(r, "Track name: ", "suz");
    await waitFor(r.lastFrame, (t) => t.includes("Track name: suz"));
    r.stdin.write(KEY.down);
    const text = await waitFor(r.lastFrame, (t) => /^> Suzuka Circuit /m.test(t));
    assert.match(text, /^ {2}Suzuka Circuit East Course +2\.243 km {2}lap 156\.4% off$/m);
    // Down and Enter in one burst: Enter saves the row Down picked, not the one drawn.
    r.stdin.write(KEY.down + KEY.enter);
    await waitFor(r.lastFrame, (t) => t.includes('session 1 named "Suzuka Circuit East Course"'));
    assert.deepEqual((await app.tracks.list()).map((s) => [s.name, s.lap_id]), [[
      "Suzuka Circuit East Course",
      1,
    ]]);
    r.unmount();
    close();
  },
});

Deno.test({
  name: "Tab fills the suggestion and puts the cursor at its end: suz, down, Tab, X",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp({ references: ambiguousSuzuka() });
    const k0 = keyHandlerChanges();
    const r = renderSized(<AppView app={app} />, 80, 24);
    const since = await rootKeysSettled(k0);
    await feed(app, frames(SUZUKA));
    await waitFor(r.lastFrame, (t) => t.includes("equally") && t.includes(" km "));
    await keysSettled(since);
    await typeInto(r, "Track name: ", "suz");
    await waitFor(r.lastFrame, (t) => t.includes("Track name: suz"));
    r.stdin.write(KEY.down);
    await waitFor(r.lastFrame, (t) => /^> Suzuka Circuit /m.test(t));
    // Tab refills the field by mounting it afresh: X waits for the new field's handler.
    const beforeTab = keyHandlerChanges();
    r.stdin.write("\t");
    await waitFor(r.lastFrame, (t) => t.includes("Track name: Suzuka Circuit"));
    await keysSettled(beforeTab);
    r.stdin.write("X");
    const text = await waitFor(r.lastFrame, (t) => t.includes("Track name: Suzuka CircuitX"));
    assert.ok(!text.includes("SuzXuka"), text);
    r.stdin.write(KEY.enter);
    await waitFor(r.lastFrame, (t) => t.includes('session 1 named "Suzuka CircuitX"'));
    assert.deepEqual((await app.tracks.list()).map((s) => s.name), ["Suzuka CircuitX"]);
    r.unmount();
    close();
  },
});

Deno.test({
  name: "a real Suzuka lap: the prompt suggests Suzuka by its shape, nothing else by length",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    await feed(app, frames(SUZUKA));
    // The shipped reference line named it already; the prompt is drawn for its lap all the same.
    const target = { sessionId: 1, lapId: 1, lapNumber: 1, timeMs: 99036, car: "McLaren VGT" };
    const r = render(
      <NamePrompt
        app={app}
        target={target}
        columns={80}
        rows={12}
        typing={null}
        viewHasKeys={false}
        rootKeys="1-6 ? q"
        onClose={() => {}}
      />,
    );
    const text = await waitFor(r.lastFrame, (t) => t.includes("fits:"));
    const lines = text.split("\n");
    // Its rule, then the title and the text.
    assert.equal(lines[3], "The lap's shape fits:");
    assert.deepEqual(
      lines[4].replace(/ {2,}/g, " | "),
      " | Suzuka Circuit | 5.807 km | lap | 1.0% off",
    );
    // Monza, Daytona and Monza No Chicane are as long as Suzuka but not its shape.
    assert.equal(lines[5].trim(), "");
    for (const other of ["Monza", "Daytona", "Lago Maggiore"]) {
      assert.ok(!text.includes(other), other);
    }
    r.unmount();
    close();
  },
});

Deno.test("Esc dismisses the prompt: the session's later laps and later sessions do not ask", async () => {
  const { app, close } = await memoryApp();
  const events = record(app);
  const list = race3();
  const k0 = keyHandlerChanges();
  const r = renderSized(<AppView app={app} />, 80, 24);
  const since = await rootKeysSettled(k0);
  // The out-lap and lap 1.
  const firstLapEnd = list.findIndex((f) => f.currentLap === 2);
  await feed(app, list.slice(0, firstLapEnd + 1));
  await waitFor(r.lastFrame, (t) => t.includes("Name this track: session 1, lap 1"));
  await keysSettled(since);
  // While it asks, the live readouts stay on screen above it.
  const asking = await waitFor(
    r.lastFrame,
    (t) => t.includes("The lap's shape fits no official circuit; type its name."),
  );
  assert.ok(asking.includes("Speed "), asking);
  // n gives it the keyboard; the shape fits nothing, so the keys say nothing of picking.
  const focusing = keyHandlerChanges();
  r.stdin.write("n");
  const typing = await waitFor(r.lastFrame, (t) => t.includes("(keys are text)"));
  assert.equal(typing.split("\n").at(-1), "Enter save  Esc dismiss (leave it unnamed)");
  await keysSettled(focusing);
  r.stdin.write(KEY.escape);
  let text = await waitFor(r.lastFrame, (t) => t.includes("session 1 left unnamed"));
  assert.equal(
    text.split("\n")[1],
    "session 1 left unnamed; no more asking (Sessions: r names it)",
  );
  assert.ok(!text.includes("Name this track"), text);
  await feed(app, list.slice(firstLapEnd + 1));
  const laps = events.filter((e) => e.type === "lap");
  assert.deepEqual(laps.map((e) => e.type === "lap" && [e.lap.number, e.session.id]), [
    [1, 1],
    [2, 1],
  ]);
  // The frame that shows lap 2 is drawn from the state its event left: no prompt in it.
  text = await waitFor(r.lastFrame, (t) => /Session 1 {2}unnamed .* 2 laps/.test(t));
  assert.ok(!text.includes("Name this track"), text);
  // Another car on the same (unnamed) circuit: a new session, unnamed, not asked about either.
  await feed(app, race3(3315));
  assert.ok(events.some((e) => e.type === "lap" && e.session.id === 2 && e.lap.number === 1));
  text = await waitFor(r.lastFrame, (t) => /Session 2 {2}unnamed .* 2 laps/.test(t));
  assert.ok(!text.includes("Name this track"), text);
  assert.deepEqual(await app.tracks.list(), []);
  assert.deepEqual((await app.sessions.list()).map((s) => s.track_name), ["", ""]);
  r.unmount();
  close();
});

Deno.test("the prompt waits without the keyboard: 1 is the Live view, a view keeps its keys", async () => {
  const { app, close } = await memoryApp();
  const list = race3();
  const k0 = keyHandlerChanges();
  const r = renderSized(<AppView app={app} />, 80, 24);
  const since = await rootKeysSettled(k0);
  await feed(app, list.slice(0, list.findIndex((f) => f.currentLap === 2) + 1));
  await waitFor(r.lastFrame, (t) => t.includes("type its name."));
  await keysSettled(since);
  // 2 opens Sessions and 1 comes back to Live: nothing is typed, nothing is suggested.
  r.stdin.write("2");
  let text = await waitFor(r.lastFrame, (t) => t.includes("[2 Sessions]"));
  assert.equal(text.split("\n").at(-1), waitingKeys(true, "1-6 ? q"));
  assert.equal(text.split("\n").at(-1), "n name it (the view's keys work until then)");
  // In a view with keys of its own, a letter is the view's (Enter goes into the laps).
  r.stdin.write(KEY.enter);
  await waitFor(r.lastFrame, (t) => t.includes("Laps of session 1") && t.includes("> "));
  r.stdin.write("1");
  text = await waitFor(r.lastFrame, (t) => t.includes("[1 Live]"));
  assert.match(text, /^Track name:\s*$/m);
  assert.ok(!text.includes("Grand Valley"), text);
  assert.ok(!text.includes("(keys are text)"), text);
  // The help covers the waiting prompt with the view, inside 80x24, and gives it back.
  r.stdin.write("?");
  text = await waitFor(r.lastFrame, (t) => t.includes("Everywhere"));
  assert.ok(!text.includes("Name this track"), text);
  assert.ok(text.split("\n").length <= 23, text);
  r.stdin.write("?");
  await waitFor(r.lastFrame, (t) => t.includes("Name this track") && !t.includes("Everywhere"));
  r.unmount();
  close();
});

Deno.test("an over-long name is refused with the rule and kept whole; a pasted name saves", async () => {
  const { app, close } = await memoryApp();
  const list = race3();
  const k0 = keyHandlerChanges();
  const r = renderSized(<AppView app={app} />, 100, 30);
  const since = await rootKeysSettled(k0);
  await feed(app, list.slice(0, list.findIndex((f) => f.currentLap === 2) + 1));
  await waitFor(r.lastFrame, (t) => t.includes("type its name."));
  await keysSettled(since);
  const focusing = keyHandlerChanges();
  r.stdin.write("n");
  await waitFor(r.lastFrame, (t) => t.includes("(keys are text)"));
  await keysSettled(focusing);
  // 81 characters and Enter, pasted in one read.
  const long = "Ring Three " + "x".repeat(70);
  r.stdin.write(long + "\r");
  const text = await waitFor(r.lastFrame, (t) => t.includes("track name is too long"));
  const lines = text.split("\n");
  assert.ok(
    lines.includes("track name is too long: 81 characters, at most 80 (type a shorter one)"),
    text,
  );
  // Kept whole in the field, never cut to 80.
  assert.ok(lines.some((l) => l.trimEnd() === `Track name: ${long}`), text);
  assert.deepEqual(await app.tracks.list(), []);
  // Ctrl+U clears it; a name pasted with its newline saves.
  r.stdin.write("\x15Ring Three\n");
  await waitFor(r.lastFrame, (t) => t.includes('session 1 named "Ring Three"'));
  assert.deepEqual((await app.tracks.list()).map((s) => s.name), ["Ring Three"]);
  r.unmount();
  close();
});

Deno.test("a session named by matching shows a badge, and no prompt appears", async () => {
  const { app, close } = await memoryApp();
  // The circuit is known: a first drive named through the prompt's service.
  await feed(app, race3());
  await app.tracks.create({ name: "Ring Three", lap_id: 1 });
  const events = record(app);
  const r = renderSized(<AppView app={app} />, 80, 24);
  await waitFor(r.lastFrame, (t) => t.includes("Session 1  Ring Three  "));
  // Another car on the same circuit: a new session, named from its first lap.
  await feed(app, race3(3315));
  const identified = events.find((e) => e.type === "session" && e.reason === "identified");
  assert.ok(identified && identified.type === "session");
  assert.equal(identified.session?.id, 2);
  assert.equal(identified.session?.track_source, "signature");
  await waitFor(
    r.lastFrame,
    (t) => t.includes("Session 2  Ring Three [matched by signature]  McLaren VGT  2 laps"),
  );
  // That frame is drawn from the state the second lap's event left: a prompt would be in it.
  assert.ok(!r.lastFrame()!.includes("Name this track"), r.lastFrame());
  assert.equal((await app.tracks.list()).length, 1);
  r.unmount();
  close();
});

Deno.test("a name pasted with its newline into the waiting prompt saves it, in one read", async () => {
  const { app, close } = await memoryApp();
  const list = race3();
  const k0 = keyHandlerChanges();
  const r = renderSized(<AppView app={app} />, 100, 30);
  const since = await rootKeysSettled(k0);
  await feed(app, list.slice(0, list.findIndex((f) => f.currentLap === 2) + 1));
  await waitFor(r.lastFrame, (t) => t.includes("type its name."));
  await keysSettled(since);
  // No `n` first: the first letter gives the prompt the keyboard, the LF saves.
  r.stdin.write("Zed Ring\n");
  await waitFor(r.lastFrame, (t) => t.includes('session 1 named "Zed Ring"'));
  assert.deepEqual((await app.tracks.list()).map((s) => s.name), ["Zed Ring"]);
  r.unmount();
  close();
});

Deno.test("a lone LF is Enter: it gives the waiting prompt the keyboard, then saves", async () => {
  const { app, close } = await memoryApp();
  const list = race3();
  const k0 = keyHandlerChanges();
  const r = renderSized(<AppView app={app} />, 100, 30);
  const since = await rootKeysSettled(k0);
  await feed(app, list.slice(0, list.findIndex((f) => f.currentLap === 2) + 1));
  await waitFor(r.lastFrame, (t) => t.includes("type its name."));
  await keysSettled(since);
  const focusing = keyHandlerChanges();
  r.stdin.write("\n");
  await waitFor(r.lastFrame, (t) => t.includes("(keys are text)"));
  await keysSettled(focusing);
  r.stdin.write("Def");
  await waitFor(r.lastFrame, (t) => t.includes("Track name: Def"));
  r.stdin.write("\n");
  await waitFor(r.lastFrame, (t) => t.includes('session 1 named "Def"'));
  assert.deepEqual((await app.tracks.list()).map((s) => s.name), ["Def"]);
  r.unmount();
  close();
});
