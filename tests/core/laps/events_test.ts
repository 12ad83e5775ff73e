import { strict as assert } from "node:assert";
import fc from "fast-check";
import { type LapSamples, WHEEL_CODES } from "../../../src/core/laps/columns.ts";
import { computeEvents, countEvents, EVENT_CAP } from "../../../src/core/laps/events.ts";
import type { LapEvent } from "../../../src/core/laps/lap.ts";
import { packSurface } from "../../../src/core/laps/surface_code.ts";

/**
 * n ticks at 60 Hz with dist = 5 i, off the pedals, every wheel rolling
 * (slip 1.0), suspension still at 50 mm and all four wheels on tarmac.
 */
function samples(n: number): LapSamples {
  const fill = (v: number) => Array<number>(n).fill(v);
  return {
    t: Array.from({ length: n }, (_, i) => i / 60),
    dist: Array.from({ length: n }, (_, i) => 5 * i),
    speed: fill(100),
    throttle: fill(0),
    brake: fill(0),
    coast: fill(0),
    tire_slip: fill(1),
    body_height: fill(80),
    pos_x: fill(0),
    pos_z: fill(0),
    slip_fl: fill(1),
    slip_fr: fill(1),
    slip_rl: fill(1),
    slip_rr: fill(1),
    sus_fl: fill(50),
    sus_fr: fill(50),
    sus_rl: fill(50),
    sus_rr: fill(50),
    surface: fill(packSurface("TTTT")),
  };
}

function set(column: number[], from: number, to: number, value: number): void {
  for (let i = from; i <= to; i++) column[i] = value;
}

const ofType = (events: LapEvent[], type: string) => events.filter((e) => e.type === type);

Deno.test("a still lap has no events", () => {
  assert.deepEqual(computeEvents(samples(300)), []);
});

Deno.test("lockup: FL slip 0.7 for ticks 40-49 under full brake", () => {
  const s = samples(100);
  set(s.brake, 30, 60, 100);
  set(s.slip_fl!, 40, 49, 0.7);
  assert.deepEqual(computeEvents(s), [
    { type: "lockup", start_dist: 200, end_dist: 245, wheels: ["fl"], severity: 0.7 },
  ]);
});

Deno.test("lockup: wheels are every wheel below 0.9; severity the lowest slip of all four", () => {
  const s = samples(100);
  set(s.brake, 0, 99, 50);
  set(s.slip_fl!, 10, 20, 0.85);
  set(s.slip_rr!, 15, 17, 0.41234);
  set(s.slip_fr!, 10, 20, 0.95); // slow but above the threshold: not a locking wheel
  const [e] = computeEvents(s);
  assert.deepEqual(e, {
    type: "lockup",
    start_dist: 50,
    end_dist: 100,
    wheels: ["fl", "rr"],
    severity: 0.412,
  });
});

Deno.test("lockup needs 6 ticks, brake >= 20 and slip < 0.9", () => {
  const short = samples(100);
  set(short.brake, 0, 99, 100);
  set(short.slip_fl!, 10, 14, 0.5);
  assert.deepEqual(computeEvents(short), []);

  const light = samples(100);
  set(light.brake, 0, 99, 19.9);
  set(light.slip_fl!, 10, 30, 0.5);
  assert.deepEqual(computeEvents(light), []);

  const edge = samples(100);
  set(edge.brake, 0, 99, 20);
  set(edge.slip_fl!, 10, 30, 0.9);
  assert.deepEqual(computeEvents(edge), []);
  set(edge.slip_fl!, 10, 15, 0.899);
  assert.equal(ofType(computeEvents(edge), "lockup").length, 1);
});

Deno.test("lockup ends when the brake is released", () => {
  const s = samples(100);
  set(s.brake, 40, 45, 100);
  set(s.slip_fl!, 40, 60, 0.5);
  const [e] = computeEvents(s);
  assert.equal(e.start_dist, 200);
  assert.equal(e.end_dist, 225);
});

