import { strict as assert } from "node:assert";
import {
  BRAKE_MIN_M,
  type CoachingNotes,
  coachingNotes,
  NOTE_MIN_S,
  type NotedLap,
  signedSeconds,
  THROTTLE_ON_PCT,
  throttleOnPoint,
} from "../../../src/core/analysis/coaching_notes.ts";
import { ENGLISH } from "../../../src/core/analysis/coaching_words.ts";
import { compareLaps } from "../../../src/core/analysis/compare.ts";
import {
  cornerReport,
  reportWithSpans,
  type Stretch,
} from "../../../src/core/analysis/corner_report.ts";
import { lapCorners } from "../../../src/core/analysis/corners.ts";
import { referenceCornerMap } from "../../../src/core/analysis/circuit_corners.ts";
import { traceOf } from "../../../src/core/analysis/lap_trace.ts";
import type { AnalysedLap } from "../../../src/core/analysis/types.ts";
import { referenceLineOf } from "../../../src/core/catalog/reference_lines.ts";
import { configurationById } from "../../../src/core/catalog/tracks.ts";
import { replayLine } from "../../../src/core/identify/reference_replay.ts";
import type { LapSamples } from "../../../src/core/laps/columns.ts";
import { computeEvents } from "../../../src/core/laps/events.ts";
import { LapRecorder } from "../../../src/core/laps/recorder.ts";
import { syntheticFrames } from "../../../src/core/synthetic/drive.ts";
import type { Mistake } from "../../../src/core/synthetic/mistakes.ts";
import { noFixtures } from "../../_fixtures.ts";
import { broadBeanLaps, suzukaLap } from "./_laps.ts";

const SEED = 25;

/** The timed laps of a steady synthetic drive (seed 25, three laps), ids 1 to 3, with events. */
function drive(mistakes: Mistake[] = []): NotedLap[] {
  const recorder = new LapRecorder();
  const laps: NotedLap[] = [];
  for (const frame of syntheticFrames({ seed: SEED, laps: 3, steady: true, mistakes })) {
    for (const e of recorder.push(frame)) {
      if (e.type !== "lap") continue;
      const s = e.lap.samples;
      laps.push({ id: e.lap.number, time_ms: e.lap.time_ms, samples: s, events: computeEvents(s) });
    }
  }
  assert.deepEqual(laps.length, 3);
  return laps;
}

const clean = drive();

/** The clean corner report of lap 3 against lap 2, by corner number. */
function cleanCorner(n: number) {
  return cornerReport(clean[2], clean[1]).corners.find((r) => r.n === n)!;
}

/** The stretch of `lap` (against `ref`) that corner `n`'s time is taken over, in its metres. */
function stretchOf(lap: AnalysedLap, ref: AnalysedLap, n: number): Stretch {
  const mine = traceOf(lap.samples);
  const { definitions, ...corners } = lapCorners(mine);
  const { stretches } = reportWithSpans(mine, traceOf(ref.samples), corners, {}, definitions);
  return stretches[corners.corners.findIndex((c) => c.n === n)];
}

/** Time the lap lost through [from, to] of its own metres, s, from the distance-aligned delta. */
function windowDelta(lap: AnalysedLap, ref: AnalysedLap, from: number, to: number): number {
  const cmp = compareLaps({ ref, laps: [lap], step: 1 });
  // The grid is in the reference's metres; the laps drive one line, so they agree within a metre.
  const at = (m: number) => cmp.laps[0].delta_s[Math.round(m)];
  return at(to) - at(from);
}

/** Notes of lap 3 with `mistake` against the same drive's clean lap 2. */
function mistaken(mistake: Mistake): { notes: CoachingNotes; lap: NotedLap; ref: NotedLap } {
  const laps = drive([mistake]);
  return { notes: coachingNotes(laps[2], laps[1]), lap: laps[2], ref: laps[1] };
}

function onlyNote(notes: CoachingNotes, n: number) {
  assert.deepEqual(notes.notes.map((x) => x.n), [n], notes.summary);
  return notes.notes[0];
}

Deno.test("a clean lap against another clean lap, and a lap against itself: no note", () => {
  const notes = coachingNotes(clean[2], clean[1]);
  assert.deepEqual(notes.notes, []);
  assert.deepEqual(notes.notes_sum_s, 0);
  assert.deepEqual(coachingNotes(clean[1], clean[1]).notes, []);
  assert.deepEqual(coachingNotes(clean[1], clean[1]).lap_delta_s, 0);
});

