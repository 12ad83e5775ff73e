/**
 * Events on the real captures, checked against the slip, suspension and
 * surface columns by a scan written here from REFERENCE 4.5's thresholds
 * alone, so that a mistake in events.ts cannot hide behind itself.
 */
import { strict as assert } from "node:assert";
import { noFixtures, readGzFixture } from "../../_fixtures.ts";
import { parseCapture } from "../../../src/core/gt7/capture.ts";
import { decodeFrame } from "../../../src/core/gt7/decode.ts";
import { LapRecorder } from "../../../src/core/laps/recorder.ts";
import { computeEvents, countEvents } from "../../../src/core/laps/events.ts";
import type { LapSamples, WheelCode } from "../../../src/core/laps/columns.ts";
import type { LapEvent } from "../../../src/core/laps/lap.ts";

const WHEELS: readonly WheelCode[] = ["fl", "fr", "rl", "rr"];
const CAP = 40;

function recordLap(file: string): LapSamples {
  const rec = new LapRecorder();
  for (const p of parseCapture(readGzFixture(file)).packets) {
    for (const e of rec.push(decodeFrame(p))) if (e.type === "lap") return e.lap.samples;
  }
  throw new Error(`no lap in ${file}`);
}

/** An event as tick indices, before distances are looked up. */
interface Scanned {
  type: string;
  first: number;
  last: number;
  wheels: WheelCode[];
  severity: number | null;
}

/** Maximal runs [first, last] of ticks where `on` holds, lasting at least `min` ticks. */
function maximalRuns(n: number, on: (i: number) => boolean, min: number): [number, number][] {
  const out: [number, number][] = [];
  let i = 0;
  while (i < n) {
    if (!on(i)) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < n && on(j + 1)) j++;
    if (j - i + 1 >= min) out.push([i, j]);
    i = j + 1;
  }
  return out;
}

function slipOf(s: LapSamples, w: WheelCode): number[] {
  return s[`slip_${w}`]!;
}

function susOf(s: LapSamples, w: WheelCode): number[] {
  return s[`sus_${w}`]!;
}

/** Lockups: brake >= 20 with a wheel under 0.9; wheelspin: throttle >= 40 with one over 1.1. */
function scanSlip(s: LapSamples, type: "lockup" | "wheelspin"): Scanned[] {
  const pedal = type === "lockup" ? s.brake : s.throttle;
  const pedalMin = type === "lockup" ? 20 : 40;
  const beyond = type === "lockup" ? (v: number) => v < 0.9 : (v: number) => v > 1.1;
  const on = (i: number) => pedal[i] >= pedalMin && WHEELS.some((w) => beyond(slipOf(s, w)[i]));
  return maximalRuns(s.t.length, on, 6).slice(0, CAP).map(([first, last]) => {
    const window = WHEELS.flatMap((w) => slipOf(s, w).slice(first, last + 1));
    return {
      type,
      first,
      last,
      wheels: WHEELS.filter((w) => slipOf(s, w).slice(first, last + 1).some(beyond)),
      severity: type === "lockup" ? Math.min(...window) : Math.max(...window),
    };
  });
}

function rangeOf(values: number[]): { min: number; range: number } {
  const min = Math.min(...values);
  return { min, range: Math.max(...values) - min };
}

function scanBottoming(s: LapSamples): Scanned[] {
  return WHEELS.flatMap((w) => {
    const sus = susOf(s, w);
    const { min, range } = rangeOf(sus);
    if (range < 1e-6) return [];
    const runs = maximalRuns(sus.length, (i) => sus[i] >= min + 0.98 * range, 3);
    return runs.slice(0, CAP).map(([first, last]) => ({
      type: "bottoming",
      first,
      last,
      wheels: [w],
      severity: (Math.max(...sus.slice(first, last + 1)) - min) / range,
    }));
  });
}

function scanKerb(s: LapSamples): Scanned[] {
  const out: Scanned[] = [];
  for (const w of WHEELS) {
    const sus = susOf(s, w);
    const { min, range } = rangeOf(sus);
    if (range < 1e-6) continue;
    for (let i = 2; i + 2 < sus.length; i++) {
      if (sus[i] - (sus[i - 2] + sus[i + 2]) / 2 > 0.35 * range) {
        out.push({
          type: "kerb",
          first: i,
          last: i,
          wheels: [w],
          severity: (sus[i] - min) / range,
        });
      }
    }
  }
  return out.slice(0, CAP);
}

/** Off-track runs; severity (a duration) is left to events_test. */
function scanOffTrack(s: LapSamples): Scanned[] {
  const surface = s.surface ?? [];
  const loose = (code: number, w: number) => {
    const nibble = (code >> (4 * w)) & 0xf;
    return nibble >= 3 && nibble <= 6;
  };
  const on = (i: number) => [0, 1, 2, 3].filter((w) => loose(surface[i], w)).length >= 3;
  return maximalRuns(surface.length, on, 6).slice(0, CAP).map(([first, last]) => ({
    type: "off_track",
    first,
    last,
    wheels: WHEELS.filter((_, w) => surface.slice(first, last + 1).some((c) => loose(c, w))),
    severity: null,
  }));
}