Deno.test("wheelspin: rear slips 1.3 and 1.25 under throttle", () => {
  const s = samples(100);
  set(s.throttle, 0, 99, 100);
  set(s.slip_rl!, 20, 29, 1.3);
  set(s.slip_rr!, 20, 29, 1.25);
  set(s.slip_fl!, 20, 29, 1.05);
  assert.deepEqual(computeEvents(s), [
    { type: "wheelspin", start_dist: 100, end_dist: 145, wheels: ["rl", "rr"], severity: 1.3 },
  ]);
});

Deno.test("wheelspin needs throttle >= 40", () => {
  const s = samples(100);
  set(s.throttle, 0, 99, 39.9);
  set(s.slip_rl!, 20, 40, 2);
  assert.deepEqual(computeEvents(s), []);
});

Deno.test("a run reaching the last tick still counts", () => {
  const s = samples(50);
  set(s.brake, 0, 49, 100);
  set(s.slip_rl!, 44, 49, 0.2);
  assert.deepEqual(computeEvents(s).map((e) => [e.type, e.start_dist, e.end_dist]), [
    ["lockup", 220, 245],
  ]);
});

Deno.test("lockup and wheelspin are capped at 40 each, keeping the earliest", () => {
  const s = samples(1000);
  set(s.brake, 0, 999, 100);
  set(s.throttle, 0, 999, 100);
  for (let k = 0; k < 50; k++) {
    set(s.slip_fl!, 20 * k, 20 * k + 5, 0.5);
    set(s.slip_rr!, 20 * k + 10, 20 * k + 15, 1.5);
  }
  const events = computeEvents(s);
  const lockups = ofType(events, "lockup");
  const spins = ofType(events, "wheelspin");
  assert.equal(lockups.length, EVENT_CAP);
  assert.equal(spins.length, EVENT_CAP);
  assert.equal(lockups.at(-1)!.start_dist, 5 * 20 * 39);
  assert.equal(spins.at(-1)!.start_dist, 5 * (20 * 39 + 10));
});

Deno.test("slip events need all four slip columns", () => {
  const s = samples(100);
  set(s.brake, 0, 99, 100);
  set(s.slip_fl!, 10, 30, 0.5);
  delete s.slip_rr;
  assert.deepEqual(computeEvents(s), []);
  s.slip_rr = Array(99).fill(1); // one value short of a column
  assert.deepEqual(computeEvents(s), []);
});

/** A plateau of `ticks` at `top` mm on a 5 mm/tick ramp up from and down to 50 mm. */
function plateau(column: number[], at: number, ticks: number, top: number): void {
  const steps = Math.ceil((top - 50) / 5);
  for (let k = 1; k < steps; k++) {
    column[at - k] = top - 5 * k;
    column[at + ticks - 1 + k] = top - 5 * k;
  }
  set(column, at, at + ticks - 1, top);
}

Deno.test("bottoming: 3 ticks within 2 % of the wheel's full travel", () => {
  const s = samples(300);
  plateau(s.sus_fl!, 50, 3, 100); // range 50: bottomed from 99 mm
  plateau(s.sus_fl!, 150, 4, 99.5);
  plateau(s.sus_fl!, 250, 2, 100); // too short
  assert.deepEqual(computeEvents(s), [
    { type: "bottoming", start_dist: 250, end_dist: 260, wheels: ["fl"], severity: 1 },
    { type: "bottoming", start_dist: 750, end_dist: 765, wheels: ["fl"], severity: 0.99 },
  ]);
});

Deno.test("bottoming: a wheel that never moves has none", () => {
  const s = samples(100);
  set(s.sus_rr!, 0, 99, 12);
  set(s.sus_rr!, 50, 60, 12 + 1e-7);
  assert.deepEqual(computeEvents(s), []);
});

