import { strict as assert } from "node:assert";
import { AppView } from "../../src/tui/app_view.tsx";
import { baseMap, carCell, withCar } from "../../src/tui/survey_map.ts";
import { finishText } from "../../src/tui/survey_view.tsx";
import { MARK_KEYS, waitingText } from "../../src/tui/use_survey_state.ts";
import { renderBrailleMap } from "../../src/tui/braille_map.ts";
import { syntheticFrames } from "../../src/core/synthetic/drive.ts";
import { feed, KEY, keysSettled, memoryApp, renderSized, typeInto, waitFor } from "./_harness.tsx";
import { keyHandlerChanges } from "../../src/tui/use_keys.ts";

/** One surveying lap of synthetic circuit 7 (left border), after its out-lap. */
const SURVEY_7 = [...syntheticFrames({ seed: 7, laps: 1, mode: "survey" })];

Deno.test("survey view: start, label, marks, a lap of cells, stop; the map follows the car", async () => {
  const { app, close } = await memoryApp();
  const k26 = keyHandlerChanges();
  const r = renderSized(<AppView app={app} initialView="survey" />, 80, 24);
  let text = await waitFor(r.lastFrame, (t) => t.includes("Survey stopped"));
  let lines = text.split("\n");
  assert.equal(
    lines[0].trimEnd(),
    "1 Live 2 Sessions [3 Survey] 4 Tracks 5 Analysis 6 Bests" + " ".repeat(10) + "? help  q quit",
  );
  assert.equal(lines[1], "Survey stopped                           No map: label the circuit (t).");
  assert.equal(lines[2].trimEnd(), "Circuit  (unlabelled)");
  assert.ok(text.includes("Finish line not crossed yet"), text);
  assert.ok(text.includes("s start  t label  z x c left  , . / right  Space disarm"), text);
  await keysSettled(k26);

  // Marks need a running survey: the service's refusal is shown.
  r.stdin.write("z");
  await waitFor(r.lastFrame, (t) => t.includes("no survey is running; start one before marking"));
  r.stdin.write("s");
  await waitFor(r.lastFrame, (t) => t.includes("survey started: press t to label"));
  assert.equal(app.survey.running, true);
  assert.equal(app.survey.status().track, "");

  const beforeLabel = keyHandlerChanges();
  r.stdin.write("t");
  await waitFor(r.lastFrame, (t) => t.includes("Circuit label: "));
  // A newly drawn text field takes keys once its handler attaches (and the view's lets go),
  // just after the frame.
  await keysSettled(beforeLabel, 2);
  await typeInto(r, "Circuit label: ", "Synthetic Seven");
  r.stdin.write(KEY.enter);
  text = await waitFor(r.lastFrame, (t) => t.includes('circuit is now "Synthetic Seven"'));
  const labelled = app.survey.status();
  assert.deepEqual([labelled.track, labelled.slug, labelled.run], [
    "Synthetic Seven",
    "synthetic-seven",
    1,
  ]);
  text = await waitFor(r.lastFrame, (t) => t.includes("Run      1  (synthetic-seven)"));
  assert.ok(text.includes("Circuit  Synthetic Seven"), text);
  assert.ok(text.includes("No map until the first save."), text);

  // Each key arms its mark, shown big; Space disarms.
  for (const [key, word] of [["z", "L E F T   W A L L"], ["/", "R I G H T   E D G E"]] as const) {
    r.stdin.write(key);
    text = await waitFor(r.lastFrame, (t) => t.includes(word));
    assert.deepEqual(app.survey.status().mark, MARK_KEYS[key]);
  }
  assert.match(text, /┃R I G H T {3}E D G E ▶▶ +┃/);
  r.stdin.write(" ");
  await waitFor(r.lastFrame, (t) => t.includes("Mark     none"));
  assert.equal(app.survey.status().mark, null);
  const handlers = keyHandlerChanges();

  // One lap straddling the left border.
  await feed(app, SURVEY_7);
  await app.survey.flush();
  // The lap is the session's first, driven on the labelled circuit: the session takes the
  // survey's label, so no name prompt covers the view.
  const [session] = await app.sessions.list();
  assert.deepEqual([session.track_name, session.track_source], ["Synthetic Seven", "user"]);
  const running = app.survey.status();
  assert.equal(running.frames, SURVEY_7.length);
  assert.equal(running.cells, running.cells_by_side.L + running.cells_by_side.R);
  text = await waitFor(r.lastFrame, (t) => t.includes(`Cells this run ${running.cells}`));
  assert.ok(
    text.includes(`  left ${running.cells_by_side.L}  right ${running.cells_by_side.R}`),
    text,
  );
  assert.ok(text.includes(finishText(running.finish)), text);
  assert.ok(!text.includes("Name this track"), text);
  // No prompt's handler came or went: the view's keys are the ones listening.
  assert.equal(keyHandlerChanges(), handlers);
  r.stdin.write("s");
  text = await waitFor(r.lastFrame, (t) => t.includes("stopped: saved run 1"));
  const [bundle] = await app.bundles.list();
  assert.equal(bundle.slug, "synthetic-seven");
  assert.equal(bundle.runs, 1);
  assert.ok(
    text.includes(`stopped: saved run 1 of "Synthetic Seven", ${bundle.edges} cells in all`),
    text,
  );
  assert.equal(app.survey.running, false);

  // The map comes from the compiled bundle: coverage and drawing, with the car marked.
  const doc = await app.geometry.compiled("synthetic-seven");
  const cov = doc.coverage;
  const last = app.live.lastFrame!;
  const expected = renderBrailleMap(doc, {
    cols: 39,
    rows: 20,
    car: { x: last.posX, z: last.posZ },
    driven: await app.geometry.drivenLine("synthetic-seven"),
  });
  assert.ok(expected.car !== null, "the car is on the map");
  const mapOf = (t: string) => t.split("\n").slice(1, 21).map((l) => [...l].slice(41).join(""));
  // Autosaves drew earlier maps; the stop's save brings the final one.
  text = await waitFor(r.lastFrame, (t) => mapOf(t).join("\n") === expected.lines.join("\n"));
  // The left border closed into a loop: its share is of the lap. Nothing of the right is known.
  assert.deepEqual([cov.L.closed, cov.L.pct, cov.R.closed, cov.R.surveyed_m], [
    true,
    100,
    false,
    0,
  ]);
  assert.ok(text.includes(`Road   ${cov.road_pct.toFixed(1)}% with both borders`), text);
  lines = text.split("\n");
  // One lap on the left border: the left side closes, nothing of the right is known yet.
  assert.equal(lines[7].trimEnd().slice(0, 40).trimEnd(), "Cells this run 1908");
  assert.equal(lines[8].slice(0, 40).trimEnd(), "  left 1908  right 0");
  assert.equal(lines[9].slice(0, 40).trimEnd(), "Left   100.0% of the lap");
  assert.equal(lines[10].slice(0, 40).trimEnd(), "Right  nothing surveyed");
  assert.equal(lines[11].slice(0, 40).trimEnd(), "Road   0.0% with both borders");
  assert.equal(lines[12].slice(0, 40).trimEnd(), "Finish line unsure (1 crossing, ±0.0 m)");
  assert.equal(bundle.edges, 1908);
  assert.ok(lines.length <= 23, String(lines.length));
  for (const line of lines) assert.ok([...line].length <= 80, line);
  r.unmount();

  // Opened again after the stop, the view shows the ended run and its map.
  const again = renderSized(<AppView app={app} initialView="survey" />, 80, 24);
  text = await waitFor(again.lastFrame, (t) => mapOf(t).join("\n") === expected.lines.join("\n"));
  lines = text.split("\n");
  assert.equal(lines[1].slice(0, 40).trimEnd(), "Survey stopped");
  assert.equal(lines[2].slice(0, 40).trimEnd(), "Circuit  Synthetic Seven");
  assert.equal(lines[7].slice(0, 40).trimEnd(), "Cells this run 1908");
  again.unmount();
  close();
});

