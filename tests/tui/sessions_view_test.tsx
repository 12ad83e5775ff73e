import { strict as assert } from "node:assert";
import { basename, join } from "node:path";
import { render } from "ink-testing-library";
import { noFixtures } from "../_fixtures.ts";
import { SessionsView } from "../../src/tui/sessions_view.tsx";
import { AppView } from "../../src/tui/app_view.tsx";
import type { App } from "../../src/app/create_app.ts";
import { exportsDir } from "../../src/cli/start.ts";
import { lapExportFilename } from "../../src/app/laps/export_names.ts";
import {
  feed,
  frames,
  KEY,
  memoryApp,
  renderSized,
  SPA,
  SUZUKA,
  typeInto,
  waitFor,
} from "./_harness.tsx";

/** The rename field's label for session 1. */
const TRACK_NAME = "Track name for session 1: ";

/** Suzuka's lap in session 1, then Spa's (another car) in session 2. */
async function twoSessions(app: App): Promise<void> {
  await feed(app, frames(SUZUKA));
  await feed(app, frames(SPA));
  const all = await app.sessions.list();
  assert.deepEqual(all.map((s) => [s.id, s.car_id, s.lap_count, s.best_lap_time_ms]), [
    [2, 3582, 1, 115244],
    [1, 3315, 1, 99036],
  ]);
}

function sessionsView(app: App, outDir = ".", setCapturing: (on: boolean) => void = () => {}) {
  return render(
    <SessionsView
      app={app}
      columns={100}
      rows={23}
      outDir={outDir}
      inputActive
      setCapturing={setCapturing}
    />,
  );
}

Deno.test({
  name: "sessions view lists the sessions newest first and the laps of the selected one",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    await twoSessions(app);
    const r = renderSized(<AppView app={app} initialView="sessions" />, 80, 24);
    let text = await waitFor(r.lastFrame, (t) => t.includes("1:55.244  "));
    const lines = text.split("\n");
    assert.equal(lines[1], "Sessions (2)");
    assert.equal(
      lines[2].trimEnd(),
      "    Id Kind     Car                      Track                Laps      Best",
    );
    // Both named from their reference lines, on a fresh store: the badge comes first.
    assert.equal(
      lines[3],
      ">    2 live     Corvette CX.R Vision Gr… [ref] Circuit de Sp…    1  1:55.244",
    );
    assert.equal(
      lines[4],
      "     1 live     McLaren VGT              [ref] Suzuka Circuit    1  1:39.036",
    );
    assert.ok(
      text.includes("Laps of session 2 (Circuit de Spa-Francorchamps)  Enter to pick one"),
      text,
    );
    assert.match(text, / {6}\d+ {4}1 {2}1:55\.244 .* \* best/);
    for (const line of lines) assert.ok([...line].length <= 80, line);
    assert.ok(lines.length <= 23);

    r.stdin.write(KEY.down);
    text = await waitFor(r.lastFrame, (t) => t.includes("Laps of session 1"));
    assert.ok(text.includes("Loading laps...") || text.includes("1:39.036    0.00"), text);
    text = await waitFor(r.lastFrame, (t) => t.includes("1:39.036    0.00"));
    assert.ok(text.includes("      1    1  1:39.036    0.00      7  * best"), text);
    assert.match(text, /^> {4}1 live {5}McLaren VGT/m);
    r.stdin.write(KEY.up);
    await waitFor(r.lastFrame, (t) => t.includes("Laps of session 2"));
    r.unmount();
    close();
  },
});