Deno.test("bottoming: at most 40 runs per wheel", () => {
  const s = samples(2000);
  for (let k = 0; k < 45; k++) {
    plateau(s.sus_fl!, 40 * k + 20, 3, 100);
    plateau(s.sus_rl!, 40 * k + 20, 3, 100);
  }
  const events = ofType(computeEvents(s), "bottoming");
  assert.equal(events.filter((e) => e.wheels[0] === "fl").length, 40);
  assert.equal(events.filter((e) => e.wheels[0] === "rl").length, 40);
  assert.equal(events.length, 80);
});

Deno.test("kerb: a one-tick spike is a zero-length strike", () => {
  const s = samples(100);
  s.sus_fr![40] = 80; // range 30; spike 30 over its neighbours > 0.35 * 30
  s.sus_fr![70] = 60; // spike 10 < 10.5: not a strike (but sets no new range)
  assert.deepEqual(computeEvents(s), [
    { type: "kerb", start_dist: 200, end_dist: 200, wheels: ["fr"], severity: 1 },
  ]);
});

Deno.test("kerb: ticks 0, 1, n-2 and n-1 are never tested", () => {
  const s = samples(100);
  s.sus_fl![1] = 80;
  s.sus_fl![98] = 80;
  s.sus_fl![50] = 50.000001; // keeps the range 30 without a strike of its own
  assert.deepEqual(computeEvents(s), []);
  s.sus_fl![2] = 80;
  assert.deepEqual(computeEvents(s).map((e) => e.start_dist), [10]);
});

Deno.test("kerb: severity is the spike's height over the wheel's range", () => {
  const s = samples(100);
  s.sus_rl![10] = 150; // sets the range to 100
  s.sus_rl![60] = 120;
  const kerbs = ofType(computeEvents(s), "kerb");
  assert.deepEqual(kerbs.map((e) => [e.start_dist, e.severity]), [[50, 1], [300, 0.7]]);
});

Deno.test("kerb: one cap of 40 over all wheels, front-left first", () => {
  const s = samples(400);
  for (let k = 0; k < 30; k++) {
    s.sus_fl![10 * k + 5] = 80;
    s.sus_fr![10 * k + 5] = 80;
  }
  const kerbs = ofType(computeEvents(s), "kerb");
  assert.equal(kerbs.length, 40);
  assert.equal(kerbs.filter((e) => e.wheels[0] === "fl").length, 30);
  assert.equal(kerbs.filter((e) => e.wheels[0] === "fr").length, 10);
  assert.equal(
    Math.max(...kerbs.filter((e) => e.wheels[0] === "fr").map((e) => e.start_dist)),
    5 * 95,
  );
});

Deno.test("off_track: wheels loose during the excursion; severity its duration in s", () => {
  const s = samples(100);
  set(s.surface!, 20, 29, packSurface("GGGT"));
  s.surface![25] = packSurface("GGGD");
  set(s.surface!, 60, 64, packSurface("GGGG")); // 5 ticks: not an excursion
  set(s.surface!, 80, 99, packSurface("GGTT")); // 2 wheels: not an excursion
  assert.deepEqual(computeEvents(s), [
    {
      type: "off_track",
      start_dist: 100,
      end_dist: 145,
      wheels: ["fl", "fr", "rl", "rr"],
      severity: 0.167, // 10 ticks at 60 Hz
    },
  ]);
});

Deno.test("off_track: dropped packets during an excursion count as time", () => {
  const s = samples(20);
  s.t = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19].map((f) => f / 60);
  for (let i = 8; i < 20; i++) s.t[i] += 30 / 60; // half a second lost before tick 8
  set(s.surface!, 5, 10, packSurface("SSSS"));
  const [e] = computeEvents(s);
  assert.equal(e.severity, 0.6); // 5 + 31 frames
  assert.deepEqual(e.wheels, ["fl", "fr", "rl", "rr"]);
});

