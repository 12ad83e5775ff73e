import { strict as assert } from "node:assert";
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { type LapSamples, SAMPLE_COLUMNS, V1_COLUMNS } from "../../../src/core/laps/columns.ts";
import {
  CSV_CHANNELS,
  type CsvLap,
  lapCsvLines,
  lapTimeText,
  plainNumber,
  textCell,
} from "../../../src/core/laps/csv.ts";

/** SPEC.md 4.7's channels and units, in its order. */
const SPEC_NAMES = [
  "Time",
  "Distance",
  "Ground Speed",
  "Throttle Pos",
  "Brake Pos",
  "Gear",
  "Engine RPM",
  "Boost Pressure",
  "Tyre Slip Ratio",
  "Yaw Rate",
  "Pos X",
  "Pos Z",
  "Ride Height",
  "Fuel Level",
  "Tyre Slip FL",
  "Tyre Slip FR",
  "Tyre Slip RL",
  "Tyre Slip RR",
  "Tyre Temp FL",
  "Tyre Temp FR",
  "Tyre Temp RL",
  "Tyre Temp RR",
  "Susp Travel FL",
  "Susp Travel FR",
  "Susp Travel RL",
  "Susp Travel RR",
  "Driver Aids",
];
const SPEC_UNITS = [
  "s",
  "m",
  "km/h",
  "%",
  "%",
  "",
  "rpm",
  "bar",
  "",
  "rad/s",
  "m",
  "m",
  "mm",
  "L",
  "",
  "",
  "",
  "",
  "C",
  "C",
  "C",
  "C",
  "mm",
  "mm",
  "mm",
  "mm",
  "bitmask",
];

const HEADER_ROWS = 9;
const NAME_ROW = HEADER_ROWS + 2;
const FIRST_DATA_ROW = NAME_ROW + 4;

/** A lap of n ticks with every column, values of assorted magnitudes. */
function lap(n: number, over: Partial<CsvLap> = {}): CsvLap {
  const samples: Record<string, number[]> = {};
  SAMPLE_COLUMNS.forEach((c, k) => {
    samples[c] = Array.from({ length: n }, (_, i) => Math.cos(i + k) * 10 ** ((i + k) % 12 - 6));
  });
  samples.t = Array.from({ length: n }, (_, i) => Math.round((i / 60) * 1e4) / 1e4);
  return {
    number: 3,
    time_ms: 61_500,
    finished_at: "2024-05-01T17:27:03.500Z",
    complete: true,
    samples_expected: 3690,
    samples_missing: 0,
    longest_gap_packets: 0,
    samples: samples as unknown as LapSamples,
    ...over,
  };
}

const OPTS = { carName: "Supra RZ '97", venue: "Suzuka Circuit" };

function csvText(l: CsvLap, opts = OPTS): string {
  return [...lapCsvLines(l, opts)].join("");
}

function records(text: string): string[][] {
  return parse(text, { relax_column_count: true });
}

Deno.test("header rows: SPEC's six, then i2's Log Time, Duration and Venue", () => {
  const text = csvText(lap(60));
  const lines = text.split("\r\n");
  assert.equal(lines[0], '"Format","MoTeC CSV File"');
  assert.deepStrictEqual(lines.slice(0, HEADER_ROWS + 2), [
    '"Format","MoTeC CSV File"',
    '"Device","sim-datalogger"',
    '"Vehicle","Supra RZ \'97"',
    '"Comment","Lap 3 - 1:01.500"',
    '"Log Date","2024-05-01"',
    '"Sample Rate","60.000","Hz"',
    '"Log Time","5:26:02 PM"',
    '"Duration","61.500","s"',
    '"Venue","Suzuka Circuit"',
    "",
    "",
  ]);
});

Deno.test("name and unit rows are SPEC's 27 channels and units, in order", () => {
  const rows = records(csvText(lap(60)));
  assert.deepStrictEqual(rows[NAME_ROW], SPEC_NAMES);
  assert.deepStrictEqual(rows[NAME_ROW + 1], SPEC_UNITS);
  assert.deepStrictEqual(CSV_CHANNELS.map((c) => c.name), SPEC_NAMES);
  const lines = csvText(lap(1)).split("\r\n");
  assert.ok(lines[NAME_ROW + 1].includes('"rad/s","m","m","mm","L","","","",""'));
  assert.deepStrictEqual(lines.slice(NAME_ROW + 2, NAME_ROW + 4), ["", ""]);
});

