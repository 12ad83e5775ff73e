import { strict as assert } from "node:assert";
import type { App } from "../../src/app/create_app.ts";
import type { Comparison, CornerReportRow } from "../../src/core/analysis/types.ts";
import { AnalysisView } from "../../src/tui/analysis_view.tsx";
import { AppView } from "../../src/tui/app_view.tsx";
import { analysisLayout } from "../../src/tui/analysis_layout.ts";
import { notesLine } from "../../src/tui/notes_line.ts";
import { formatLapTime } from "../../src/core/laps/lap_time.ts";
import { KEY, memoryApp, renderSized, waitFor } from "./_harness.tsx";
import { driveSession } from "./_synthetic_sessions.ts";
import { SyntheticDrive } from "../../src/core/synthetic/drive.ts";

/** Shift+→ and Shift+← as a terminal sends them. */
const SHIFT_RIGHT = "\u001B[1;2C";
const RIGHT = "\u001B[C";
const LEFT = "\u001B[D";

/**
 * Test Ring (seed 7, car 3235): session 1 drives laps 1..3, session 2 (newer,
 * other lap times) laps 4..6. Returns every lap id with its time, as planned.
 */
async function twoStints(app: App) {
  const s1 = await driveSession(app, { seed: 7, laps: 3, track: "Test Ring" });
  const s2 = await driveSession(app, { seed: 7, laps: 3, track: "Test Ring", startPacketId: 5000 });
  const laps = [
    ...(await app.sessions.laps(s1.session.id)),
    ...(await app.sessions.laps(s2.session.id)),
  ];
  assert.deepEqual(laps.map((l) => l.time_ms), [...s1.times, ...s2.times]);
  assert.ok(laps.every((l) => l.complete && l.counts_for_best));
  return { s1: s1.session, s2: s2.session, laps };
}

function view(app: App, columns = 80, rows = 24) {
  return renderSized(
    <AnalysisView
      app={app}
      columns={columns}
      rows={rows - 1}
      outDir="."
      inputActive
      setCapturing={() => {}}
    />,
    columns,
    rows,
  );
}

/** `s` seconds signed to the millisecond, as the view prints gaps. */
function signed(s: number): string {
  return `${s >= 0 ? "+" : ""}${s.toFixed(3)}`;
}

/** The read-out line the view must print at grid point `k` of `c`. */
function readOutAt(c: Comparison, k: number): string {
  const [lap, ref] = c.laps;
  const pair = (ch: string, dp: number) =>
    `${lap.channels[ch]![k].toFixed(dp)}/${ref.channels[ch]![k].toFixed(dp)}`;
  return `@${String(Math.round(c.distance[k])).padStart(5)} m  Δ ${signed(lap.delta_s[k])} s  ` +
    `km/h ${pair("speed", 1)}  thr ${pair("throttle", 0)}  brk ${pair("brake", 0)}  ` +
    `gear ${pair("gear", 0)}`;
}

/** The grid point nearest the middle of chart column `col` of `cols` over `from`..`to`. */
function gridAt(c: Comparison, from: number, to: number, cols: number, col: number): number {
  const at = from + (col + 0.5) * (to - from) / cols;
  let best = 0;
  for (let k = 1; k < c.distance.length; k++) {
    if (Math.abs(c.distance[k] - at) < Math.abs(c.distance[best] - at)) best = k;
  }
  return best;
}

function line(text: string, prefix: string): string {
  const found = text.split("\n").find((l) => l.startsWith(prefix));
  assert.ok(found !== undefined, `no line starting "${prefix}" in:\n${text}`);
  return found;
}