Deno.test("the map's car overlay matches the braille renderer's own marker", async () => {
  const { app, close } = await memoryApp();
  await app.survey.start({ track: "Synthetic Seven" });
  await feed(app, SURVEY_7);
  await app.survey.stop();
  const doc = await app.geometry.compiled("synthetic-seven");
  // Half the survey's driven line: it reaches where the borders do not, and widens the frame.
  const full = await app.geometry.drivenLine("synthetic-seven");
  const driven = [full[0].slice(0, Math.floor(full[0].length / 2))];
  for (const [cols, rows] of [[39, 20], [80, 35], [12, 5]]) {
    assert.deepEqual(baseMap(doc, cols, rows).lines, renderBrailleMap(doc, { cols, rows }).lines);
    const map = baseMap(doc, cols, rows, driven);
    assert.deepEqual(map.lines, renderBrailleMap(doc, { cols, rows, driven }).lines);
    // Every 500th position of the drive, and one far off the map.
    const spots = SURVEY_7.filter((_, i) => i % 500 === 0).map((f) => ({ x: f.posX, z: f.posZ }));
    spots.push({ x: 1e6, z: 1e6 });
    for (const car of spots) {
      const want = renderBrailleMap(doc, { cols, rows, car, driven });
      const cell = carCell(map, car.x, car.z);
      assert.deepEqual(cell, want.car, `${cols}x${rows} at ${car.x},${car.z}`);
      assert.deepEqual(withCar(map, cell), want.lines);
    }
  }
  close();
});

/** The synthetic surveying lap's first `n` frames. */
function surveyStart(n: number) {
  return SURVEY_7.slice(0, n);
}