Deno.test("one data row of 27 fields per sample, values parse back exactly", () => {
  const l = lap(240);
  const rows = records(csvText(l));
  const data = rows.slice(FIRST_DATA_ROW);
  assert.equal(data.length, 240);
  data.forEach((row, i) => {
    assert.equal(row.length, 27);
    CSV_CHANNELS.forEach((ch, c) => {
      assert.equal(Number(row[c]), l.samples[ch.column]![i], `${ch.name} row ${i}`);
    });
  });
  assert.equal(data.at(-1)![0], "3.9833");
});

Deno.test("every line ends in CRLF, with no bare LF", () => {
  const text = csvText(lap(30));
  assert.ok(text.endsWith("\r\n"));
  assert.equal(text.replaceAll("\r\n", "").includes("\n"), false);
  assert.equal(text.split("\r\n").length - 1, FIRST_DATA_ROW + 30);
});

Deno.test("a version 1 lap keeps 27 fields per row, the missing channels empty", () => {
  const full = lap(50);
  const samples = Object.fromEntries(V1_COLUMNS.map((c) => [c, full.samples[c]]));
  const rows = records(csvText({ ...full, samples: samples as unknown as LapSamples }));
  const data = rows.slice(FIRST_DATA_ROW);
  assert.equal(data.length, 50);
  for (const row of data) {
    assert.equal(row.length, 27);
    assert.deepStrictEqual(row.slice(14), Array(13).fill(""));
    assert.notEqual(row[13], "");
  }
  // Present channels are still filled in.
  assert.equal(Number(data[7][1]), full.samples.dist[7]);
});

Deno.test("a column not one value per tick is written empty", () => {
  const l = lap(20);
  l.samples.aids = [1, 2, 3];
  const data = records(csvText(l)).slice(FIRST_DATA_ROW);
  assert.ok(data.every((row) => row.length === 27 && row[26] === ""));
});

Deno.test("no surface, coast or optional channel is exported", () => {
  const text = csvText(lap(5));
  for (const name of ["Surface", "Steering", "Accel", "Applied", "Race Position", "Coast"]) {
    assert.equal(text.includes(name), false, name);
  }
});

Deno.test("formula injection: text cells starting =, +, -, @, tab or CR are defused", () => {
  const evil = '=cmd(),"x';
  const rows = records(
    csvText(lap(2, { finished_at: evil }), { carName: "+SUM(A1)", venue: evil }),
  );
  assert.deepStrictEqual(rows[2], ["Vehicle", "'+SUM(A1)"]);
  assert.deepStrictEqual(rows[4], ["Log Date", "'=cmd(),\"x"]);
  assert.deepStrictEqual(rows[6], ["Log Time", ""]);
  assert.deepStrictEqual(rows[8], ["Venue", "'=cmd(),\"x"]);
  assert.equal(textCell("-5"), `"'-5"`);
  assert.equal(textCell("@me"), `"'@me"`);
  assert.equal(textCell("\tx"), `"'\tx"`);
  assert.equal(textCell("\rx"), `"' x"`);
  assert.equal(textCell("a\r\nb\nc"), `"a b c"`);
  assert.equal(textCell('say "hi"'), `"say ""hi"""`);
  assert.equal(textCell("Suzuka"), `"Suzuka"`);
});

Deno.test("Log Date and Log Time are the lap's start in UTC", () => {
  const rows = records(
    csvText(lap(2, { finished_at: "2024-01-01T00:00:30+00:00", time_ms: 99_036 })),
  );
  assert.deepStrictEqual(rows[4], ["Log Date", "2023-12-31"]);
  assert.deepStrictEqual(rows[6], ["Log Time", "11:58:50 PM"]);
  assert.deepStrictEqual(rows[3], ["Comment", "Lap 3 - 1:39.036"]);
  assert.deepStrictEqual(rows[7], ["Duration", "99.036", "s"]);
  const noon = records(csvText(lap(2, { finished_at: "2024-06-01T12:00:10Z", time_ms: 5_000 })));
  assert.deepStrictEqual(noon[6], ["Log Time", "12:00:05 PM"]);
  const midnight = records(
    csvText(lap(2, { finished_at: "2024-06-01T00:01:10Z", time_ms: 5_000 })),
  );
  assert.deepStrictEqual(midnight[6], ["Log Time", "12:01:05 AM"]);
});