Deno.test("analysis opens on the newest session's last lap against the circuit's best; delta chart, corners worst first, sectors", async () => {
  const { app, close } = await memoryApp();
  const { laps } = await twoStints(app);
  const lap = laps[5]; // session 2's last lap
  const ref = [...laps].sort((a, b) => a.time_ms - b.time_ms || a.id - b.id)[0];
  assert.notEqual(ref.id, lap.id);
  const r = view(app);
  const text = await waitFor(r.lastFrame, (t) => t.includes("Theoretical best"));
  const lines = text.split("\n");
  assert.equal(
    lines[0],
    `Lap ${lap.id} (S2 #3) ${formatLapTime(lap.time_ms)}  vs  ref ${ref.id} (S2 #1) ` +
      `${formatLapTime(ref.time_ms)}  ${signed((lap.time_ms - ref.time_ms) / 1000)}  ` +
      "Test Ring · NSX Gr.3",
  );
  assert.equal(
    lines[0],
    "Lap 6 (S2 #3) 1:33.783  vs  ref 4 (S2 #1) 1:33.383  +0.400  Test Ring · NSX Gr.3",
  );

  // The delta chart: labelled, scaled to the largest gap, drawn.
  const c = await app.analysis.compare({
    laps: [lap.id, ref.id],
    ref: ref.id,
    channels: ["speed", "throttle", "brake", "gear", "pos_x", "pos_z"],
  });
  const deltas = c.laps[0].delta_s;
  const half = Math.max(0.05, ...deltas.map(Math.abs));
  const layout = analysisLayout(80, 23);
  const delta = lines.slice(1, 1 + layout.chartRows[0]);
  assert.ok(delta[0].startsWith("delta s "), delta[0]);
  assert.ok(delta.at(-1)!.startsWith(`±${half.toFixed(2)}`.padEnd(8)), delta.at(-1));
  const plot = delta.map((l) => [...l].slice(8, 8 + layout.chartCols).join(""));
  assert.ok(plot.every((l) => [...l].length === layout.chartCols));
  // The lap ends 0.4 s down: the last column has a dot in the top row, the first is at 0.
  assert.notEqual(plot[0].at(-1), "\u2800");

  // Corners in the engine's order, the worst first, marked.
  const report = await app.analysis.corners({ lap: lap.id, ref: ref.id });
  assert.equal(report.source, "circuit");
  // The table's lines under its heading: all but the last for rows, that one says what follows.
  const rows = report.corners.slice(0, layout.tableRows - 2);
  assert.ok(report.corners.length > layout.tableRows - 1);
  const heading = lines.findIndex((l) => l.startsWith("  Corner "));
  assert.equal(
    lines[heading + layout.tableRows - 1].slice(0, 49).trimEnd(),
    `  ↓ ${report.corners.length - rows.length} more`,
  );
  assert.ok(heading > 0, text);
  for (const [i, row] of rows.entries()) {
    const shown = lines[heading + 1 + i];
    const expect = new RegExp(
      `^${i === 0 ? ">" : " "} ${row.name} +${escape(signed(row.delta_s!))} +` +
        `${escape(row.time_s.toFixed(3))} +${escape(row.ref_time_s!.toFixed(3))} +` +
        `${Math.round(row.min_kmh)}${i === 0 ? " ◀" : ""}(?: |$)`,
    );
    assert.match(shown, expect);
  }
  assert.ok(report.corners[0].delta_s! >= report.corners[1].delta_s!);
  assert.ok(report.corners[0].delta_s! > 0);
  assert.equal(lines.filter((l) => l.includes("◀")).length, 1);

  // Sectors: the lap's, the best, the theoretical best.
  const sectors = await app.analysis.sectors({ track: "Test Ring", car: lap.car_id });
  const times = await app.analysis.sectorTimes("Test Ring", lap.car_id, [lap.id]);
  for (const [k, s] of sectors.sectors.entries()) {
    assert.ok(
      lines[heading + 1 + k].endsWith(
        `${s.name.padEnd(14)}${times[0].times_s[k]!.toFixed(3).padStart(8)}${
          s.best_s!.toFixed(3).padStart(8)
        }`,
      ),
      lines[heading + 1 + k],
    );
  }
  // The lap's sectors tile it: they add up to its time.
  const sum = times[0].times_s.reduce((a, t) => a! + t!, 0)!;
  assert.equal(Math.round(sum * 1000), lap.time_ms);
  assert.ok(text.includes(`Theoretical best ${formatLapTime(sectors.theoretical_best_ms!)}`));
  assert.ok(text.includes(`Best lap ${formatLapTime(ref.time_ms)} (lap ${ref.id})`));
  r.unmount();
  close();
});

