/**
 * The Suzuka capture's lap as MoTeC CSV, read back by a real CSV parser
 * (csv-parse), the way a spreadsheet or i2 would see it.
 */
import { strict as assert } from "node:assert";
import { parse } from "csv-parse/sync";
import { noFixtures, readGzFixture } from "../../_fixtures.ts";
import { parseCapture } from "../../../src/core/gt7/capture.ts";
import { decodeFrame } from "../../../src/core/gt7/decode.ts";
import { LapRecorder, type RecordedLap } from "../../../src/core/laps/recorder.ts";
import { finishRecordedLap } from "../../../src/core/laps/recorded_lap.ts";
import { CSV_CHANNELS, lapCsvLines } from "../../../src/core/laps/csv.ts";
import { carName } from "../../../src/core/catalog/cars.ts";

function recordSuzuka(): RecordedLap {
  const rec = new LapRecorder();
  for (const p of parseCapture(readGzFixture("gt7/suzuka-full-lap.A.gt7.gz")).packets) {
    for (const e of rec.push(decodeFrame(p))) if (e.type === "lap") return e.lap;
  }
  throw new Error("no lap in the Suzuka capture");
}

Deno.test({
  name: "the Suzuka lap's CSV parses back: exact header, 27 fields a row, a row a sample",
  ignore: noFixtures,
  fn() {
    const lap = recordSuzuka();
    assert.equal(lap.car_id, 3315);
    const n = lap.samples.t.length;
    const text = [
      ...lapCsvLines(
        finishRecordedLap(lap, "2026-11-21T10:02:00.000Z"),
        { carName: carName(lap.car_id), venue: "Suzuka Circuit" },
      ),
    ].join("");
    const rows: string[][] = parse(text, { relax_column_count: true, skip_empty_lines: true });

    // 99.036 s before 10:02:00.000 is 10:00:20.964, the first sample's time.
    assert.deepEqual(rows.slice(0, 9), [
      ["Format", "MoTeC CSV File"],
      ["Device", "sim-datalogger"],
      ["Vehicle", carName(3315)],
      ["Comment", "Lap 1 - 1:39.036"],
      ["Log Date", "2026-11-21"],
      ["Sample Rate", "60.000", "Hz"],
      ["Log Time", "10:00:20 AM"],
      ["Duration", "99.036", "s"],
      ["Venue", "Suzuka Circuit"],
    ]);
    assert.equal(carName(3315), "McLaren VGT");

    const [names, units, ...data] = rows.slice(9);
    assert.equal(names.length, 27);
    assert.equal(units.length, 27);
    assert.deepEqual(names, CSV_CHANNELS.map((c) => c.name));
    assert.equal(names[0], "Time");
    assert.equal(names[26], "Driver Aids");
    assert.equal(units[26], "bitmask");
    assert.equal(data.length, n);
    assert.equal(n, 5942);
    for (const [i, row] of data.entries()) assert.equal(row.length, 27, `data row ${i}`);

    // Every cell reads back as the sample it came from.
    CSV_CHANNELS.forEach((c, k) => {
      const column = lap.samples[c.column]!;
      for (let i = 0; i < n; i++) {
        if (Number(data[i][k]) !== column[i]) {
          assert.fail(`${c.name} row ${i}: ${data[i][k]} != ${column[i]}`);
        }
      }
    });

    const lastTime = Number(data[n - 1][0]);
    assert.ok(Math.abs(lastTime - 99.036) <= 1 / 60, `Time ends at ${lastTime}`);
    assert.equal(lastTime, 99.0333);
  },
});