Deno.test("a survey stopped without a name keeps its cells and asks for the name; Enter saves", async () => {
  const { app, close } = await memoryApp();
  const k176 = keyHandlerChanges();
  const r = renderSized(<AppView app={app} initialView="survey" />, 80, 24);
  await waitFor(r.lastFrame, (t) => t.includes("Survey stopped"));
  await keysSettled(k176);
  r.stdin.write("s");
  await waitFor(r.lastFrame, (t) => t.includes("survey started: press t to label"));
  await feed(app, surveyStart(3000));
  const cells = app.survey.status().cells;
  assert.ok(cells > 100, String(cells));
  const beforeStop = keyHandlerChanges();
  r.stdin.write("s");
  // The figures are sampled 20 times a second: wait for them too.
  let text = await waitFor(
    r.lastFrame,
    (t) => t.includes("cells kept") && t.includes("Stopped, waiting for a name"),
  );
  assert.ok(text.includes(`stopped: ${cells} cells kept; type the circuit's name to save them`));
  assert.ok(text.includes("Stopped, waiting for a name"), text);
  assert.ok(text.includes("Circuit name (saves the stopped run; Esc: later): "), text);
  assert.equal(app.survey.pending, true);
  // Esc puts the question off; the cells stay, and t asks again.
  // The name field's handler on and the view's off, as the stop opened the field.
  await keysSettled(beforeStop, 2);
  r.stdin.write(KEY.escape);
  text = await waitFor(r.lastFrame, (t) => t.includes("the stopped run keeps its"));
  assert.ok(text.includes(waitingText(cells)), text);
  assert.ok(text.includes("t name and save the stopped run  d d discard it"), text);
  assert.equal(app.survey.status().cells, cells);
  r.stdin.write("t");
  await waitFor(r.lastFrame, (t) => t.includes("Circuit name (saves the stopped run"));
  await typeInto(r, "Circuit name (saves the stopped run; Esc: later): ", "Seven Later");
  r.stdin.write(KEY.enter);
  text = await waitFor(r.lastFrame, (t) => t.includes("stopped: saved run 1"));
  const bundle = (await app.bundles.list()).find((b) => b.slug === "seven-later")!;
  assert.ok(text.includes(`stopped: saved run 1 of "Seven Later", ${bundle.edges} cells in all`));
  assert.equal(bundle.edges, cells);
  assert.equal(app.survey.pending, false);
  r.unmount();
  await app.survey.flush();
  close();
});

Deno.test("d pressed twice discards a stopped unnamed run; once only asks", async () => {
  const { app, close } = await memoryApp();
  await app.survey.start();
  await feed(app, surveyStart(3000));
  const cells = (await app.survey.stop()).cells;
  const k220 = keyHandlerChanges();
  const r = renderSized(<AppView app={app} initialView="survey" />, 80, 24);
  await waitFor(r.lastFrame, (t) => t.includes("Stopped, waiting for a name"));
  await keysSettled(k220);
  r.stdin.write("d");
  await waitFor(r.lastFrame, (t) => t.includes("press d again") && t.includes("d again: discard"));
  assert.equal(app.survey.pending, true);
  // Another key in between: the hint drops "again" (the discard is no longer armed), and the next
  // d asks again.
  r.stdin.write("z");
  await waitFor(
    r.lastFrame,
    (t) => !t.includes("d again: discard") && t.includes("d d discard it"),
  );
  r.stdin.write("d");
  await waitFor(r.lastFrame, (t) => t.includes(`press d again to discard the ${cells} cells`));
  r.stdin.write("d");
  const text = await waitFor(
    r.lastFrame,
    (t) => t.includes("discarded the stopped run") && t.includes("Survey stopped"),
  );
  assert.ok(text.includes(`discarded the stopped run (${cells} cells)`), text);
  assert.ok(text.includes("Survey stopped"), text);
  assert.equal(app.survey.pending, false);
  assert.deepEqual(await app.bundles.list(), []);
  r.unmount();
  close();
});

Deno.test("a few seconds of a left wall mark read as metres surveyed, not 100 % of a lap", async () => {
  const { app, close } = await memoryApp();
  await app.survey.start({ track: "Short Bit" });
  app.survey.mark({ side: "L", kind: "wall" });
  // Five seconds of driving, well into the lap.
  const middle = Math.floor(SURVEY_7.length / 2);
  await feed(app, SURVEY_7.slice(middle, middle + 300));
  await app.survey.stop();
  const cov = (await app.geometry.compiled("short-bit")).coverage;
  // Of its own stretch the side is whole, which says nothing of the lap.
  assert.deepEqual([cov.L.closed, cov.L.pct, cov.R.surveyed_m], [false, 100, 0]);
  assert.ok(cov.L.surveyed_m > 20 && cov.L.surveyed_m < 1000, String(cov.L.surveyed_m));
  const r = renderSized(<AppView app={app} initialView="survey" />, 80, 24);
  const text = await waitFor(r.lastFrame, (t) => t.includes("m surveyed, open"));
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.startsWith("Left   "));
  assert.equal(
    lines[at].slice(0, 40).trimEnd(),
    `Left   ${Math.round(cov.L.surveyed_m)} m surveyed, open`,
  );
  assert.equal(lines[at + 1].slice(0, 40).trimEnd(), "Right  nothing surveyed");
  assert.ok(!text.includes("100.0%"), text);
  r.unmount();
  close();
});
