import { strict as assert } from "node:assert";
import fc from "fast-check";
import {
  biggestLoss,
  brakeCues,
  brakeFill,
  gap,
  lapSentence,
  lapTime,
  pitLap,
  referenceLine,
  sectorClass,
  shiftLights,
  timedCue,
} from "../../src/web/cues.js";

Deno.test("times and gaps read as a driver reads them", () => {
  assert.equal(lapTime(92_456), "1:32.456");
  assert.equal(lapTime(9_050), "0:09.050");
  assert.equal(lapTime(5_083), "0:05.083");
  assert.equal(lapTime(59_999.6), "1:00.000");
  assert.equal(lapTime(null), "--:--.---");
  assert.equal(gap(-1204), "-1.20");
  assert.equal(gap(310), "+0.31");
  assert.equal(gap(null), "--.--");
});

Deno.test("the brake bar fills over the last 2.5 s before the point", () => {
  // 180 km/h is 50 m/s: 125 m is 2.5 s out (empty), 25 m is 0.5 s (0.8 full).
  assert.equal(brakeFill({ distance_m: 125 }, 180), 0);
  assert.equal(brakeFill({ distance_m: 300 }, 180), 0);
  assert.equal(Math.round(brakeFill({ distance_m: 25 }, 180) * 100), 80);
  assert.equal(brakeFill({ distance_m: 0.1 }, 180) > 0.99, true);
  assert.equal(brakeFill(null, 180), 0);
  assert.equal(brakeFill({ distance_m: 10 }, 0), 0);
});

Deno.test('"brake" once per lap and corner, 0.3 s ahead; tones at 1, 0.5 and 0.05 s', () => {
  const seen = new Set<string>();
  const at = (d: number, lap = 2) => ({
    lap,
    speed_kmh: 180,
    next_brake: { corner: 4, distance_m: d },
  });
  assert.deepEqual(brakeCues(at(16), "voice", seen), []); // 0.32 s
  assert.deepEqual(brakeCues(at(14), "voice", seen), [{ kind: "speak", text: "brake" }]);
  assert.deepEqual(brakeCues(at(5), "voice", seen), []);
  assert.deepEqual(brakeCues(at(14, 3), "voice", seen), [{ kind: "speak", text: "brake" }]);
  const tones = new Set<string>();
  assert.deepEqual(brakeCues(at(60), "tones", tones), []);
  assert.deepEqual(brakeCues(at(50), "tones", tones), [{ kind: "tone", step: 0 }]);
  assert.deepEqual(brakeCues(at(24), "tones", tones), [{ kind: "tone", step: 1 }]);
  assert.deepEqual(brakeCues(at(2), "tones", tones), [{ kind: "tone", step: 2 }]);
  assert.deepEqual(brakeCues(at(2), "tones", tones), []);
  assert.deepEqual(brakeCues(at(2), "off", new Set()), []);
});

Deno.test("what is said at a lap's end: time and gap, then the biggest loss in words", () => {
  assert.equal(lapSentence(92_414, 92_100), "1 32.41, 0.31 slower");
  assert.equal(lapSentence(91_900, 92_100), "1 31.90, new best by 0.20");
  assert.equal(lapSentence(59_996, null), "1 00.00");
  const row = (name: string, delta: number | null, brake: number | null, ref: number | null) => ({
    name,
    delta_s: delta,
    brake_m: brake,
    ref_brake_m: ref,
    min_kmh: 80,
  });
  assert.equal(
    biggestLoss([row("Turn 4", 0.2149, 1188, 1200), row("Turn 1", 0.1, 300, 290)]),
    "Turn 4: 0.21 s, braked 12 m early",
  );
  assert.equal(biggestLoss([row("Turn 2", 0.05, 820, 811.6)]), "Turn 2: 0.05 s, braked 8 m late");
  assert.equal(biggestLoss([row("Turn 2", 0.05, null, 800)]), "Turn 2: 0.05 s");
  assert.equal(biggestLoss([row("Turn 2", 0.004, 700, 800)]), null);
  assert.equal(biggestLoss([]), null);
});