Deno.test("an incomplete lap says so in its Comment cell, with what is missing", () => {
  const holed = lap(60, {
    complete: false,
    samples_expected: 180,
    samples_missing: 120,
    longest_gap_packets: 120,
  });
  const rows = records(csvText(holed));
  assert.deepStrictEqual(rows[3], [
    "Comment",
    "Lap 3 - 1:01.500 - incomplete: 120 of 180 samples missing, longest gap 120 packets",
  ]);
  // The header keeps its rows and the data its shape.
  assert.deepStrictEqual(rows[NAME_ROW], SPEC_NAMES);
  assert.equal(rows.slice(FIRST_DATA_ROW).length, 60);
  // Lost only at the edges: no gap too long to fill, still missing samples.
  const edges = records(csvText(lap(60, {
    complete: false,
    samples_expected: 64,
    samples_missing: 4,
    longest_gap_packets: 2,
  })));
  assert.deepStrictEqual(edges[3], [
    "Comment",
    "Lap 3 - 1:01.500 - incomplete: 4 of 64 samples missing",
  ]);
  // More samples than the lap time allows is incomplete too.
  const over = records(csvText(lap(60, { complete: false, samples_expected: 50 })));
  assert.deepStrictEqual(over[3], [
    "Comment",
    "Lap 3 - 1:01.500 - incomplete: 60 samples for 50 expected",
  ]);
  // A complete lap's Comment is unchanged.
  assert.deepStrictEqual(records(csvText(lap(60)))[3], ["Comment", "Lap 3 - 1:01.500"]);
});

Deno.test("the incomplete note leaves the Comment cell's sanitising intact", () => {
  const line =
    [...lapCsvLines(lap(2, { complete: false, samples_expected: 9, samples_missing: 7 }), OPTS)][3];
  assert.equal(line, '"Comment","Lap 3 - 1:01.500 - incomplete: 7 of 9 samples missing"\r\n');
});

Deno.test("lapTimeText formats M:SS.mmm", () => {
  assert.equal(lapTimeText(61_500), "1:01.500");
  assert.equal(lapTimeText(99_036), "1:39.036");
  assert.equal(lapTimeText(59_999), "0:59.999");
  assert.equal(lapTimeText(3_600_000), "60:00.000");
  assert.equal(lapTimeText(7), "0:00.007");
});

Deno.test("rows are generated one at a time, reading only the row's own ticks", () => {
  const n = 1_000_000;
  let highest = -1;
  const watched = (values: number[]) =>
    new Proxy(values, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) highest = Math.max(highest, Number(key));
        return Reflect.get(target, key, receiver);
      },
    });
  const base = Array<number>(n).fill(1.5);
  const samples = Object.fromEntries(V1_COLUMNS.map((c) => [c, watched(base)]));
  const lines = lapCsvLines(lap(0, { samples: samples as unknown as LapSamples }), OPTS);
  for (let k = 0; k < FIRST_DATA_ROW + 3; k++) lines.next();
  assert.equal(highest, 2);
});

Deno.test("plainNumber: examples", () => {
  const cases: [number, string][] = [
    [0, "0"],
    [-0, "0"],
    [3, "3"],
    [-146.88, "-146.88"],
    [1e-7, "0.0000001"],
    [-2.5e-8, "-0.000000025"],
    [1.2345e-10, "0.00000000012345"],
    [1e21, "1000000000000000000000"],
    [1.5e21, "1500000000000000000000"],
    [-9.87654321e25, "-98765432100000000000000000"],
    [123456789012345680000, "123456789012345680000"],
  ];
  for (const [value, text] of cases) assert.equal(plainNumber(value), text, String(value));
  assert.equal(plainNumber(5e-324), "0." + "0".repeat(323) + "5");
  assert.equal(plainNumber(Number.MAX_VALUE).length, 309);
  assert.equal(plainNumber(NaN), "");
  assert.equal(plainNumber(Infinity), "");
});

Deno.test("plainNumber: never exponent notation, reads back as the same double", () => {
  const magnitude = fc.double({ min: 1e-9, max: 1e15, noNaN: true });
  fc.assert(
    fc.property(magnitude, fc.boolean(), (m, negative) => {
      const value = negative ? -m : m;
      const text = plainNumber(value);
      assert.equal(/[eE,]/.test(text), false, text);
      assert.equal(Number(text), value);
    }),
    { numRuns: 2000 },
  );
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
      const text = plainNumber(value);
      assert.match(text, /^-?\d+(\.\d+)?$/);
      // === rather than Object.is: -0 is written as "0" on purpose.
      assert.ok(Number(text) === value, `${value} -> ${text}`);
    }),
    { numRuns: 2000 },
  );
});
