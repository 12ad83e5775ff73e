/**
 * Coaching notes: what a lap did differently from a reference, corner by
 * corner, in words. Each note is one row of the corner report (same
 * corners, same windows, same `delta_s`) whose time lost or gained passes
 * {@linkcode NOTE_MIN_S}, with the causes its figures support, each past a
 * threshold of its own; so identical laps give no note, and a corner that
 * lost 0.01 s gives none. A cause is a difference between the laps: an
 * event both laps had in the corner (both locked a wheel) is none. Only a
 * corner that lost time gets a cue: there is nothing to correct where the
 * lap was faster. The words come from one table
 * (coaching_words.ts). Thresholds are documented in docs/analysis.md.
 *
 * @module
 */
import type { Corner } from "../bundle/types.ts";
import type { LapEvent } from "../laps/lap.ts";
import { round } from "../laps/sample.ts";
import { type CauseKind, type CoachingWords, ENGLISH } from "./coaching_words.ts";
import { lapCorners } from "./corners.ts";
import {
  type CornerReportOptions,
  minSpeed,
  refOf,
  reportWithSpans,
  type Span,
} from "./corner_report.ts";
import { lapTimeMs, type LapTrace, locateOne, traceOf, valueAt } from "./lap_trace.ts";
import { missingPedals, pedalOf } from "./pedals.ts";
import type { AnalysedLap, CornerReportRow } from "./types.ts";
import type { CoachingNote, CoachingNotes, NoteCause } from "./coaching_notes_schema.ts";

export type { CoachingNote, CoachingNotes, NoteCause } from "./coaching_notes_schema.ts";

/** Least time lost or gained in a corner that makes a note, s. */
export const NOTE_MIN_S = 0.05;
/** Least difference of braking point that is a cause, m. */
export const BRAKE_MIN_M = 5;
/** Least difference of minimum speed that is a cause, km/h. */
export const MIN_SPEED_MIN_KMH = 2;
/** Least difference of where the throttle came back on that is a cause, m. */
export const THROTTLE_MIN_M = 10;
/** Least difference of exit speed that is a cause, km/h. */
export const EXIT_MIN_KMH = 2;
/** Throttle share at which the driver counts as back on the throttle after the apex, percent. */
export const THROTTLE_ON_PCT = 90;
/** Event types that are causes of a note, when inside the corner's window. */
export const NOTE_EVENTS = ["lockup", "wheelspin", "off_track", "kerb"] as const;

/**
 * A lap as the notes need it: an analysed lap, and its events when known
 * (a reference without them shares no event with the lap).
 */
export interface NotedLap extends AnalysedLap {
  events?: readonly LapEvent[];
}

/**
 * Where the throttle first reached {@linkcode THROTTLE_ON_PCT} after
 * `from` and before `to`, metres (interpolated); null when it never did,
 * or the lap carries no throttle channel (pedals.ts).
 */
export function throttleOnPoint(trace: LapTrace, from: number, to: number): number | null {
  const throttle = pedalOf(trace.samples, "throttle");
  if (throttle === null) return null;
  const d = trace.dist;
  let k = locateOne(trace, from)[0];
  if (valueAt(trace, throttle, from) >= THROTTLE_ON_PCT) return from;
  for (; k < d.length && d[k] <= to; k++) {
    const v = throttle[k - 1];
    if (v < THROTTLE_ON_PCT) continue;
    const a = k >= 2 ? throttle[k - 2] : v;
    const f = v > a ? (THROTTLE_ON_PCT - a) / (v - a) : 1;
    return Math.max(from, d[k - 1] + (d[k] - d[k - 1]) * Math.min(1, Math.max(0, f)));
  }
  return null;
}

/** The figures of one corner on both laps that the causes are judged on. */
interface Figures {
  /** Positive: the lap braked earlier (m). */
  brake: number | null;
  /** Positive: the lap was slower at the minimum (km/h). */
  min: number;
  /** Positive: the lap got on the throttle later (m). */
  throttle: number | null;
  /** Positive: the lap left the corner slower (km/h). */
  exit: number;
}