Deno.test("pit lap, shift lights and sector colours", () => {
  // 2.6 laps of fuel, half way round lap 3: 2.5 + 2.6 = 5.1 laps driven when empty, so pit at 5.
  assert.equal(pitLap(3, 45_000, { laps_to_empty: 2.6, lap_time_ms: 90_000 }), 5);
  assert.equal(pitLap(3, 45_000, { laps_to_empty: 0.2, lap_time_ms: 90_000 }), 3);
  assert.equal(pitLap(3, 0, { laps_to_empty: null, lap_time_ms: null }), null);
  assert.equal(shiftLights(5999, { min: 6000, max: 7000 }, 10), 0);
  assert.equal(shiftLights(6000, { min: 6000, max: 7000 }, 10), 1);
  assert.equal(shiftLights(7000, { min: 6000, max: 7000 }, 10), 10);
  assert.equal(shiftLights(8000, { min: 0, max: 0 }, 10), 0);
  assert.equal(sectorClass(30_000, 30_000), "pb");
  assert.equal(sectorClass(30_200, 30_000), "good");
  assert.equal(sectorClass(30_201, 30_000), "slow");
  assert.equal(sectorClass(null, 30_000), "");
});

Deno.test("the reference lap is named by its session and number, never by its lap id", () => {
  // Lap id 21 is lap 4 of session 2; the live session is 5.
  assert.equal(
    referenceLine(93_500, { session_id: 2, number: 4 }, 5),
    "vs your best here, 1:33.500 (session 2, lap 4)",
  );
  assert.equal(
    referenceLine(93_500, { session_id: 5, number: 3 }, 5),
    "vs this session's best, 1:33.500 (lap 3)",
  );
  // Before the row is read (or when it cannot be), the time alone.
  assert.equal(referenceLine(93_500, null, 5), "vs the reference, 1:33.500");
  // With no live session, a stored lap is another session's.
  assert.equal(
    referenceLine(93_500, { session_id: 2, number: 4 }, null),
    "vs your best here, 1:33.500 (session 2, lap 4)",
  );
  assert.equal(referenceLine(null, null, 5), "no reference yet");
  // The server's label, when the frame has one, is said as it is.
  const label = "your best of Suzuka Circuit / East Course (same road so far)";
  assert.equal(referenceLine(125_431, null, 5, label), `vs ${label}`);
  assert.equal(
    referenceLine(null, null, 5, "Alice's best · Suzuka Circuit 2:05.431"),
    "vs Alice's best · Suzuka Circuit 2:05.431",
  );
  assert.equal(referenceLine(null, null, 5, ""), "no reference yet");
  assert.equal(referenceLine(null, null, 5, null), "no reference yet");
});

const CUE = { text: "Turn 4: brake later", n: 4, loss_s: 0.214 };

Deno.test("the cue shows while its corner's brake marker fills, and not before or for another corner", () => {
  // 180 km/h is 50 m/s: the bar fills over the last 125 m (2.5 s).
  const at = (m: number, corner = 4, speed = 180) =>
    timedCue({ cue: CUE, next_brake: { corner, distance_m: m }, speed_kmh: speed });
  assert.equal(at(125), null);
  const shown = { head: "Turn 4: brake later", loss: "(0.21 s lost)" };
  assert.deepEqual(at(124.9), shown);
  assert.deepEqual(at(1), shown);
  assert.equal(at(100, 5), null);
  // Standing still, the marker never fills.
  assert.equal(at(10, 4, 0), null);
  assert.equal(timedCue({ cue: CUE, next_brake: null, speed_kmh: 180 }), null);
  assert.equal(
    timedCue({ cue: null, next_brake: { corner: 4, distance_m: 50 }, speed_kmh: 180 }),
    null,
  );
  assert.equal(timedCue({ next_brake: { corner: 4, distance_m: 50 }, speed_kmh: 180 }), null);
});

Deno.test("on any speed and distance, the cue is up exactly while the brake bar is", () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0, max: 400, noNaN: true }),
      fc.double({ min: 0, max: 2000, noNaN: true }),
      fc.integer({ min: 1, max: 20 }),
      (speed, metres, corner) => {
        const f = { cue: CUE, next_brake: { corner, distance_m: metres }, speed_kmh: speed };
        const up = corner === 4 && brakeFill(f.next_brake, speed) > 0;
        assert.equal(timedCue(f) !== null, up);
      },
    ),
  );
});