Deno.test("braking 25 m early for turn 3: one note, turn 3, braked 25 m earlier, brake later", () => {
  const corner = cleanCorner(3);
  const { notes, lap, ref } = mistaken({
    kind: "brake_early",
    lap: 3,
    atM: corner.apex_m,
    metres: 25,
  });
  const note = onlyNote(notes, 3);
  assert.deepEqual(note.causes[0].kind, "brake_earlier");
  assert(Math.abs(note.causes[0].value! - 25) <= 3, `${note.causes[0].value}`);
  assert.deepEqual(note.cue, "Turn 3: brake later");
  assert(note.text.startsWith(`Turn 3: ${note.loss_s.toFixed(2)} s lost: braked `), note.text);
  const row = cornerReport(lap, ref).corners.find((r) => r.n === 3)!;
  assert.deepEqual(note.loss_s, row.delta_s);
  const { from, to } = stretchOf(lap, ref, row.n);
  assert(from < row.entry_m && to > row.exit_m, `${from}-${to}`);
  const truth = windowDelta(lap, ref, from, to);
  assert(Math.abs(note.loss_s - truth) <= 0.02 * truth, `${note.loss_s} vs ${truth}`);
  // The cue is for the reference's braking point, before the corner.
  assert.deepEqual(note.cue_at_m, row.ref_brake_m);
  assert(note.cue_at_m! < row.entry_m);
});

Deno.test("braking 20 m early for turn 6 after the long straight", () => {
  const corner = cleanCorner(6);
  const { notes, lap, ref } = mistaken({
    kind: "brake_early",
    lap: 3,
    atM: corner.apex_m,
    metres: 20,
  });
  const note = onlyNote(notes, 6);
  assert.deepEqual(note.causes[0].kind, "brake_earlier");
  assert(Math.abs(note.causes[0].value! - 20) <= 3, `${note.causes[0].value}`);
  const row = cornerReport(lap, ref).corners.find((r) => r.n === 6)!;
  const { from, to } = stretchOf(lap, ref, row.n);
  assert(from < row.entry_m && to > row.exit_m, `${from}-${to}`);
  const truth = windowDelta(lap, ref, from, to);
  assert(Math.abs(note.loss_s - truth) <= 0.02 * truth, `${note.loss_s} vs ${truth}`);
});

Deno.test("carrying 8 km/h less through turn 5: one note, 8 km/h less at the minimum", () => {
  const corner = cleanCorner(5);
  const { notes, lap, ref } = mistaken({ kind: "slow_apex", lap: 3, atM: corner.apex_m, kmh: 8 });
  const note = onlyNote(notes, 5);
  assert.deepEqual(note.causes[0].kind, "min_slower");
  assert(Math.abs(note.causes[0].value! - 8) <= 1, `${note.causes[0].value}`);
  assert.deepEqual(note.cue, "Turn 5: carry more speed");
  const row = cornerReport(lap, ref).corners.find((r) => r.n === 5)!;
  const { from, to } = stretchOf(lap, ref, row.n);
  assert(from < row.entry_m && to > row.exit_m, `${from}-${to}`);
  const truth = windowDelta(lap, ref, from, to);
  assert(Math.abs(note.loss_s - truth) <= 0.02 * truth, `${note.loss_s} vs ${truth}`);
});

Deno.test("lifting for 30 m out of turn 6: on the throttle 30 m later, then the exit speed", () => {
  const corner = cleanCorner(6);
  const { notes, lap, ref } = mistaken({ kind: "lift", lap: 3, atM: corner.apex_m, metres: 30 });
  const note = onlyNote(notes, 6);
  assert.deepEqual(note.causes.map((c) => c.kind).slice(0, 2), ["throttle_later", "exit_slower"]);
  assert(Math.abs(note.causes[0].value! - 30) <= 3, `${note.causes[0].value}`);
  assert.deepEqual(note.cue, "Turn 6: throttle earlier");
  const row = cornerReport(lap, ref).corners.find((r) => r.n === 6)!;
  const { from, to } = stretchOf(lap, ref, row.n);
  assert(from < row.entry_m && to > row.exit_m, `${from}-${to}`);
  const truth = windowDelta(lap, ref, from, to);
  assert(Math.abs(note.loss_s - truth) <= 0.02 * truth, `${note.loss_s} vs ${truth}`);
});

