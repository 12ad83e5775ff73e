/**
 * MoTeC CSV and .ld read by the lap import: the Suzuka lap (every channel
 * the recorder makes) written by our exporters and read back, perturbed
 * copies (columns reordered, a lap rotated to start mid-track, a log
 * without its lap clock, truncated), MoTeC i2's own 1 Hz export, and the
 * CSV cell reader against the writer's cells (fast-check).
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import fc from "fast-check";
import { readLapImport } from "../../../../src/core/laps/import/recognise.ts";
import { csvCells } from "../../../../src/core/laps/import/motec_csv.ts";
import { lapCsvLines, textCell } from "../../../../src/core/laps/csv.ts";
import { encodeLd } from "../../../../src/core/motec/ld_writer.ts";
import { ImportRejected } from "../../../../src/core/errors.ts";
import { noFixtures, SHARED_REFERENCE } from "../../../_fixtures.ts";
import { suzukaMotecLap } from "../../motec/_motec_laps.ts";

const text = (s: string) => new TextEncoder().encode(s);

function suzukaCsv(): string {
  return [...lapCsvLines(suzukaMotecLap(), { carName: "Car 3315", venue: "Suzuka Circuit" })]
    .join("");
}

function suzukaLd(): Uint8Array {
  return encodeLd({
    laps: [suzukaMotecLap()],
    driver: "",
    vehicle: "Car 3315",
    venue: "Suzuka Circuit",
    event: "Gran Turismo 7",
    session: "Lap 1",
  });
}

Deno.test({
  name: "our CSV of the Suzuka lap reads back: lap time, samples and every CSV channel exactly",
  ignore: noFixtures,
  fn() {
    const original = suzukaMotecLap();
    const file = readLapImport(text(suzukaCsv()));
    assert.equal(file.format, "motec-csv");
    const [{ lap, source_hz }] = file.laps;
    assert.equal(source_hz, 60);
    assert.deepEqual([lap.number, lap.time_ms, lap.samples.t.length], [1, 99_036, 5942]);
    assert.equal(lap.track_name, "Suzuka Circuit");
    assert.equal(lap.car_name, "Car 3315");
    for (const c of ["t", "dist", "speed", "body_height", "aids", "tt_rl", "pos_z"] as const) {
      assert.deepEqual(lap.samples[c], original.samples[c], c);
    }
    // Not in the CSV: absent, not zero.
    assert.equal(lap.samples.steer, undefined);
    assert.equal(lap.samples.pos_y, undefined);
  },
});

Deno.test({
  name: "CSV perturbed: columns reordered, a lap rotated to start mid-track",
  ignore: noFixtures,
  fn() {
    const lines = suzukaCsv().split("\r\n");
    const head = lines.findIndex((l) => l.startsWith('"Time"'));
    const rows = lines.slice(head + 4).filter((l) => l !== "").map(csvCells);
    const names = csvCells(lines[head]);
    const order = names.map((_, k) => k).reverse();
    const pick = (cells: string[]) => order.map((k) => `"${cells[k]}"`).join(",");
    const k = 2500;
    const rotated = rows.map((r, i) => {
      const from = rows[(i + k) % rows.length];
      return r.map((cell, c) => (c === 0 ? cell : from[c]));
    });
    const csv = [
      ...lines.slice(0, head),
      pick(names),
      pick(csvCells(lines[head + 1])),
      "",
      "",
      ...rotated.map(pick),
      "",
    ].join("\r\n");
    const [{ lap }] = readLapImport(text(csv)).laps;
    const original = suzukaMotecLap();
    assert.deepEqual([lap.time_ms, lap.samples.t.length], [99_036, 5942]);
    assert.equal(lap.samples.pos_x[0], original.samples.pos_x[k]);
    assert.equal(lap.samples.speed[5942 - k], original.samples.speed[0]);
  },
});

Deno.test({
  name: "our .ld of the Suzuka lap reads back; without its lap clock it is one lap of the log",
  ignore: noFixtures,
  fn() {
    const original = suzukaMotecLap();
    const ld = suzukaLd();
    const [{ lap }] = readLapImport(ld).laps;
    assert.deepEqual([lap.number, lap.time_ms, lap.samples.t.length], [1, 99_036, 5942]);
    assert.equal(lap.track_name, "Suzuka Circuit");
    assert.deepEqual(lap.samples.body_height, original.samples.body_height);
    assert.deepEqual(lap.samples.gear, original.samples.gear);
    // Format A carries no steering: the log leaves it out, and so does the import.
    assert.equal(original.samples.steer, undefined);
    assert.equal(lap.samples.steer, undefined);
    for (let i = 0; i < 5942; i += 31) {
      assert.ok(Math.abs(lap.samples.pos_x[i] - original.samples.pos_x[i]) <= 0.011);
      // The mean of four slips stored to 4 decimals, against the mean of the unrounded four.
      assert.ok(Math.abs(lap.samples.tire_slip![i] - original.samples.tire_slip![i]) <= 2e-4);
    }
    // Another exporter's log: no "Lap Time" channel, no lap lines in the comment.
    const renamed = ld.slice();
    const at = findText(renamed, "Lap Time");
    renamed.set(new TextEncoder().encode("Elapsed\0"), at);
    const [other] = readLapImport(renamed).laps;
    assert.deepEqual([other.lap.samples.t.length, other.lap.time_ms], [5942, 99_033]);
  },
});

Deno.test({
  name: ".ld truncated or damaged: refused naming the channel",
  ignore: noFixtures,
  fn() {
    const ld = suzukaLd();
    assert.throws(
      () => readLapImport(ld.subarray(0, ld.length - 100)),
      (e: unknown) =>
        e instanceof ImportRejected &&
        /^\$\.channels\[\d+\] "GPS Altitude": MoTeC \.ld: data runs past the end/.test(e.message),
    );
    const looping = ld.slice();
    const view = new DataView(looping.buffer);
    const first = view.getUint32(0x08, true);
    view.setUint32(first + 124 + 4, first, true);
    assert.throws(() => readLapImport(looping), /the channel list loops/);
  },
});

Deno.test({
  name: "MoTeC i2's own 1 Hz export: recognised, its lap skipped for what it lacks, so refused",
  ignore: noFixtures,
  fn() {
    const bytes = Deno.readFileSync(join(SHARED_REFERENCE, "motec-i2-export-1hz.csv"));
    assert.throws(
      () => readLapImport(bytes),
      (e: unknown) =>
        e instanceof ImportRejected && e.message ===
          "$: recognised as MoTeC CSV, but no lap can be imported: " +
            "lap 1: before the first beacon: an out lap; " +
            "lap 3: after the last beacon: the lap was not finished; " +
            "lap 2: missing channels: Brake Pos, Pos X, Pos Z",
    );
  },
});

Deno.test("the CSV reader reads back every text cell the CSV writer writes", () => {
  fc.assert(
    fc.property(
      fc.array(fc.string().filter((s) => !/[\r\n]/.test(s)), { minLength: 1, maxLength: 5 }),
      (values) => {
        const cells = csvCells(values.map(textCell).join(","));
        const guarded = values.map((v) => (/^[=+\-@\t]/.test(v) ? `'${v}` : v));
        assert.deepEqual(cells, guarded);
      },
    ),
    { numRuns: 300 },
  );
});

/** Where the NUL-padded text `value` starts in `bytes` (a channel name field). */
function findText(bytes: Uint8Array, value: string): number {
  const want = new TextEncoder().encode(value + "\0");
  outer: for (let i = 0; i < bytes.length - want.length; i++) {
    for (let k = 0; k < want.length; k++) if (bytes[i + k] !== want[k]) continue outer;
    return i;
  }
  throw new Error(`${value} not found`);
}
