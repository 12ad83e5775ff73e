import { strict as assert } from "node:assert";
import { noFixtures, readGzFixture } from "../../_fixtures.ts";
import { parseCapture } from "../../../src/core/gt7/capture.ts";
import { decodeFrame } from "../../../src/core/gt7/decode.ts";
import { FLAG, type Frame } from "../../../src/core/gt7/frame.ts";
import { LapRecorder, type RecordedLap } from "../../../src/core/laps/recorder.ts";

function framesOf(file: string): Frame[] {
  return parseCapture(readGzFixture(file)).packets.map(decodeFrame);
}

function record(frames: Iterable<Frame>) {
  const rec = new LapRecorder();
  const laps: RecordedLap[] = [];
  const kinds: string[] = [];
  for (const f of frames) {
    for (const e of rec.push(f)) {
      kinds.push(e.type === "session_end" ? `end:${e.reason}` : e.type);
      if (e.type === "lap") laps.push(e.lap);
    }
  }
  return { rec, laps, kinds };
}

Deno.test({
  name: "Suzuka capture gives one lap of 99036 ms and 5942 samples",
  ignore: noFixtures,
  fn() {
    const { laps } = record(framesOf("gt7/suzuka-full-lap.A.gt7.gz"));
    assert.equal(laps.length, 1);
    const lap = laps[0];
    assert.equal(lap.number, 1);
    assert.equal(lap.time_ms, 99036);
    assert.equal(lap.samples.t.length, 5942);
    assert.equal(lap.car_id, 3315);
    assert.equal(lap.samples.t[0], Math.round(1e4 / 60) / 1e4);
    // Time comes from packet ids: 5942 ticks (4 of them filled) cover 5942/60 s,
    // within one tick of the game's 99.036 s.
    assert.equal(lap.samples.t.at(-1), Math.round(5942 / 60 * 1e4) / 1e4);
    assert.ok(Math.abs(lap.samples.t.at(-1)! - 99.036) < 1 / 60);
    assert.equal(lap.samples.surface?.every((s) => s === 0), true);
    assert.equal(lap.samples.steer, undefined, "format A has no steering channel");
  },
});

Deno.test({
  name: "Spa capture gives one lap of 115244 ms carrying surface codes",
  ignore: noFixtures,
  fn() {
    const frames = framesOf("gt7/spa-full-lap.C.gt7.gz");
    const { laps } = record(frames);
    assert.equal(laps.length, 1);
    const lap = laps[0];
    assert.equal(lap.time_ms, 115244);
    assert.equal(lap.samples.t.length, frames.length - 1);
    const surface = lap.samples.surface!;
    assert.equal(surface.length, lap.samples.t.length);
    assert.ok(surface.every((s) => s !== 0));
    // Kerb (code 2) shows in some nibble of some tick.
    assert.ok(surface.some((s) => [0, 4, 8, 12].some((sh) => ((s >> sh) & 0xf) === 2)));
    assert.ok(lap.samples.throttle_f && lap.samples.steer, "format C carries ~ and B channels");
    assert.equal(lap.car_category.length > 0, true);
  },
});

Deno.test({
  name: "Nordschleife partial capture stores no lap and counts the duplicate and the gap",
  ignore: noFixtures,
  fn() {
    const { rec, laps } = record(framesOf("gt7/nordschleife-partial.tilde.gt7.gz"));
    assert.equal(laps.length, 0);
    assert.equal(rec.stats.duplicates, 1);
    assert.equal(rec.stats.missing, 1);
  },
});

function frame(over: Partial<Frame>): Frame {
  return {
    format: "A",
    packetId: 1,
    posX: 0,
    posY: 0,
    posZ: 0,
    velX: 0,
    velY: 0,
    velZ: 0,
    rotX: 0,
    rotY: 0,
    rotZ: 0,
    rotW: 1,
    angVelX: 0,
    angVelY: 0,
    angVelZ: 0,
    bodyHeight: 0.1,
    engineRpm: 5000,
    fuelLevel: 100,
    fuelCapacity: 100,
    speed: 50,
    boostRaw: 1,
    oilPressure: 4,
    waterTemp: 85,
    oilTemp: 90,
    tyreTemp: [70, 70, 70, 70],
    currentLap: 1,
    totalLaps: 0,
    bestLapMs: -1,
    lastLapMs: -1,
    dayProgressionMs: 0,
    racePosition: -1,
    totalPositions: -1,
    rpmAlertMin: 7000,
    rpmAlertMax: 8000,
    calculatedMaxSpeed: 300,
    flags: FLAG.inGear,
    gear: 3,
    suggestedGear: 15,
    throttle: 255,
    brake: 0,
    roadPlane: [0, 1, 0, 0],
    wheelRps: [150, 150, 150, 150],
    tyreRadius: [0.33, 0.33, 0.33, 0.33],
    suspension: [0.05, 0.05, 0.05, 0.05],
    clutch: 0,
    clutchEngagement: 1,
    rpmAfterClutch: 5000,
    transmissionTopSpeed: 0.4,
    gearRatios: [3.2, 2.1, 1.6, 1.2, 1, 0.8, 0, 0],
    carId: 42,
    motion: null,
    filtered: null,
    surface: null,
    ...over,
  };
}