/**
 * The notes of `lap` against `ref` on the corners of the corner report
 * (authored, else the circuit's map, else detected on `lap`), in the words
 * of `words` (default English). Every note with `loss_s < 0` (a gain) has
 * a null `cue` and `cue_at_m`; every other has both. No note lists as a
 * cause an event type the reference also had in that corner. When either
 * lap carries no brake (throttle) channel, no note names a braking
 * (throttle) cause, and `unknown` and the summary say so in words; the
 * time lost per corner is still noted. Pure; throws
 * BadRequest like the corner report for a lap without distance.
 */
export function coachingNotes(
  lap: NotedLap,
  ref: NotedLap,
  authored: readonly Corner[] | null = null,
  opts: CornerReportOptions = {},
  words: CoachingWords = ENGLISH,
): CoachingNotes {
  const mine = traceOf(lap.samples, `lap ${lap.id}`);
  const located = lapCorners(mine, authored, opts.detect, opts.circuit ?? null);
  const { definitions, map: _map, ...corners } = located;
  const theirs = refOf(ref, located);
  const { report, refSpans } = reportWithSpans(mine, theirs, corners, opts, definitions);
  const list = corners.corners;
  const spans = refSpans!;
  const index = new Map(list.map((c, j) => [c.n, j]));
  const entries = list.map((c) => c.entry_m);
  const notes: CoachingNote[] = [];
  for (const row of report.corners) {
    const loss = row.delta_s!;
    if (!(Math.abs(loss) >= NOTE_MIN_S)) continue;
    const j = index.get(row.n)!;
    const figures = figuresOf(mine, theirs, row, spans, j, entries);
    const shared = new Set(eventsIn(ref.events ?? [], refWindow(row, spans[j])).map((e) => e.type));
    const events = eventsIn(lap.events ?? [], row).filter((e) => !shared.has(e.type));
    notes.push(noteOf(row, loss, figures, events, words));
  }
  const total = round((lapTimeMs(lap, mine) - lapTimeMs(ref, theirs)) / 1000, 3);
  const sum = round(notes.reduce((s, n) => s + n.loss_s, 0), 3);
  // What a lap without pedals cannot tell is said, so no missing cause reads as "the same".
  const unknown = missingPedals(lap.samples, ref.samples).map((p) => words.unknown[p]);
  const summary = words.summary(signedSeconds(total), signedSeconds(sum), notes.length);
  return {
    lap_id: lap.id,
    ref_id: ref.id,
    ref_hub_lap_id: null,
    ref_driver: null,
    source: report.source,
    lap_start_m: report.lap_start_m,
    lap_delta_s: total,
    notes_sum_s: sum,
    summary: [summary, ...unknown].join(words.clause),
    unknown,
    notes,
  };
}

function figuresOf(
  mine: LapTrace,
  theirs: LapTrace,
  row: CornerReportRow,
  spans: readonly Span[],
  j: number,
  entries: readonly number[],
): Figures {
  const s = spans[j];
  const brake = row.brake_m !== null && row.ref_brake_m !== null
    ? row.ref_brake_m - row.brake_m
    : null;
  const refMin = minSpeed(theirs, s.entry, s.exit);
  const refExit = valueAt(theirs, theirs.samples.speed, s.exit);
  // Back on the throttle: searched from the apex up to the next corner's entry.
  const myEnd = j + 1 < entries.length ? entries[j + 1] : mine.length;
  const refEnd = j + 1 < spans.length ? spans[j + 1].entry : theirs.length;
  const myOn = throttleOnPoint(mine, row.apex_m, myEnd);
  const refOn = throttleOnPoint(theirs, s.apex, refEnd);
  return {
    brake,
    min: refMin - row.min_kmh,
    // The reference's point as the same distance past the apex on this lap.
    throttle: myOn !== null && refOn !== null ? myOn - (row.apex_m + (refOn - s.apex)) : null,
    exit: refExit - row.exit_kmh,
  };
}