Deno.test("the clean lap against the mistaken one: the same corner, gained, the causes mirrored", () => {
  const laps = drive([{ kind: "brake_early", lap: 3, atM: cleanCorner(3).apex_m, metres: 25 }]);
  const notes = coachingNotes(laps[1], laps[2]);
  const note = onlyNote(notes, 3);
  assert(note.loss_s < 0);
  assert.deepEqual(note.causes[0].kind, "brake_later");
  assert(note.text.includes("s gained"), note.text);
  // Nothing to correct where the lap was faster: "brake earlier" would undo the gain.
  assert.deepEqual([note.cue, note.cue_at_m], [null, null]);
});

Deno.test("the lap's total and the sum of the notes", () => {
  const { notes, lap, ref } = mistaken({
    kind: "brake_early",
    lap: 3,
    atM: cleanCorner(3).apex_m,
    metres: 25,
  });
  assert.deepEqual(notes.lap_delta_s, (lap.time_ms - ref.time_ms) / 1000);
  assert.deepEqual(notes.notes_sum_s, notes.notes[0].loss_s);
  assert.deepEqual(
    notes.summary,
    `Lap +${notes.lap_delta_s.toFixed(2)} s against the reference; 1 corner noted, +${
      notes.notes_sum_s.toFixed(2)
    } s`,
  );
});

/** Lap `samples` with the speed multiplied by `k` from `from` to `to` metres (the clock follows). */
function scaledBetween(samples: LapSamples, from: number, to: number, k: number): LapSamples {
  const t: number[] = [];
  const speed: number[] = [];
  let clock = samples.t[0];
  for (let i = 0; i < samples.t.length; i++) {
    const inside = samples.dist[i] > from && samples.dist[i] <= to;
    if (i > 0) clock += (samples.t[i] - samples.t[i - 1]) / (inside ? k : 1);
    t.push(clock);
    speed.push(samples.speed[i] * (inside ? k : 1));
  }
  return { ...samples, t, speed };
}

Deno.test("a corner 0.01 s slower gives no note; each cause only past its own threshold", () => {
  const lap = clean[2];
  const row = cleanCorner(2);
  const time = row.time_s;
  // Slower by a share that costs about 0.01 s through the window.
  const k = time / (time + 0.01);
  const slower = { ...lap, samples: scaledBetween(lap.samples, row.entry_m, row.exit_m, k) };
  const delta = cornerReport(slower, clean[1]).corners.find((r) => r.n === 2)!.delta_s!;
  assert(delta > 0 && delta < NOTE_MIN_S, `${delta}`);
  assert.deepEqual(coachingNotes(slower, clean[1]).notes, []);
  // 4 % slower: a note, and the minimum speed past its threshold, nothing about braking.
  const much = { ...lap, samples: scaledBetween(lap.samples, row.entry_m, row.exit_m, 0.96) };
  const note = onlyNote(coachingNotes(much, clean[1]), 2);
  assert.deepEqual(note.causes[0].kind, "min_slower");
  assert(!note.causes.some((c) => c.kind.startsWith("brake")), note.text);
  assert(BRAKE_MIN_M > 0);
});

Deno.test("events inside a corner's window are causes, after the figures, one per type", () => {
  const { lap, ref } = mistaken({
    kind: "brake_early",
    lap: 3,
    atM: cleanCorner(3).apex_m,
    metres: 25,
  });
  const row = cornerReport(lap, ref).corners.find((r) => r.n === 3)!;
  const events = [
    {
      type: "lockup",
      start_dist: row.brake_m! + 5,
      end_dist: row.brake_m! + 20,
      wheels: [],
      severity: 0.8,
    },
    { type: "lockup", start_dist: row.apex_m, end_dist: row.apex_m + 5, wheels: [], severity: 0.8 },
    { type: "bottoming", start_dist: row.apex_m, end_dist: row.apex_m, wheels: [], severity: 1 },
    {
      type: "kerb",
      start_dist: row.exit_m + 50,
      end_dist: row.exit_m + 50,
      wheels: [],
      severity: 1,
    },
  ];
  const note = onlyNote(coachingNotes({ ...lap, events } as NotedLap, ref), 3);
  assert.deepEqual(note.causes.at(-1)!.kind, "lockup");
  assert.deepEqual(note.causes.filter((c) => c.value === null).length, 1);
  assert(note.text.endsWith(", locked a wheel"), note.text);
});