/** A drive: `ticks` frames per lap under counters `from`.., with ids advancing by `step`. */
function* drive(opts: { laps: number[]; ticks: number; startId?: number; carId?: number }) {
  let id = opts.startId ?? 1000;
  for (const lap of opts.laps) {
    for (let i = 0; i < opts.ticks; i++) {
      yield frame({
        packetId: id++,
        currentLap: lap,
        lastLapMs: lap > 1 ? 61500 : -1,
        carId: opts.carId ?? 42,
        fuelLevel: 100 - i / opts.ticks * 2,
      });
    }
  }
}

Deno.test("a 0->1 transition never commits a lap; 1->2 does with the game's time", () => {
  const { laps } = record(drive({ laps: [0, 1, 2], ticks: 700 }));
  assert.equal(laps.length, 1);
  assert.equal(laps[0].number, 1);
  assert.equal(laps[0].time_ms, 61500);
  assert.equal(laps[0].samples.t.length, 700);
  assert.equal(laps[0].fuel_start, 100);
  assert.equal(laps[0].gearing.ratios.length, 6);
});

Deno.test("fewer than 600 samples is not a lap (the phantom-lap floor)", () => {
  assert.equal(record(drive({ laps: [1, 2], ticks: 599 })).laps.length, 0);
  assert.equal(record(drive({ laps: [1, 2], ticks: 600 })).laps.length, 1);
});

Deno.test("a car change or a counter drop starts a new session", () => {
  const frames = [
    ...drive({ laps: [1, 2], ticks: 650, startId: 1 }),
    ...drive({ laps: [3], ticks: 10, startId: 1301, carId: 43 }),
  ];
  assert.deepEqual(record(frames).kinds, [
    "session_start",
    "lap",
    "end:car_change",
    "session_start",
  ]);
  const drop = [
    ...drive({ laps: [2, 3], ticks: 650, startId: 1 }),
    ...drive({ laps: [1], ticks: 5, startId: 1301 }),
  ];
  assert.deepEqual(record(drop).kinds, [
    "session_start",
    "lap",
    "end:counter_drop",
    "session_start",
  ]);
});

Deno.test("paused and loading frames are not sampled; duplicates are dropped", () => {
  const frames = [...drive({ laps: [1], ticks: 700 })].map((f, i) =>
    i >= 100 && i < 160
      ? { ...f, flags: f.flags | FLAG.paused }
      : i >= 200 && i < 230
      ? { ...f, flags: FLAG.loading }
      : f
  );
  frames.splice(300, 0, frames[299]);
  const rec = new LapRecorder();
  for (const f of frames) rec.push(f);
  assert.equal(rec.stats.bufferedSamples, 700 - 60 - 30);
  assert.equal(rec.stats.duplicates, 1);
});

function bufferOf(frames: Frame[]) {
  const rec = new LapRecorder();
  for (const f of frames) rec.push(f);
  const boundary = { ...frames.at(-1)!, packetId: frames.at(-1)!.packetId + 1, currentLap: 2 };
  const lapEvent = rec.push({ ...boundary, lastLapMs: 12345 }).find((e) => e.type === "lap");
  return { rec, lap: lapEvent?.type === "lap" ? lapEvent.lap : undefined };
}

Deno.test("a gap of six packet ids advances time by 6/60 s and counts 5 lost packets", () => {
  const frames = [...drive({ laps: [1], ticks: 700 })].map((f, i) =>
    i >= 300 ? { ...f, packetId: f.packetId + 5 } : f
  );
  const { rec, lap } = bufferOf(frames);
  assert.ok(lap);
  assert.equal(lap.samples.t.length, 700);
  assert.equal(Math.round((lap.samples.t[300] - lap.samples.t[299]) * 1e4), 1000);
  assert.equal(lap.frames_dropped, 5);
  assert.equal(rec.stats.missing, 5);
  // Distance follows time: 50 m/s over 6 frames.
  assert.equal(Math.round((lap.samples.dist[300] - lap.samples.dist[299]) * 100) / 100, 5);
});

Deno.test("up to three lost packets are filled so the lap stays at a uniform 60 Hz", () => {
  const frames = [...drive({ laps: [1], ticks: 700 })].map((f, i) =>
    i >= 300 ? { ...f, packetId: f.packetId + 2, fuelLevel: 50 } : f
  );
  const { lap } = bufferOf(frames);
  assert.ok(lap);
  assert.equal(lap.samples.t.length, 702);
  assert.equal(lap.frames_dropped, 2);
  for (let i = 1; i < 702; i++) {
    // t is stored to 4 dp, so each step is 1/60 s within 0.0001 s.
    assert.ok(Math.abs(lap.samples.t[i] - lap.samples.t[i - 1] - 1 / 60) <= 1.0001e-4, `tick ${i}`);
  }
  // Filled ticks lie on the straight line between their neighbours.
  const fuel = lap.samples.fuel!;
  const before = fuel[299];
  assert.equal(fuel[300], Math.round((before + (50 - before) / 3) * 1000) / 1000);
  assert.equal(fuel[302], 50);
  assert.equal(lap.samples.gear![300], lap.samples.gear![299]);
});

Deno.test("stored values are never -0", async () => {
  const { round } = await import("../../../src/core/laps/sample.ts");
  assert.ok(Object.is(round(-0.00001, 4), 0));
  assert.ok(Object.is(round(-0, 2), 0));
  assert.equal(round(-1.25, 1), -1.2);
});
