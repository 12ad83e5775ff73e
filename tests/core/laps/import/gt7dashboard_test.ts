/**
 * gt7dashboard's save read by the lap import: the fixtures' real file
 * (4 laps of Broad Bean Raceway) with its exact lap times and sample counts,
 * and perturbed copies (keys reordered, channels missing, other rates, a lap
 * rotated to start mid-track, truncated and malformed files).
 *
 * @module
 */
import { strict as assert } from "node:assert";
import fc from "fast-check";
import { readLapImport } from "../../../../src/core/laps/import/recognise.ts";
import { BadRequest, ImportRejected } from "../../../../src/core/errors.ts";
import { expectedSamples } from "../../../../src/core/laps/coverage.ts";
import { noFixtures, readFixture } from "../../../_fixtures.ts";

const FILE = "gt7/broad-bean-raceway-4-laps.json";

type SaveLap = Record<string, unknown> & { data_time: number[] };

function save(): SaveLap[] {
  return JSON.parse(new TextDecoder().decode(readFixture(FILE)));
}

function bytesOf(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value));
}

/** The laps as the file holds them: number, lap time and ticks, in file order. */
const FILE_LAPS = [
  { number: 5, time_ms: 32_722, samples: 1963 },
  { number: 4, time_ms: 32_559, samples: 1954 },
  { number: 3, time_ms: 32_679, samples: 1961 },
  { number: 2, time_ms: 32_651, samples: 1959 },
];

Deno.test({
  name: "the fixtures' gt7dashboard save: 4 laps with the file's lap times and sample counts",
  ignore: noFixtures,
  fn() {
    const file = readLapImport(readFixture(FILE));
    assert.equal(file.format, "gt7dashboard");
    assert.deepEqual(file.skipped, []);
    assert.deepEqual(
      file.laps.map((l) => ({
        number: l.lap.number,
        time_ms: l.lap.time_ms,
        samples: l.lap.samples.t.length,
      })),
      FILE_LAPS,
    );
    for (const { lap, source_hz } of file.laps) {
      assert.equal(source_hz, 60);
      assert.equal(lap.car_id, 1549);
      assert.equal(lap.fuel_start, 100);
      // Channels the save does not carry stay absent, never zeros.
      for (const c of ["body_height", "fuel", "surface", "aids", "tt_fl", "slip_fl"] as const) {
        assert.equal(lap.samples[c], undefined, c);
      }
      assert.equal(lap.samples.t[0], 0.0167);
      // The pedals come across as they are (0..100 %), speed in km/h.
      assert.ok(lap.samples.throttle.every((v) => v >= 0 && v <= 100));
      // About one Broad Bean lap (1,665 m official) of distance from speed over time.
      const dist = lap.samples.dist.at(-1)!;
      assert.ok(dist > 1650 && dist < 1720, `distance ${dist}`);
    }
    const raw = save()[0];
    const first = file.laps[0].lap.samples;
    assert.equal(first.speed[10], Math.round((raw.data_speed as number[])[10] * 100) / 100);
    assert.equal(
      first.tire_slip![10],
      Math.round((raw.data_tires as number[])[10] / 4 * 1e4) / 1e4,
    );
  },
});

Deno.test({
  name: "gt7dashboard: keys reordered, a lap rotated to start mid-track: same laps",
  ignore: noFixtures,
  fn() {
    const laps = save().map((l) => Object.fromEntries(Object.entries(l).reverse()));
    const rotated = { ...laps[1] } as SaveLap;
    const k = 700;
    for (const [key, values] of Object.entries(rotated)) {
      if (key.startsWith("data_") && key !== "data_time" && Array.isArray(values)) {
        rotated[key] = [...values.slice(k), ...values.slice(0, k)];
      }
    }
    laps[1] = rotated;
    const file = readLapImport(bytesOf(laps));
    assert.deepEqual(
      file.laps.map((l) => [l.lap.number, l.lap.time_ms, l.lap.samples.t.length]),
      FILE_LAPS.map((l) => [l.number, l.time_ms, l.samples]),
    );
    const x = (save()[1].data_position_x as number[])[k];
    assert.equal(file.laps[1].lap.samples.pos_x[0], Math.round(x * 100) / 100);
  },
});