Deno.test("arrows move the cursor a chart column, [ ] and Shift ten; the read-out follows", async () => {
  const { app, close } = await memoryApp();
  await twoStints(app);
  const c = await app.analysis.compare({
    laps: [6, 4],
    ref: 4,
    channels: ["speed", "throttle", "brake", "gear", "pos_x", "pos_z"],
  });
  const length = c.distance.at(-1)!;
  const cols = analysisLayout(80, 23).chartCols;
  const r = view(app);
  const expectAt = async (col: number) => {
    const want = readOutAt(c, gridAt(c, 0, length, cols, col));
    const text = await waitFor(r.lastFrame, (t) => t.includes(want));
    assert.equal(line(text, "@"), want);
  };
  await expectAt(0);
  // Left is held at the start: Left then Right in one burst ends one column on.
  r.stdin.write(LEFT + RIGHT);
  await expectAt(1);
  r.stdin.write("]");
  await expectAt(11);
  r.stdin.write(SHIFT_RIGHT);
  await expectAt(21);
  r.stdin.write("[");
  await expectAt(11);
  // Six in one burst, as a held key sends them: each counts, and the last are held at the end.
  r.stdin.write(SHIFT_RIGHT.repeat(6));
  await expectAt(cols - 1);
  // The read-out at the very start, by numbers.
  assert.equal(gridAt(c, 0, length, cols, 0), Math.round(length / cols / 2));
  r.unmount();
  close();
});

Deno.test("Enter zooms the charts to the selected corner, Esc zooms back out", async () => {
  const { app, close } = await memoryApp();
  await twoStints(app);
  const report = await app.analysis.corners({ lap: 6, ref: 4 });
  const c = await app.analysis.compare({
    laps: [6, 4],
    ref: 4,
    channels: ["speed", "throttle", "brake", "gear", "pos_x", "pos_z"],
  });
  const length = c.distance.at(-1)!;
  const r = view(app);
  let text = await waitFor(r.lastFrame, (t) => t.includes("Theoretical best"));
  const whole = `        0 m`;
  assert.ok(line(text, whole).trimEnd().endsWith(`${Math.round(length)} m`), text);
  assert.ok(line(text, whole).includes("whole lap"));

  // Down twice and Up in one burst, then Enter in the same read: the second corner is zoomed to.
  const second: CornerReportRow = report.corners[1];
  r.stdin.write(KEY.down + KEY.down + KEY.up + KEY.enter);
  text = await waitFor(r.lastFrame, (t) => t.includes("zoomed"));
  const pad = Math.max(30, (second.exit_m - second.entry_m) * 0.25);
  const from = Math.max(0, second.entry_m - pad);
  const to = Math.min(length, second.exit_m + pad);
  const axis = line(text, `        ${Math.round(from)} m`);
  assert.match(
    axis,
    new RegExp(`${second.name} zoomed \\(Esc: whole lap\\) +${Math.round(to)} m$`),
  );
  assert.ok(text.includes(`> ${second.name} * `), text);
  // The cursor went to the corner's apex column, and moves by zoomed columns.
  const cols = analysisLayout(80, 23).chartCols;
  const apex = Math.floor((second.apex_m - from) / (to - from) * cols);
  assert.equal(line(text, "@"), readOutAt(c, gridAt(c, from, to, cols, apex)));
  r.stdin.write(RIGHT);
  const next = readOutAt(c, gridAt(c, from, to, cols, apex + 1));
  text = await waitFor(r.lastFrame, (t) => t.includes(next));
  assert.equal(line(text, "@"), next);

  r.stdin.write(KEY.escape);
  text = await waitFor(r.lastFrame, (t) => t.includes("whole lap (Enter"));
  assert.ok(line(text, whole).trimEnd().endsWith(`${Math.round(length)} m`));
  assert.ok(!text.includes(" * "), text);
  r.unmount();
  close();
});