Deno.test({
  name: "j and c export the selected lap into the output folder and show the path",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    await feed(app, frames(SUZUKA));
    const root = await Deno.makeTempDir();
    // Deep enough that the path written is longer than the 100-column view is wide.
    const dir = join(root, "home-of-a-user-with-a-rather-long-name", "sim-datalogger", "exports");
    await Deno.mkdir(dir, { recursive: true });
    const r = sessionsView(app, dir);
    await waitFor(r.lastFrame, (t) => t.includes("Enter to pick one"));
    // Not in the laps yet: nothing is written.
    r.stdin.write("j");
    await waitFor(r.lastFrame, (t) => t.includes("press Enter to go into the laps"));
    assert.deepEqual([...Deno.readDirSync(dir)], []);

    r.stdin.write(KEY.enter);
    await waitFor(r.lastFrame, (t) => /^> {5}1 {4}1 {2}1:39\.036/m.test(t));
    r.stdin.write("j");
    const lap1 = await app.laps.exportCsv(1);
    const json = join(dir, lapExportFilename(lap1.lap, lap1.venue, "json"));
    assert.ok(`wrote ${json}`.length > 100);
    let text = await waitFor(r.lastFrame, (t) => t.includes("wrote"));
    // The notice wraps: the file name is whole, and the lines give the whole path.
    const rows = text.split("\n");
    const first = rows.findIndex((l) => l.startsWith("wrote "));
    const last = rows.findIndex((l) => l.endsWith(basename(json)));
    assert.ok(first >= 0 && last > first, text);
    assert.equal(rows.slice(first, last + 1).join(""), `wrote ${json}`);
    const doc = JSON.parse(await Deno.readTextFile(json));
    assert.equal(doc.format, "sim-datalogger-lap");
    assert.equal(doc.version, 2);
    assert.equal(doc.lap.time_ms, 99036);
    assert.equal(doc.lap.number, 1);
    assert.equal(doc.lap.samples.t.length, 5942);

    r.stdin.write("c");
    const csv = join(dir, lapExportFilename(lap1.lap, lap1.venue, "csv"));
    text = await waitFor(r.lastFrame, (t) => t.includes(basename(csv)));
    const lines = (await Deno.readTextFile(csv)).split("\r\n");
    assert.equal(lines[0], '"Format","MoTeC CSV File"');
    assert.equal(lines[2], '"Vehicle","McLaren VGT"');
    // Header rows, two blanks, names, units, two blanks, then one row per sample.
    assert.equal(lines.filter((l) => /^"-?\d/.test(l)).length, 5942);

    // Esc leaves the laps: j asks again.
    r.stdin.write(KEY.escape);
    await waitFor(r.lastFrame, (t) => t.includes("Enter to pick one"));
    r.unmount();
    await Deno.remove(root, { recursive: true });
    close();
  },
});

Deno.test({
  name: "exports land in <data>/exports, made by the first export, and the full path is shown",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    await feed(app, frames(SUZUKA));
    const dir = await Deno.makeTempDir();
    // What `start --data DIR` hands the dashboard: the folder does not exist yet.
    const out = exportsDir(dir);
    assert.equal(out, join(dir, "exports"));
    const r = sessionsView(app, out);
    await waitFor(r.lastFrame, (t) => t.includes("Enter to pick one"));
    r.stdin.write(KEY.enter);
    await waitFor(r.lastFrame, (t) => t.includes("Esc back"));
    r.stdin.write("c");
    const lap1 = await app.laps.exportCsv(1);
    const csvName = lapExportFilename(lap1.lap, lap1.venue, "csv");
    const csv = join(dir, "exports", csvName);
    const text = await waitFor(r.lastFrame, (t) => t.includes("wrote"));
    assert.ok(text.includes(`wrote ${csv}`), text);
    assert.deepEqual([...Deno.readDirSync(join(dir, "exports"))].map((e) => e.name), [csvName]);
    // A file where the folder should be: the failure is said, nothing thrown.
    const blocked = join(dir, "blocked");
    await Deno.writeTextFile(blocked, "");
    r.unmount();
    const b = sessionsView(app, join(blocked, "exports"));
    await waitFor(b.lastFrame, (t) => t.includes("Enter to pick one"));
    b.stdin.write(KEY.enter);
    await waitFor(b.lastFrame, (t) => t.includes("Esc back"));
    b.stdin.write("j");
    await waitFor(b.lastFrame, (t) => t.includes("export failed: "));
    b.unmount();
    await Deno.remove(dir, { recursive: true });
    close();
  },
});

Deno.test({
  name: "r names the session: Enter saves through renameSession, the live copy follows",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    await feed(app, frames(SUZUKA));
    const capturing: boolean[] = [];
    const r = sessionsView(app, ".", (on) => capturing.push(on));
    await waitFor(r.lastFrame, (t) => t.includes("Enter to pick one"));
    r.stdin.write("r");
    // The entry starts from the name the reference line gave; the driver types over it.
    await waitFor(r.lastFrame, (t) => t.includes("Track name for session 1: Suzuka Circuit"));
    assert.deepEqual(capturing, [true]);
    await typeInto(r, TRACK_NAME, KEY.backspace.repeat("Suzuka Circuit".length), "Suzuka Circuit");
    await waitFor(r.lastFrame, (t) => /Track name for session 1: \s+Enter save/.test(t));
    // Keys that mean something elsewhere are text here.
    await typeInto(r, TRACK_NAME, "Suzuka q2 jc");
    await waitFor(r.lastFrame, (t) => t.includes("Track name for session 1: Suzuka q2 jc"));
    await typeInto(r, TRACK_NAME, KEY.backspace.repeat(6), "Suzuka q2 jc");
    r.stdin.write(KEY.enter);
    // The notice comes with the answer; the list follows once it has re-read the store.
    const text = await waitFor(
      r.lastFrame,
      (t) => t.includes('session 1 is now "Suzuka"') && t.includes("Laps of session 1 (Suzuka)"),
    );
    assert.match(text, /^> {4}1 live {5}McLaren VGT +Suzuka +1 {2}1:39\.036/m);
    assert.ok(text.includes("Laps of session 1 (Suzuka)"));
    assert.deepEqual(capturing, [true, false]);
    const [stored] = await app.sessions.list();
    assert.equal(stored.track_name, "Suzuka");
    assert.equal(stored.track_source, "user");
    assert.equal(app.live.session?.track_name, "Suzuka");
    r.unmount();
    close();
  },
});