/** Where a corner's events count, metres of one lap: from its braking point (or entry) to its exit. */
interface EventWindow {
  brake_m: number | null;
  entry_m: number;
  exit_m: number;
}

/**
 * The corner's window on the reference, in its own metres, from the earlier
 * of the two laps' braking points (each the same distance before the
 * apex): an event the reference had where either lap was braking for the
 * corner is one both laps had there.
 */
function refWindow(row: CornerReportRow, s: Span): EventWindow {
  const points = [row.ref_brake_m, row.brake_m].filter((b) => b !== null);
  const brake = points.length === 0 ? null : s.apex - (row.apex_m - Math.min(...points));
  return { brake_m: brake, entry_m: s.entry, exit_m: s.exit };
}

/** A lap's events of the note types that overlap `w`, from its braking point to its exit. */
function eventsIn(events: readonly LapEvent[], w: EventWindow): LapEvent[] {
  const from = Math.min(w.brake_m ?? w.entry_m, w.entry_m);
  return events.filter((e) =>
    (NOTE_EVENTS as readonly string[]).includes(e.type) && e.end_dist >= from &&
    e.start_dist <= w.exit_m
  );
}

function noteOf(
  row: CornerReportRow,
  loss: number,
  f: Figures,
  events: readonly LapEvent[],
  words: CoachingWords,
): CoachingNote {
  const ranked: { kind: CauseKind; value: number; weight: number }[] = [];
  const add = (v: number | null, min: number, more: CauseKind, less: CauseKind) => {
    if (v === null || !(Math.abs(v) >= min)) return;
    ranked.push({ kind: v > 0 ? more : less, value: Math.abs(v), weight: Math.abs(v) / min });
  };
  add(f.brake, BRAKE_MIN_M, "brake_earlier", "brake_later");
  add(f.min, MIN_SPEED_MIN_KMH, "min_slower", "min_faster");
  add(f.throttle, THROTTLE_MIN_M, "throttle_later", "throttle_earlier");
  ranked.sort((a, b) => b.weight - a.weight);
  // The exit speed follows from the others, so it comes after them.
  add(f.exit, EXIT_MIN_KMH, "exit_slower", "exit_faster");
  const causes: NoteCause[] = ranked.map((c) => ({
    kind: c.kind,
    value: round(c.value, 1),
    text: words.causes[c.kind](String(Math.round(c.value))),
  }));
  const seen = new Set<string>();
  for (const e of events) {
    if (seen.has(e.type)) continue;
    seen.add(e.type);
    const kind = e.type as CauseKind;
    causes.push({ kind, value: null, text: words.causes[kind]("") });
  }
  const turn = words.turn(String(row.n));
  // A detected corner's name is its number in words already.
  const corner = row.name === "" || row.name === turn ? turn : words.named(turn, row.name);
  const time = loss >= 0 ? words.lost(loss.toFixed(2)) : words.gained((-loss).toFixed(2));
  const text = causes.length === 0
    ? words.bare(corner, time)
    : words.note(corner, time, causes.map((c) => c.text).join(words.join));
  const action = causes.length === 0 ? words.watch : words.actions[causes[0].kind];
  // A gain is nothing to correct: its first cause's action would tell the driver to undo it.
  const gained = loss < 0;
  return {
    n: row.n,
    name: row.name,
    corner,
    loss_s: loss,
    causes,
    text,
    cue: gained ? null : words.cue(turn, action),
    cue_at_m: gained ? null : row.ref_brake_m ?? row.brake_m ?? row.entry_m,
  };
}

/**
 * Seconds with a sign and 2 dp, as the notes write time lost or gained:
 * "+0.42", "-0.10"; zero (and -0) is "+0.00".
 */
export function signedSeconds(s: number): string {
  return `${s >= 0 ? "+" : "-"}${Math.abs(s).toFixed(2)}`;
}