Deno.test("l and r pick the lap and the reference from the circuit's laps, fastest first", async () => {
  const { app, close } = await memoryApp();
  await twoStints(app);
  const r = view(app);
  await waitFor(r.lastFrame, (t) => t.includes("Theoretical best"));
  r.stdin.write("r");
  let text = await waitFor(r.lastFrame, (t) => t.includes("Pick the reference"));
  assert.ok(text.includes("Pick the reference (6, fastest first): ↑↓ Enter, Esc cancels"), text);
  // The hint under it lists the picker's keys only, not the charts' it does not take.
  assert.equal(text.split("\n").at(-1), "↑↓ select a lap  Enter take it  Esc cancel");
  const listed = text.split("\n").filter((l) => /^[> ] +\d+ {2}session/.test(l));
  assert.deepEqual(listed.map((l) => Number(/\d+/.exec(l)![0])), [
    4,
    3,
    1,
    5,
    6,
    2,
  ]);
  assert.match(listed[0], /^> +4 {2}session 2 lap 1 +1:33\.383 +\+0\.000 {2}ref/);
  assert.match(listed[4], /^ +6 {2}session 2 lap 3 +1:33\.783 +\+0\.400 {2}lap/);
  // Three Downs in one burst move three rows, and Up then Enter in another picks the row Up left.
  r.stdin.write(KEY.down.repeat(3));
  await waitFor(r.lastFrame, (t) => /^> +5 {2}session 2 lap 2/m.test(t));
  r.stdin.write(KEY.up + KEY.up + KEY.enter);
  text = await waitFor(r.lastFrame, (t) => t.includes("vs  ref 3 ") && t.includes("Theoretical"));
  assert.ok(text.startsWith("Lap 6 (S2 #3) 1:33.783  vs  ref 3 (S1 #3) 1:33.517  +0.266"), text);

  r.stdin.write("l");
  await waitFor(r.lastFrame, (t) => t.includes("Pick the lap to analyse"));
  r.stdin.write(KEY.up); // from lap 6 to lap 5
  await waitFor(r.lastFrame, (t) => /^> +5 {2}session 2 lap 2/m.test(t));
  r.stdin.write(KEY.enter);
  text = await waitFor(r.lastFrame, (t) => t.startsWith("Lap 5 ") && t.includes("Theoretical"));
  assert.ok(text.startsWith("Lap 5 (S2 #2) 1:33.717  vs  ref 3 (S1 #3) 1:33.517  +0.200"), text);

  // Esc closes a list without changing anything.
  r.stdin.write("r");
  await waitFor(r.lastFrame, (t) => t.includes("Pick the reference"));
  r.stdin.write(KEY.escape);
  text = await waitFor(r.lastFrame, (t) => t.includes("Theoretical best"));
  assert.ok(text.startsWith("Lap 5 (S2 #2) 1:33.717  vs  ref 3 "), text);
  r.unmount();
  close();
});

Deno.test("without a complete lap the view says so, then follows the first stored laps", async () => {
  const { app, close } = await memoryApp();
  const r = view(app);
  await waitFor(r.lastFrame, (t) => t.includes("No complete lap yet"));
  const { times } = await driveSession(app, { seed: 7, laps: 3, track: "Test Ring" });
  // The view follows each lap as it is stored: on a busy machine it may draw lap 1 or 2 first.
  const text = await waitFor(
    r.lastFrame,
    (t) => t.includes("Theoretical best") && t.startsWith("Lap 3 "),
  );
  // Lap 3 is session 1's last; its best other lap is lap 1 (lap 3 is the fastest of the three).
  assert.deepEqual(times, [93717, 93800, 93517]);
  assert.ok(text.startsWith("Lap 3 (S1 #3) 1:33.517  vs  ref 1 (S1 #1) 1:33.717  -0.200"), text);
  r.unmount();
  close();
});

