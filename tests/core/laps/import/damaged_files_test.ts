/**
 * Damaged files of every format (bytes overwritten, cut short) never crash
 * the lap import: each is read, or refused as a client's fault
 * (ImportRejected or BadRequest, a 400), never with anything else (a 500).
 * Small synthetic laps keep it cheap.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import fc from "fast-check";
import { readLapImport } from "../../../../src/core/laps/import/recognise.ts";
import { lapCsvLines } from "../../../../src/core/laps/csv.ts";
import { encodeLd } from "../../../../src/core/motec/ld_writer.ts";
import { BadRequest, ImportRejected } from "../../../../src/core/errors.ts";
import type { MotecLap } from "../../../../src/core/motec/log.ts";
import { lineSamples } from "../../../_stored_laps.ts";

const N = 720;
const lap: MotecLap = {
  number: 2,
  time_ms: 12_000,
  finished_at: "2026-11-21T10:00:00.000Z",
  complete: true,
  samples_expected: N,
  samples_missing: 0,
  longest_gap_packets: 0,
  samples: lineSamples(N),
};
const csv = new TextEncoder().encode(
  [...lapCsvLines(lap, { carName: "Car 1", venue: "" })].join(""),
);
const ld = encodeLd({
  laps: [lap],
  driver: "",
  vehicle: "Car 1",
  venue: "",
  event: "",
  session: "",
});
const save = new TextEncoder().encode(JSON.stringify([{
  number: 2,
  lap_finish_time: 12_000,
  data_time: lap.samples.t,
  data_speed: lap.samples.speed,
  data_throttle: lap.samples.throttle,
  data_braking: lap.samples.brake,
  data_position_x: lap.samples.pos_x,
  data_position_z: lap.samples.pos_z,
}]));

Deno.test("the intact files read: one lap each, 720 samples, 12 s", () => {
  for (const bytes of [csv, ld, save]) {
    const [{ lap: read }] = readLapImport(bytes).laps;
    assert.deepEqual([read.number, read.time_ms, read.samples.t.length], [2, 12_000, N]);
  }
});

Deno.test("damaged files of every format are read or refused as a client's fault, never crash", () => {
  const damage = fc.record({
    file: fc.constantFrom(csv, ld, save),
    writes: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.nat(255)), {
      maxLength: 6,
    }),
    cut: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
  });
  fc.assert(
    fc.property(damage, ({ file, writes, cut }) => {
      const bytes = file.slice();
      for (const [at, value] of writes) bytes[Math.floor(at * (bytes.length - 1))] = value;
      const damaged = cut === undefined ? bytes : bytes.subarray(0, Math.floor(cut * bytes.length));
      try {
        readLapImport(damaged);
      } catch (err) {
        assert.ok(err instanceof ImportRejected || err instanceof BadRequest, String(err));
      }
    }),
    { numRuns: 300 },
  );
});