Deno.test({
  name: "the name goes to the session it was typed for, even when a new session arrives meanwhile",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    await feed(app, frames(SUZUKA));
    const r = sessionsView(app);
    await waitFor(r.lastFrame, (t) => t.includes("Enter to pick one"));
    r.stdin.write("r");
    await waitFor(r.lastFrame, (t) => t.includes("Track name for session 1: Suzuka Circuit"));
    await typeInto(r, TRACK_NAME, KEY.backspace.repeat(" Circuit".length), "Suzuka Circuit");
    await waitFor(r.lastFrame, (t) => /Track name for session 1: Suzuka\s+Enter save/.test(t));
    // Another car: session 2 arrives at the top of the list.
    await feed(app, frames(SPA));
    await waitFor(r.lastFrame, (t) => t.includes("Sessions (2)"));
    r.stdin.write(KEY.enter);
    await waitFor(r.lastFrame, (t) => t.includes('session 1 is now "Suzuka"'));
    const names = (await app.sessions.list()).map((s) => [s.id, s.track_name]);
    assert.deepEqual(names, [[2, "Circuit de Spa-Francorchamps"], [1, "Suzuka"]]);
    r.unmount();
    close();
  },
});

Deno.test({
  name: "a blank name is refused with the rule; Esc cancels and nothing changes",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    await feed(app, frames(SUZUKA));
    const r = sessionsView(app);
    await waitFor(r.lastFrame, (t) => t.includes("Enter to pick one"));
    r.stdin.write("r");
    await waitFor(r.lastFrame, (t) => t.includes("Track name for session 1: Suzuka Circuit"));
    await typeInto(
      r,
      TRACK_NAME,
      KEY.backspace.repeat("Suzuka Circuit".length) + "   ",
      "Suzuka Circuit",
    );
    r.stdin.write(KEY.enter);
    await waitFor(
      r.lastFrame,
      (t) => t.includes("name is blank: give 1 to 80 characters that are not all spaces"),
    );
    // Still asking.
    assert.ok(r.lastFrame()!.includes("Track name for session 1:"));
    r.stdin.write(KEY.escape);
    await waitFor(r.lastFrame, (t) => t.includes("rename cancelled"));
    assert.equal((await app.sessions.list())[0].track_name, "Suzuka Circuit");
    assert.equal(app.live.session?.track_name, "Suzuka Circuit");
    r.unmount();
    close();
  },
});

Deno.test("with no sessions the view says so", async () => {
  const { app, close } = await memoryApp();
  const r = sessionsView(app);
  await waitFor(r.lastFrame, (t) => t.includes("No sessions yet"));
  r.unmount();
  close();
});

Deno.test({
  name: "every key of a burst moves the selection: three Downs in one write move three rows",
  ignore: noFixtures,
  async fn() {
    const { app, close } = await memoryApp();
    // A car change starts a new session: four sessions, newest (4) first.
    for (const file of [SUZUKA, SPA, SUZUKA, SPA]) await feed(app, frames(file));
    assert.deepEqual((await app.sessions.list()).map((s) => s.id), [4, 3, 2, 1]);
    const r = sessionsView(app);
    await waitFor(r.lastFrame, (t) => t.includes("Laps of session 4"));
    // What a held arrow or a quick hand sends: the keys arrive in one read.
    r.stdin.write(KEY.down.repeat(3));
    let text = await waitFor(r.lastFrame, (t) => t.includes("Laps of session 1"));
    assert.match(text, /^> {4}1 live/m);
    r.stdin.write(KEY.up.repeat(2));
    text = await waitFor(r.lastFrame, (t) => t.includes("Laps of session 3"));
    assert.match(text, /^> {4}3 live/m);
    // Down, Down, Up in one burst: two rows down from session 3, then one back up.
    r.stdin.write(KEY.down + KEY.down + KEY.up);
    text = await waitFor(r.lastFrame, (t) => /^ {6}2 {4}1 {2}1:55\.244/m.test(t));
    assert.match(text, /^> {4}2 live/m);
    r.unmount();
    close();
  },
});