Deno.test("off_track: capped at 40; none without a surface column", () => {
  const s = samples(1000);
  for (let k = 0; k < 45; k++) set(s.surface!, 20 * k, 20 * k + 7, packSurface("DDDT"));
  assert.equal(ofType(computeEvents(s), "off_track").length, 40);
  delete s.surface;
  assert.deepEqual(computeEvents(s), []);
});

Deno.test("events are sorted by start distance, then type", () => {
  const s = samples(200);
  set(s.brake, 0, 199, 100);
  set(s.slip_fl!, 100, 110, 0.5); // lockup from 500
  s.sus_fl![100] = 80; // kerb at 500
  set(s.surface!, 50, 60, packSurface("GGGG")); // off_track from 250
  s.sus_rr![20] = 80; // kerb at 100
  const events = computeEvents(s);
  assert.deepEqual(events.map((e) => [e.start_dist, e.type]), [
    [100, "kerb"],
    [250, "off_track"],
    [500, "kerb"],
    [500, "lockup"],
  ]);
});

Deno.test("no events without a dist column of one value per tick", () => {
  const s = samples(100);
  set(s.brake, 0, 99, 100);
  set(s.slip_fl!, 10, 30, 0.5);
  s.sus_fl![40] = 80;
  assert.equal(computeEvents(s).length, 2);
  s.dist = s.dist.slice(1);
  assert.deepEqual(computeEvents(s), []);
  assert.deepEqual(computeEvents({ ...s, dist: undefined as unknown as number[] }), []);
});

Deno.test("a version 1 lap (15 base columns) has no events", () => {
  const s = samples(100);
  for (const w of WHEEL_CODES) {
    delete s[`slip_${w}`];
    delete s[`sus_${w}`];
  }
  delete s.surface;
  set(s.brake, 0, 99, 100);
  assert.deepEqual(computeEvents(s), []);
});

Deno.test("countEvents counts each type present", () => {
  const s = samples(200);
  set(s.brake, 0, 199, 100);
  set(s.slip_fl!, 10, 20, 0.5);
  set(s.slip_fl!, 50, 60, 0.5);
  s.sus_fl![100] = 80;
  assert.deepEqual(countEvents(computeEvents(s)), { lockup: 2, kerb: 1 });
  assert.deepEqual(countEvents([]), {});
});

Deno.test("lockups are exactly the maximal braked runs of >= 6 ticks with a wheel below 0.9", () => {
  const tick = fc.record({
    brake: fc.constantFrom(0, 19, 20, 100),
    slips: fc.tuple(...WHEEL_CODES.map(() => fc.constantFrom(0.5, 0.89, 0.9, 1.0, 1.2))),
  });
  fc.assert(
    fc.property(fc.array(tick, { minLength: 1, maxLength: 400 }), (ticks) => {
      const s = samples(ticks.length);
      ticks.forEach((k, i) => {
        s.brake[i] = k.brake;
        WHEEL_CODES.forEach((w, j) => (s[`slip_${w}`]![i] = k.slips[j]));
      });
      // Independent scan: find runs by walking the ticks by hand.
      const expected: [number, number, string[]][] = [];
      const active = (i: number) => ticks[i].brake >= 20 && ticks[i].slips.some((x) => x < 0.9);
      for (let i = 0; i < ticks.length;) {
        if (!active(i)) {
          i++;
          continue;
        }
        let j = i;
        while (j + 1 < ticks.length && active(j + 1)) j++;
        if (j - i + 1 >= 6 && expected.length < 40) {
          const wheels = WHEEL_CODES.filter((_, w) =>
            ticks.slice(i, j + 1).some((k) => k.slips[w] < 0.9)
          );
          expected.push([5 * i, 5 * j, [...wheels]]);
        }
        i = j + 1;
      }
      const got = ofType(computeEvents(s), "lockup").map((
        e,
      ) => [e.start_dist, e.end_dist, e.wheels]);
      assert.deepEqual(got, expected);
    }),
  );
});