Deno.test("a lap alone is shown without a reference", async () => {
  const { app, close } = await memoryApp();
  const { times } = await driveSession(app, { seed: 11, laps: 1, track: "Other Park" });
  const r = view(app);
  const text = await waitFor(r.lastFrame, (t) => t.includes("Theoretical best"));
  const lines = text.split("\n");
  assert.equal(
    lines[0],
    `Lap 1 (S1 #1) ${formatLapTime(times[0])}  no reference: its only lap  Other Park · NSX Gr.3`,
  );
  const c = await app.analysis.compare({
    laps: [1],
    channels: ["speed", "throttle", "brake", "gear"],
  });
  const [lap] = c.laps;
  const k = gridAt(c, 0, c.distance.at(-1)!, analysisLayout(80, 23).chartCols, 0);
  assert.equal(
    line(text, "@"),
    `@${String(Math.round(c.distance[k])).padStart(5)} m  km/h ${
      lap.channels.speed![k].toFixed(1)
    }  thr ${lap.channels.throttle![k].toFixed(0)}  brk ${lap.channels.brake![k].toFixed(0)}  ` +
      `gear ${lap.channels.gear![k].toFixed(0)}`,
  );
  // Corners without a reference: no gap, nothing marked as lost.
  const report = await app.analysis.corners({ lap: 1 });
  const heading = lines.findIndex((l) => l.startsWith("  Corner "));
  assert.match(lines[heading + 1], new RegExp(`^> ${report.corners[0].name} +-- +`));
  assert.ok(!text.includes("◀"));
  r.unmount();
  close();
});