function scanAll(s: LapSamples): Scanned[] {
  return [
    ...scanSlip(s, "lockup"),
    ...scanSlip(s, "wheelspin"),
    ...scanBottoming(s),
    ...scanKerb(s),
    ...scanOffTrack(s),
  ];
}

/** A comparable form: distances, wheels, severity to 3 dp (off_track's left out). */
function key(
  e: { type: string; start: number; end: number; wheels: string[]; sev: number | null },
) {
  return `${e.type} ${e.start} ${e.end} ${e.wheels.join("+")} ${
    e.sev === null ? "-" : Math.round(e.sev * 1000) / 1000
  }`;
}

function moduleKey(e: LapEvent): string {
  return key({
    type: e.type,
    start: e.start_dist,
    end: e.end_dist,
    wheels: e.wheels,
    sev: e.type === "off_track" ? null : e.severity,
  });
}

/** Checks one module event directly against the columns, at the ticks its distances name. */
function checkAgainstColumns(s: LapSamples, e: LapEvent, tickOf: Map<number, number>): void {
  const first = tickOf.get(e.start_dist);
  const last = tickOf.get(e.end_dist);
  assert.ok(first !== undefined && last !== undefined, `${moduleKey(e)}: extent is not on a tick`);
  assert.ok(first <= last, moduleKey(e));
  const n = s.t.length;
  const ticks = Array.from({ length: last - first + 1 }, (_, k) => first + k);
  const what = `${moduleKey(e)} (ticks ${first}..${last})`;

  if (e.type === "lockup" || e.type === "wheelspin") {
    const lockup = e.type === "lockup";
    const pedal = lockup ? s.brake : s.throttle;
    const beyond = (v: number) => lockup ? v < 0.9 : v > 1.1;
    const active = (i: number) =>
      pedal[i] >= (lockup ? 20 : 40) && WHEELS.some((w) => beyond(slipOf(s, w)[i]));
    assert.ok(ticks.length >= 6, `${what}: shorter than 6 ticks`);
    assert.ok(ticks.every(active), `${what}: a tick inside is not active`);
    assert.ok(first === 0 || !active(first - 1), `${what}: starts late`);
    assert.ok(last === n - 1 || !active(last + 1), `${what}: ends early`);
    const wheels = WHEELS.filter((w) => ticks.some((i) => beyond(slipOf(s, w)[i])));
    assert.deepEqual(e.wheels, wheels, `${what}: wheels`);
  } else if (e.type === "bottoming") {
    assert.equal(e.wheels.length, 1, what);
    const sus = susOf(s, e.wheels[0]);
    const { min, range } = rangeOf(sus);
    const bottomed = (i: number) => sus[i] >= min + 0.98 * range;
    assert.ok(ticks.length >= 3, `${what}: shorter than 3 ticks`);
    assert.ok(ticks.every(bottomed), `${what}: a tick inside is not bottomed`);
    assert.ok(first === 0 || !bottomed(first - 1), `${what}: starts late`);
    assert.ok(last === n - 1 || !bottomed(last + 1), `${what}: ends early`);
  } else if (e.type === "kerb") {
    assert.equal(first, last, `${what}: a kerb strike has zero length`);
    assert.equal(e.wheels.length, 1, what);
    assert.ok(first >= 2 && first <= n - 3, `${what}: too near an end`);
    const sus = susOf(s, e.wheels[0]);
    const { range } = rangeOf(sus);
    assert.ok(sus[first] - (sus[first - 2] + sus[first + 2]) / 2 > 0.35 * range, what);
  } else {
    assert.fail(`unexpected event type in ${what}`);
  }
}

const FIXTURES: { file: string; counts: Record<string, number> }[] = [
  // Wheelspin out of La Source and the final chicane, bottoming through the
  // Eau Rouge compression (927-975 m), kerbs at Les Combes.
  {
    file: "gt7/spa-full-lap.C.gt7.gz",
    counts: { lockup: 2, wheelspin: 12, bottoming: 7, kerb: 7 },
  },
  {
    file: "gt7/suzuka-full-lap.A.gt7.gz",
    counts: { lockup: 4, wheelspin: 1, bottoming: 1, kerb: 1 },
  },
];

for (const { file, counts } of FIXTURES) {
  Deno.test({
    name: `events of the ${file} lap match an independent scan of its columns`,
    ignore: noFixtures,
    fn() {
      const s = recordLap(file);
      const events = computeEvents(s);
      assert.deepEqual(countEvents(events), counts);

      // The extent check maps distances back to ticks, which needs distinct distances.
      const tickOf = new Map(s.dist.map((d, i) => [d, i]));
      assert.equal(tickOf.size, s.dist.length, "dist has repeated values");

      for (const e of events) checkAgainstColumns(s, e, tickOf);

      // Both directions: nothing the scan finds is missing, nothing extra is reported.
      const expected = scanAll(s).map((x) =>
        key({
          type: x.type,
          start: s.dist[x.first],
          end: s.dist[x.last],
          wheels: x.wheels,
          sev: x.severity,
        })
      ).sort();
      assert.deepEqual(events.map(moduleKey).sort(), expected);

      for (let i = 1; i < events.length; i++) {
        const a = events[i - 1];
        const b = events[i];
        assert.ok(
          a.start_dist < b.start_dist || (a.start_dist === b.start_dist && a.type <= b.type),
          `events out of order at ${i}`,
        );
      }
    },
  });
}
