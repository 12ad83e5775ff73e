import { strict as assert } from "node:assert";
import fc from "fast-check";
import {
  delta,
  fit,
  gearText,
  INCOMPLETE_LEGEND,
  INCOMPLETE_MARK,
  lapMark,
  lapTime,
  lapTimer,
  pedalPct,
  plural,
  right,
} from "../../src/tui/format.ts";
import { litLights } from "../../src/tui/bars.tsx";
import { deltaToTrace, MAX_OFF_LINE_M } from "../../src/tui/live_delta.ts";
import { bestLap } from "../../src/tui/live_model.ts";
import { sameValue } from "../../src/tui/use_app_state.ts";

Deno.test("lap times and timers read as the driver expects", () => {
  assert.equal(lapTime(99036), "1:39.036");
  assert.equal(lapTime(null), "-:--.---");
  assert.equal(lapTimer(1716.7), "0:01.7");
  assert.equal(lapTimer(50034), "0:50.0");
  assert.equal(lapTimer(59999), "0:59.9");
  assert.equal(lapTimer(60000), "1:00.0");
  assert.equal(lapTimer(115250), "1:55.2");
  assert.equal(lapTimer(null), "-:--.-");
  assert.equal(lapTimer(-5), "-:--.-");
});

Deno.test("deltas are signed to the hundredth; zero counts as level (+)", () => {
  assert.equal(delta(-10), "-0.01");
  assert.equal(delta(250), "+0.25");
  assert.equal(delta(-1204), "-1.20");
  assert.equal(delta(0), "+0.00");
  assert.equal(delta(null), "--");
});

Deno.test("gears, pedals, padding and plurals", () => {
  assert.equal(gearText(0), "R");
  assert.equal(gearText(15), "N");
  assert.equal(gearText(6), "6");
  assert.equal(pedalPct(0), 0);
  assert.equal(pedalPct(254), 100);
  assert.equal(pedalPct(128), 50);
  assert.equal(pedalPct(300), 100);
  assert.equal(fit("McLaren VGT", 8), "McLaren…");
  assert.equal(fit("Spa", 5), "Spa  ");
  assert.equal(fit("x", 0), "");
  assert.equal(right("7", 3), "  7");
  assert.equal(right("1:39.036", 4), "1:3…");
  assert.equal(plural(1, "lap"), "1 lap");
  assert.equal(plural(0, "lap"), "0 laps");
});

Deno.test("fit always gives exactly the width asked for", () => {
  fc.assert(fc.property(fc.string({ unit: "grapheme-ascii" }), fc.nat(100), (s, w) => {
    assert.equal([...fit(s, w)].length, w);
  }));
});

Deno.test("rev lights: none up to the first alert rpm, all from the last, linear between", () => {
  assert.equal(litLights(7257, 8500, 9000, 30), 0);
  assert.equal(litLights(8500, 8500, 9000, 30), 0);
  assert.equal(litLights(8750, 8500, 9000, 30), 15);
  assert.equal(litLights(8600, 8500, 9000, 10), 2);
  assert.equal(litLights(9000, 8500, 9000, 12), 12);
  assert.equal(litLights(9900, 8500, 9000, 12), 12);
  assert.equal(litLights(9000, 0, 0, 12), 0);
});

// A straight reference along x, 1 m per sample, at 10 m/s: t = x / 10.
const straight = {
  t: Array.from({ length: 1001 }, (_, i) => i / 10),
  x: Array.from({ length: 1001 }, (_, i) => i),
  z: new Array(1001).fill(0),
};

Deno.test("deltaToTrace: the gap is elapsed time minus the reference's time at the car", () => {
  // At x = 50.5 the reference took 5.05 s; the car took 5.30 s: 0.25 s down.
  const d = deltaToTrace(straight, 50.5, 3, 5300, null)!;
  assert.equal(d.index, 51);
  assert.ok(Math.abs(d.deltaMs - 250) < 1e-6, String(d.deltaMs));
  // Ahead: 4.8 s to x = 50.
  assert.ok(Math.abs(deltaToTrace(straight, 50, 0, 4800, d.index)!.deltaMs + 200) < 1e-6);
});