Deno.test("the analysis view fits 80x24 and redraws at 100x30", async () => {
  const { app, close } = await memoryApp();
  await twoStints(app);
  const r = renderSized(<AppView app={app} initialView="analysis" />, 80, 24);
  const check = (text: string, columns: number, rows: number) => {
    const lines = text.split("\n");
    assert.ok(lines.length <= rows - 1, `${lines.length} lines:\n${text}`);
    for (const l of lines) assert.ok([...l].length <= columns, `too wide: ${l}`);
    return lines;
  };
  let lines = check(await waitFor(r.lastFrame, (t) => t.includes("Theoretical best")), 80, 24);
  assert.equal(lines.length, 23);
  assert.ok(lines.some((l) => l.startsWith("delta s ")));
  // Eight corners in six lines: five and a line saying three more follow.
  const corners = (await app.analysis.corners({ lap: 6, ref: 4 })).corners;
  assert.equal(corners.length, 8);
  const cornerLines = (all: string[]) => {
    const head = all.findIndex((l) => l.startsWith("  Corner "));
    return all.slice(head + 1, head + 7).map((l) => l.slice(0, 49).trimEnd());
  };
  const rowOf = (k: number) => new RegExp(`^[> ] ${escape(corners[k].name)} +[-+]\\d`);
  let shown = cornerLines(lines);
  assert.equal(shown[5], "  ↓ 3 more");
  for (let k = 0; k < 5; k++) assert.match(shown[k], rowOf(k));
  // At the last corner the hint is of the rows above.
  r.stdin.write(KEY.down.repeat(7));
  lines = check(
    await waitFor(r.lastFrame, (t) => t.includes(`> ${corners[7].name} `)),
    80,
    24,
  );
  shown = cornerLines(lines);
  assert.equal(shown[0], "  ↑ 3 more");
  for (let k = 3; k < 8; k++) assert.match(shown[k - 2], rowOf(k));
  r.stdin.write("r");
  // The picker takes the tables' rows and the charts': all six laps fit, with no hint.
  const picker = check(await waitFor(r.lastFrame, (t) => t.includes("Pick the reference")), 80, 24);
  assert.ok(!picker.some((l) => l.includes(" more")), picker.join("\n"));
  r.stdin.write(KEY.escape);
  await waitFor(r.lastFrame, (t) => !t.includes("Pick the reference"));
  r.stdin.write("?");
  const help = check(await waitFor(r.lastFrame, (t) => t.includes("Analysis view\n")), 80, 24);
  assert.ok(help.includes("  l       pick the lap to analyse from the circuit's laps"));
  r.stdin.write("?");
  await waitFor(r.lastFrame, (t) => t.includes("Theoretical best"));
  r.stdout.columns = 100;
  r.stdout.rows = 30;
  r.stdout.emit("resize");
  const wide = await waitFor(
    r.lastFrame,
    (t) => t.split("\n").some((l) => l.startsWith("delta s ") && [...l].length === 100),
  );
  lines = check(wide, 100, 30);
  assert.equal(lines.length, 29);
  // At 100 columns the sector table has room for the reference's times.
  assert.ok(lines.some((l) => l.endsWith("Sector             lap     ref    best")), wide);
  r.unmount();
  close();
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

Deno.test("under the tables, the lap's top coaching notes against the reference", async () => {
  const { app, close } = await memoryApp();
  await twoStints(app);
  const r = view(app);
  const text = await waitFor(r.lastFrame, (t) => t.includes("Theoretical best"));
  // Lap 6 against lap 4, the circuit's best (see the first test).
  const notes = await app.analysis.notes(6, { ref: 4 });
  assert.ok(notes.notes.length > 0);
  const expected = notesLine(notes);
  const lines = text.split("\n");
  const shown = lines.at(-2)!;
  assert.ok(
    expected.startsWith(shown.replace(/…$/, "")) && shown.length > 20,
    `${shown}\n${expected}`,
  );
  assert.ok(shown.startsWith(notes.notes[0].cue ?? notes.notes[0].corner), shown);
  r.unmount();
  close();
});

Deno.test("an unnamed session's lap shows the session's own sectors, headed by the session", async () => {
  const { app, close } = await memoryApp();
  const drive = new SyntheticDrive({ seed: 7, laps: 3 });
  for (const frame of drive.frames()) app.live.ingest(frame);
  await app.live.flush();
  const [session] = await app.sessions.list();
  assert.equal(session.track_name, "");
  const laps = await app.sessions.laps(session.id);
  const lap = laps.at(-1)!;
  // What GET /api/analysis/sectors?session=ID&car=ID serves.
  const sectors = await app.analysis.sectors({ session: session.id, car: session.car_id });
  const r = view(app);
  const text = await waitFor(r.lastFrame, (t) => t.includes(`Session ${session.id}`));
  const lines = text.split("\n");
  assert.ok(!text.includes("Sectors need"), text);
  const heading = lines.findIndex((l) => l.includes(`Session ${session.id}`) && l.endsWith("best"));
  assert.ok(heading > 0, text);
  let sum = 0;
  for (const [k, s] of sectors.sectors.entries()) {
    const m = new RegExp(`${s.name} +(\\d+\\.\\d{3})(?: +\\d+\\.\\d{3})? +${s.best_s!.toFixed(3)}$`)
      .exec(lines[heading + 1 + k]);
    assert.ok(m, lines[heading + 1 + k]);
    sum += Number(m[1]);
  }
  // The lap's own times through the session's sectors tile it.
  assert.equal(Math.round(sum * 1000), lap.time_ms);
  assert.ok(text.includes(`Theoretical best ${formatLapTime(sectors.theoretical_best_ms!)}`), text);
  r.unmount();
  close();
});