Deno.test({
  name:
    "gt7dashboard: a lap without brakes is skipped by name; absent optional channels stay absent",
  ignore: noFixtures,
  fn() {
    const laps = save();
    delete laps[2].data_braking;
    delete laps[0].data_rpm;
    delete laps[0].data_position_y;
    const file = readLapImport(bytesOf(laps));
    assert.deepEqual(file.skipped, [{ lap: 3, reason: "missing channels: data_braking" }]);
    assert.deepEqual(file.laps.map((l) => l.lap.number), [5, 4, 2]);
    assert.equal(file.laps[0].lap.samples.rpm, undefined);
    assert.equal(file.laps[0].lap.samples.pos_y, undefined);
    assert.equal(file.laps[1].lap.samples.rpm?.length, 1954);
  },
});

Deno.test({
  name: "gt7dashboard at other rates: resampled to 60 Hz over the lap time, the rate kept",
  ignore: noFixtures,
  fn() {
    const original = save()[3];
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 12 }), (step) => {
        const thinned: Record<string, unknown> = { ...original };
        for (const [key, values] of Object.entries(original)) {
          if (key.startsWith("data_") && Array.isArray(values)) {
            thinned[key] = values.filter((_, i) => i % step === 0);
          }
        }
        const [{ lap, source_hz }] = readLapImport(bytesOf([thinned])).laps;
        assert.equal(source_hz, Math.round(6000 / step) / 100);
        assert.equal(lap.time_ms, 32_651);
        assert.equal(lap.samples.t.length, expectedSamples(32_651));
        assert.equal(lap.samples.speed.length, lap.samples.t.length);
        const speeds = original.data_speed as number[];
        const top = Math.max(...speeds);
        assert.ok(Math.max(...lap.samples.speed) <= Math.round(top * 100) / 100 + 1e-9);
      }),
      { numRuns: 8 },
    );
  },
});

Deno.test({
  name: "gt7dashboard: truncated or malformed files are refused whole, naming where",
  ignore: noFixtures,
  fn() {
    const bytes = readFixture(FILE);
    assert.throws(() => readLapImport(bytes.subarray(0, bytes.length - 1000)), BadRequest);
    const laps = save();
    (laps[1].data_speed as unknown[])[7] = "fast";
    (laps[3].data_throttle as unknown[]).pop();
    laps[2].lap_finish_time = -1;
    const err: unknown = (() => {
      try {
        readLapImport(bytesOf(laps));
        return null;
      } catch (e) {
        return e;
      }
    })();
    assert.ok(err instanceof ImportRejected);
    assert.deepEqual(err.issues, [
      { path: "$[1].data_speed[7]", message: "must be a finite number" },
      { path: "$[2].lap_finish_time", message: "must be a whole number >= 0" },
      {
        path: "$[3].data_throttle",
        message: "must hold one value per data_time entry: 1958, not 1959",
      },
    ]);
    assert.throws(
      () => readLapImport(bytesOf([{ data_speed: [1, 2] }])),
      (e: unknown) =>
        e instanceof ImportRejected &&
        e.issues[0].path === "$[0].data_time" && e.issues[0].message === "required",
    );
  },
});

Deno.test("a short gt7dashboard lap is skipped with the minimum; with nothing left the file is refused", () => {
  const n = 300;
  const lap = {
    number: 1,
    lap_finish_time: 5000,
    car_id: 3,
    data_time: Array.from({ length: n }, (_, i) => 10 + i / 60),
    data_speed: new Array(n).fill(100),
    data_throttle: new Array(n).fill(100),
    data_braking: new Array(n).fill(0),
    data_position_x: Array.from({ length: n }, (_, i) => i),
    data_position_z: new Array(n).fill(0),
  };
  assert.throws(
    () => readLapImport(bytesOf([lap])),
    (e: unknown) =>
      e instanceof ImportRejected && e.message ===
        "$: recognised as gt7dashboard save, but no lap can be imported: " +
          "lap 1: lap of 5.000 s is under the 10 s minimum",
  );
});