Deno.test("deltaToTrace searches near the hint, so a closed lap's end is not matched at its start", () => {
  // A 50 s loop of radius 100 m: the reference ends where it started.
  const n = 3000;
  const loop = {
    t: Array.from({ length: n }, (_, i) => (i + 1) / 60),
    x: Array.from({ length: n }, (_, i) => 100 * Math.cos((2 * Math.PI * i) / n)),
    z: Array.from({ length: n }, (_, i) => 100 * Math.sin((2 * Math.PI * i) / n)),
  };
  // 0.2 s into a new lap, the car is at the reference's sample 10 (t = 11/60 s).
  const d = deltaToTrace(loop, loop.x[10], loop.z[10], 200, 0)!;
  assert.equal(d.index, 10);
  assert.ok(Math.abs(d.deltaMs - (200 - 11000 / 60)) < 1e-6);
  // Just short of the line, the car sits on the reference's last metres; a
  // new lap's search (hint 0) still takes the start, the nearest point it may see.
  assert.equal(deltaToTrace(loop, loop.x[n - 3], loop.z[n - 3], 50, 0)!.index, 0);
  // Without a hint, 49.9 s in, the window is centred at the end: the end is taken.
  assert.equal(deltaToTrace(loop, loop.x[n - 3], loop.z[n - 3], 49_900, null)!.index, n - 3);
  // Off the line: no comparison.
  assert.equal(deltaToTrace(loop, 0, 0, 200, 0), null);
  assert.equal(deltaToTrace({ t: [], x: [], z: [] }, 0, 0, 0, null), null);
  assert.equal(MAX_OFF_LINE_M, 40);
});

Deno.test("bestLap picks the fastest lap that counts, the earliest on a tie", () => {
  const laps = [
    { id: 1, time_ms: 99036, counts_for_best: true, complete: true },
    { id: 2, time_ms: 95000, counts_for_best: false, complete: true },
    { id: 3, time_ms: 98000, counts_for_best: true, complete: true },
    { id: 4, time_ms: 98000, counts_for_best: true, complete: true },
  ];
  assert.equal(bestLap(laps)?.id, 3);
  assert.equal(bestLap(laps.slice(1, 2)), null);
  assert.equal(bestLap([]), null);
});

Deno.test("bestLap never takes an incomplete lap as the reference, whatever it claims", () => {
  const laps = [
    { id: 1, time_ms: 99036, counts_for_best: true, complete: true },
    { id: 2, time_ms: 81000, counts_for_best: true, complete: false },
  ];
  assert.equal(bestLap(laps)?.id, 1);
  assert.equal(bestLap(laps.slice(1)), null);
});

Deno.test("lapMark: best, incomplete with what is missing, partial, or nothing", () => {
  const lap = { best: false, counts: true, complete: true, missing: 0 };
  assert.equal(lapMark({ ...lap, best: true }), "  * best");
  assert.equal(
    lapMark({ ...lap, counts: false, complete: false, missing: 120 }),
    "  ! incomplete, 120 missing",
  );
  assert.equal(lapMark({ ...lap, counts: false, complete: false }), "  ! incomplete");
  assert.equal(lapMark({ ...lap, counts: false }), "  (partial)");
  assert.equal(lapMark(lap), "");
  assert.ok(INCOMPLETE_LEGEND.startsWith(INCOMPLETE_MARK));
});

Deno.test("sameValue compares plain data by structure", () => {
  assert.ok(sameValue({ a: [1, { b: "x" }], c: null }, { a: [1, { b: "x" }], c: null }));
  assert.ok(!sameValue({ a: [1, 2] }, { a: [1, 3] }));
  assert.ok(!sameValue({ a: 1 }, { a: 1, b: undefined }));
  assert.ok(!sameValue([1], { 0: 1 }));
  assert.ok(!sameValue(null, {}));
  assert.ok(sameValue(NaN, NaN));
  fc.assert(fc.property(fc.jsonValue(), (v) => sameValue(v, structuredClone(v))));
});