Deno.test("every cause has words, every words table entry a cue", () => {
  for (const [kind, say] of Object.entries(ENGLISH.causes)) {
    assert(say("7").length > 0, kind);
    assert(ENGLISH.actions[kind as keyof typeof ENGLISH.actions].length > 0, kind);
  }
});

Deno.test("the throttle comes back on where it first reaches the threshold after the apex", () => {
  const trace = traceOf(clean[1].samples);
  const row = cleanCorner(6);
  const on = throttleOnPoint(trace, row.apex_m, trace.length)!;
  assert(on >= row.apex_m);
  const d = clean[1].samples.dist;
  const i = d.findIndex((x) => x >= on);
  assert(clean[1].samples.throttle[i] >= THROTTLE_ON_PCT);
});

Deno.test({
  name:
    "Broad Bean: notes for the three slower laps against the fastest, loss and order as the report",
  ignore: noFixtures,
  fn() {
    const laps = broadBeanLaps();
    const fastest = laps.reduce((a, b) => (b.time_ms < a.time_ms ? b : a));
    assert.deepEqual(fastest.id, 2);
    for (const lap of laps.filter((l) => l !== fastest)) {
      const notes = coachingNotes(lap, fastest);
      assert(notes.notes.length > 0, `lap ${lap.id}`);
      assertReportAgrees(notes, cornerReport(lap, fastest).corners);
    }
  },
});

Deno.test({
  name: "Suzuka: the capture against its reference line driven, on the circuit's corners",
  ignore: noFixtures,
  fn() {
    const lap = suzukaLap();
    const ref = referenceLap();
    const circuit = referenceCornerMap(configurationById("6e378b")!);
    const [slower, faster] = lap.time_ms > ref.time_ms ? [lap, ref] : [ref, lap];
    const notes = coachingNotes(slower, faster, null, { circuit });
    assert.deepEqual(notes.source, "circuit");
    assert(notes.notes.length > 0);
    assertReportAgrees(notes, cornerReport(slower, faster, null, { circuit }).corners);
    assert(notes.notes.every((n) => n.name !== ""), "the official corners have names");
  },
});

/** Every note is a report row past the threshold, with its delta, in the report's order. */
function assertReportAgrees(
  notes: CoachingNotes,
  rows: readonly { n: number; delta_s: number | null }[],
): void {
  const expected = rows.filter((r) => Math.abs(r.delta_s!) >= NOTE_MIN_S);
  assert.deepEqual(notes.notes.map((n) => [n.n, n.loss_s]), expected.map((r) => [r.n, r.delta_s]));
  const sum = Math.round(notes.notes.reduce((s, n) => s + n.loss_s, 0) * 1000) / 1000;
  assert.deepEqual(notes.notes_sum_s, sum);
}

/**
 * Suzuka's reference line driven as a lap (see reference_replay.ts), with
 * the pedals read off its speed: full brake while it slows harder than
 * drag would, full throttle while it speeds up.
 */
function referenceLap(): AnalysedLap {
  const r = replayLine(referenceLineOf("6e378b")!);
  const n = r.t.length;
  const s = {
    t: [] as number[],
    dist: [] as number[],
    speed: [] as number[],
    throttle: [] as number[],
    brake: [] as number[],
    pos_x: [] as number[],
    pos_z: [] as number[],
  };
  let d = 0;
  for (let i = 0; i < n; i++) {
    d += r.speed[i] / 3.6 / 60;
    const dv = i + 1 < n ? r.speed[i + 1] - r.speed[i] : 0;
    s.t.push(r.t[i] + 1 / 60);
    s.dist.push(d);
    s.speed.push(r.speed[i]);
    s.brake.push(dv < -0.05 ? 100 : 0);
    s.throttle.push(dv > 0.01 ? 100 : 30);
    s.pos_x.push(r.pos_x[i]);
    s.pos_z.push(r.pos_z[i]);
  }
  return { id: 11, time_ms: 0, samples: s as unknown as LapSamples };
}

Deno.test("signedSeconds writes time lost or gained with its sign and 2 dp", () => {
  assert.deepEqual(
    [0.42, -0.1, 0, -0, 1.234, -12.3].map(signedSeconds),
    ["+0.42", "-0.10", "+0.00", "+0.00", "+1.23", "-12.30"],
  );
});
