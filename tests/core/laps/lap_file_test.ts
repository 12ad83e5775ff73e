import { strict as assert } from "node:assert";
import {
  OPTIONAL_COLUMNS,
  SAMPLE_COLUMNS,
  type SampleColumn,
  V1_COLUMNS,
} from "../../../src/core/laps/columns.ts";
import { computeEvents, countEvents } from "../../../src/core/laps/events.ts";
import type { Lap } from "../../../src/core/laps/lap.ts";
import {
  buildImportedLap,
  LAP_FILE_FIELDS,
  LAP_FILE_FORMAT,
  LAP_FILE_VERSION,
  lapFileJsonSchema,
  MAX_ISSUES,
  MAX_LAP_SAMPLES,
  parseLapFile,
  toLapFile,
} from "../../../src/core/laps/lap_file.ts";
import { computeMetrics } from "../../../src/core/laps/metrics.ts";
import { COVERAGE_FIELDS, judgeCoverage } from "../../../src/core/laps/coverage.ts";
import { packSurface } from "../../../src/core/laps/surface_code.ts";
import { ImportRejected, type Issue } from "../../../src/core/errors.ts";

/**
 * A recorded-looking lap of n ticks with every column, full-precision values
 * (so the round trip is tested on arbitrary doubles), two lockups, a
 * wheelspin, a kerb strike and an off-track excursion.
 */
function lap(n = 600): Lap {
  const samples: Record<string, number[]> = {};
  SAMPLE_COLUMNS.forEach((c, k) => {
    samples[c] = Array.from({ length: n }, (_, i) => Math.sin(i * 0.37 + k) * (k + 1) * 13.7);
  });
  samples.t = Array.from({ length: n }, (_, i) => i / 60);
  samples.dist = Array.from({ length: n }, (_, i) => i * 0.7123);
  samples.brake = Array.from({ length: n }, (_, i) => (i % 200 < 30 ? 100 : 0));
  samples.throttle = Array.from({ length: n }, (_, i) => (i % 200 >= 100 ? 100 : 0));
  for (const w of ["fl", "fr", "rl", "rr"]) {
    samples[`slip_${w}`] = Array.from({ length: n }, (_, i) => 1 + 1e-3 * Math.sin(i));
    samples[`sus_${w}`] = Array(n).fill(50.25);
  }
  samples.surface = Array(n).fill(packSurface("TTTT"));
  // Events where the lap is long enough to hold them.
  const put = (c: string, from: number, to: number, v: number) => {
    for (let i = from; i < Math.min(to, n); i++) samples[c][i] = v;
  };
  put("slip_fl", 5, 15, 0.61);
  put("slip_rl", 205, 212, 0.333);
  put("slip_rr", 120, 130, 1.4);
  put("sus_fr", 300, 301, 90.5);
  put("surface", 400, 410, packSurface("GGDT"));
  samples.aids = Array.from({ length: n }, (_, i) => i % 4);
  samples.race_pos = Array(n).fill(3);
  samples.race_pos[n - 1] = 2;
  const typed = samples as unknown as Lap["samples"];
  const events = computeEvents(typed);
  // The lap's time matches its ticks; three ticks were filled across a gap of 2 and one of 1.
  const time_ms = Math.round(n * 1000 / 60);
  return {
    id: 17,
    session_id: 4,
    number: 3,
    time_ms,
    finished_at: "2024-05-01T17:27:03.500Z",
    car_id: 3315,
    car_category: "Gr.3",
    fuel_start: 80.5,
    fuel_end: 77.25,
    ...computeMetrics(typed, 80.5, 77.25),
    ...judgeCoverage({ timeMs: time_ms, samples: n, filled: 3, longestGap: 2 }),
    max_water_temp: 92.4,
    max_oil_temp: 110.2,
    min_oil_pressure: 3.125,
    tod_ms: 45_600_000,
    counts_for_best: true,
    off_survey_count: 2,
    salvaged: true,
    race_position: 2,
    frames_dropped: 7,
    imported: false,
    event_counts: countEvents(events),
    events,
    gearing: { ratios: [3.2, 2.1, 1.5, 1.1, 0.9], top_speed: 280.5, rpm_alert: 7800 },
    samples: typed,
  };
}

/** A JSON-shaped lap file to mutate in rejection tests. */
function fileJson(n = 10): Record<string, unknown> & { lap: Record<string, unknown> } {
  return JSON.parse(JSON.stringify(toLapFile(lap(n))));
}

function samplesOf(file: { lap: Record<string, unknown> }): Record<string, unknown[]> {
  return file.lap.samples as Record<string, unknown[]>;
}

/** Runs parseLapFile expecting a rejection; returns its issues. */
function rejected(json: unknown): Issue[] {
  try {
    parseLapFile(json);
  } catch (e) {
    assert.ok(e instanceof ImportRejected, `expected ImportRejected, got ${e}`);
    return e.issues;
  }
  assert.fail("the file was accepted");
}

Deno.test("round trip: export, JSON text, import gives the same samples and events", () => {
  const original = lap();
  assert.ok(original.events.length >= 5, "the lap exercises several event types");
  const text = JSON.stringify(toLapFile(original));
  const imported = buildImportedLap(parseLapFile(JSON.parse(text)));

  assert.deepStrictEqual(Object.keys(imported.samples), SAMPLE_COLUMNS as readonly string[]);
  for (const c of SAMPLE_COLUMNS) {
    const a = new Float64Array(original.samples[c]!);
    const b = new Float64Array(imported.samples[c]!);
    assert.deepStrictEqual(new Uint8Array(b.buffer), new Uint8Array(a.buffer), `column ${c}`);
  }
  assert.deepStrictEqual(imported.events, original.events);
  assert.deepStrictEqual(imported.event_counts, original.event_counts);
  assert.deepStrictEqual(
    imported.event_counts,
    { lockup: 2, wheelspin: 1, kerb: 1, off_track: 1 },
  );
});

Deno.test("round trip: carried fields survive, derived ones are recomputed", () => {
  const original = lap();
  const file = JSON.parse(JSON.stringify(toLapFile(original)));
  file.lap.full_throttle_pct = 0; // a lie the import must not believe
  file.lap.events = [];
  const imported = buildImportedLap(parseLapFile(file));
  const carried = [
    "number",
    "time_ms",
    "finished_at",
    "car_id",
    "car_category",
    "fuel_start",
    "fuel_end",
    "max_water_temp",
    "max_oil_temp",
    "min_oil_pressure",
    "tod_ms",
    "salvaged",
    "race_position",
    "gearing",
  ] as const;
  for (const f of carried) assert.deepStrictEqual(imported[f], original[f], f);
  assert.equal(imported.full_throttle_pct, original.full_throttle_pct);
  assert.deepStrictEqual(imported.events, original.events);
  assert.equal(imported.imported, true);
  assert.equal(imported.counts_for_best, true);
  assert.equal(imported.off_survey_count, -1);
  // No step in t, so only the three filled ticks were lost (the file's 7 is not read).
  assert.equal(imported.frames_dropped, 3);
  assert.equal(imported.tcs_active_pct, 50);
  assert.equal(imported.asm_active_pct, 50);
  assert.equal(imported.off_track_count, 1);
  assert.equal(imported.clean_lap, false);
  assert.equal("id" in imported, false);
  assert.equal("session_id" in imported, false);
});

Deno.test("toLapFile: envelope, field order and canonical column order", () => {
  const original = lap(20);
  delete original.samples.steer;
  const file = toLapFile(original);
  assert.equal(file.format, "sim-datalogger-lap");
  assert.equal(LAP_FILE_FORMAT, "sim-datalogger-lap");
  assert.equal(file.version, 2);
  assert.equal(LAP_FILE_VERSION, 2);
  assert.deepStrictEqual(Object.keys(file.lap), [
    ...LAP_FILE_FIELDS,
    "track_name",
    "car_name",
    "samples",
  ]);
  assert.equal(file.lap.track_name, "");
  const named = toLapFile(original, { track_name: "Suzuka Circuit", car_name: "McLaren VGT" });
  assert.equal(named.lap.track_name, "Suzuka Circuit");
  assert.equal(named.lap.car_name, "McLaren VGT");
  assert.deepStrictEqual(
    Object.keys(file.lap.samples),
    SAMPLE_COLUMNS.filter((c) => c !== "steer"),
  );
  assert.equal(file.lap.id, 17);
  assert.equal(file.lap.max_oil_temp, 110.2);
  assert.equal(file.lap.gearing?.top_speed, 280.5);
  assert.equal("frames_dropped" in file.lap, false);
});

Deno.test("race_position comes from the race_pos column's last value", () => {
  const file = fileJson();
  file.lap.race_position = 9;
  assert.equal(parseLapFile(file).race_position, 2);
  delete samplesOf(file).race_pos;
  assert.equal(parseLapFile(file).race_position, 9);
  samplesOf(file).race_pos = Array(10).fill(-1);
  assert.equal(parseLapFile(file).race_position, -1);
});

Deno.test("a version 1 file imports with the newer channels absent", () => {
  const full = lap(700);
  const v1Samples = Object.fromEntries(V1_COLUMNS.map((c) => [c, full.samples[c]]));
  const v1 = {
    format: LAP_FILE_FORMAT,
    version: 1,
    lap: {
      id: 5,
      session_id: 1,
      number: 2,
      time_ms: 61_500,
      finished_at: "2023-01-01T10:00:00",
      car_id: 3315,
      fuel_start: 100,
      fuel_end: 98,
      fuel_consumed: 2,
      full_throttle_pct: 1,
      full_brake_pct: 2,
      coasting_pct: 3,
      tire_spin_pct: 4,
      max_speed: 5,
      min_body_height: 6,
      total_ticks: 700,
      samples: v1Samples,
    },
  };
  const parsed = parseLapFile(JSON.parse(JSON.stringify(v1)));
  assert.equal(parsed.version, 1);
  assert.deepStrictEqual(Object.keys(parsed.samples), V1_COLUMNS);
  const imported = buildImportedLap(parsed);
  assert.equal(imported.min_oil_pressure, -1);
  assert.equal(imported.max_oil_temp, 0);
  assert.equal(imported.gearing, null);
  assert.deepStrictEqual(imported.events, []);
  assert.deepStrictEqual(imported.event_counts, {});
  assert.equal(imported.tod_ms, -1);
  assert.equal(imported.car_category, "");
  assert.equal(imported.salvaged, false);
  assert.equal(imported.race_position, -1);
  assert.equal(imported.fuel_consumed, 2);
  assert.equal(imported.total_ticks, 700);
  assert.equal(imported.tcs_active_pct, 0);
  assert.equal(imported.off_track_count, -1);
  assert.equal(imported.clean_lap, null);
  // Coverage is computed for a version 1 file too: 700 ticks cannot hold 61.5 s.
  assert.equal(imported.samples_expected, 3690);
  assert.equal(imported.samples_received, 700);
  assert.equal(imported.samples_filled, 0);
  assert.equal(imported.samples_missing, 2990);
  assert.equal(imported.longest_gap_packets, 0);
  assert.equal(imported.complete, false);
  assert.equal(imported.counts_for_best, false);
});

Deno.test("round trip keeps the coverage fields of a complete lap", () => {
  const original = lap(700);
  assert.equal(original.complete, true);
  const file = JSON.parse(JSON.stringify(toLapFile(original)));
  for (const f of COVERAGE_FIELDS) assert.deepStrictEqual(file.lap[f], original[f], f);
  const imported = buildImportedLap(parseLapFile(file));
  for (const f of COVERAGE_FIELDS) assert.deepStrictEqual(imported[f], original[f], f);
  assert.deepStrictEqual(
    COVERAGE_FIELDS.map((f) => imported[f]),
    [700, 697, 3, 0, 2, true],
  );
});

/** A lap file of `n` ticks whose t axis skips `hole` packets after tick `at`, timed to match. */
function holedFile(n: number, at: number, hole: number) {
  const file = fileJson(n);
  samplesOf(file).t = Array.from(
    { length: n },
    (_, i) => Math.round((i + 1 + (i >= at ? hole : 0)) / 60 * 1e4) / 1e4,
  );
  file.lap.time_ms = Math.round((n + hole) * 1000 / 60);
  return file;
}

Deno.test("a file claiming complete for a lap with a hole is recomputed as incomplete", () => {
  const file = holedFile(700, 300, 120);
  Object.assign(file.lap, {
    samples_expected: 700,
    samples_received: 700,
    samples_filled: 0,
    samples_missing: 0,
    longest_gap_packets: 0,
    complete: true,
    counts_for_best: true,
  });
  const imported = buildImportedLap(parseLapFile(file));
  assert.equal(imported.samples_expected, 820);
  assert.equal(imported.samples_received, 700);
  assert.equal(imported.samples_missing, 120);
  assert.equal(imported.longest_gap_packets, 120);
  assert.equal(imported.frames_dropped, 120);
  assert.equal(imported.complete, false);
  assert.equal(imported.counts_for_best, false);
});

Deno.test("carried coverage: a hidden gap of 3 is kept, a longer claim the samples do not show is not", () => {
  const file = fileJson(700);
  file.lap.time_ms = Math.round(700 * 1000 / 60);
  file.lap.longest_gap_packets = 3;
  assert.equal(buildImportedLap(parseLapFile(file)).longest_gap_packets, 3);
  file.lap.longest_gap_packets = 500;
  const lied = buildImportedLap(parseLapFile(file));
  assert.equal(lied.longest_gap_packets, 1, "the file's 3 filled ticks show a gap of at least 1");
  assert.equal(lied.complete, true);
  file.lap.samples_filled = 0;
  assert.equal(buildImportedLap(parseLapFile(file)).longest_gap_packets, 0);
  // A legacy lap exported with its gap unknown (-1).
  file.lap.longest_gap_packets = -1;
  assert.equal(buildImportedLap(parseLapFile(file)).longest_gap_packets, 0);
});

Deno.test("refused: samples_filled not below the sample count, or not a whole number", () => {
  const file = fileJson(10);
  file.lap.samples_filled = 10;
  assert.deepStrictEqual(rejected(file), [
    { path: "$.lap.samples_filled", message: "must be less than the sample count (10)" },
  ]);
  file.lap.samples_filled = -1;
  assert.equal(rejected(file)[0].path, "$.lap.samples_filled");
  file.lap.samples_filled = 1.5;
  assert.equal(rejected(file)[0].path, "$.lap.samples_filled");
  file.lap.samples_filled = 9;
  assert.equal(parseLapFile(file).samples_filled, 9);
});

Deno.test("buildImportedLap: an empty finished_at takes the import time when given", () => {
  const file = fileJson();
  delete file.lap.finished_at;
  const parsed = parseLapFile(file);
  assert.equal(buildImportedLap(parsed).finished_at, "");
  assert.equal(
    buildImportedLap(parsed, "2025-01-02T03:04:05Z").finished_at,
    "2025-01-02T03:04:05Z",
  );
});

Deno.test("unknown sample columns and lap keys are dropped", () => {
  // A JSON `__proto__` key is an own property after JSON.parse; it must not leak through.
  const text = JSON.stringify(fileJson()).replace('"samples":{', '"samples":{"__proto__":[1],');
  const file = JSON.parse(text);
  assert.equal(Object.hasOwn(samplesOf(file), "__proto__"), true);
  samplesOf(file).foo = Array(10).fill(1);
  file.lap.driver = "not ours";
  const parsed = parseLapFile(file);
  assert.equal("foo" in parsed.samples, false);
  assert.equal(Object.hasOwn(parsed.samples, "__proto__"), false);
  assert.equal("driver" in parsed, false);
});

Deno.test("the circuit and car names a file carries are read, trimmed, and checked", () => {
  const file = fileJson();
  assert.equal(parseLapFile(file).track_name, "");
  assert.equal(parseLapFile(file).car_name, "");
  file.lap.track_name = "  Suzuka Circuit ";
  file.lap.car_name = "McLaren VGT";
  assert.equal(parseLapFile(file).track_name, "Suzuka Circuit");
  assert.equal(parseLapFile(file).car_name, "McLaren VGT");
  file.lap.track_name = "Suzuka\u001b[2J";
  file.lap.car_name = 7;
  assert.deepEqual(rejected(file).map((i) => i.path), ["$.lap.track_name", "$.lap.car_name"]);
  assert.equal(
    rejected(file)[0].message,
    "holds a control character, U+001B, at character 7: none is allowed",
  );
});

Deno.test('a carried name\'s refusal says which rule it broke; only "" means unnamed', () => {
  const fault = (name: unknown) => {
    const file = fileJson();
    file.lap.track_name = name;
    const issues = rejected(file);
    assert.deepEqual(issues.map((i) => i.path), ["$.lap.track_name"]);
    return issues[0].message;
  };
  assert.equal(
    fault("Lago\u0007"),
    "holds a control character, U+0007, at character 5: none is allowed",
  );
  assert.equal(
    fault("Spa\nEast"),
    "holds a control character, U+000A, at character 4: none is allowed",
  );
  assert.equal(fault("x".repeat(81)), "is too long: 81 characters, at most 80");
  assert.equal(fault("x".repeat(400)), "is too long: 400 characters, at most 80");
  const blank =
    'is blank: give 1 to 80 characters that are not all spaces ("" alone means no name)';
  assert.equal(fault("   "), blank);
  assert.equal(fault("\t"), blank);
  const file = fileJson();
  file.lap.track_name = "";
  assert.equal(parseLapFile(file).track_name, "");
});

Deno.test("an optional column of the wrong length is dropped, not refused", () => {
  const file = fileJson();
  samplesOf(file).steer = [1, 2, 3];
  samplesOf(file).acc_lat = [];
  const parsed = parseLapFile(file);
  assert.equal(parsed.samples.steer, undefined);
  assert.equal(parsed.samples.acc_lat, undefined);
  assert.equal(parsed.samples.acc_long?.length, 10);
  for (const c of OPTIONAL_COLUMNS.filter((c) => c !== "steer" && c !== "acc_lat")) {
    assert.equal(parsed.samples[c]?.length, 10, c);
  }
});

Deno.test("refused: a required column missing, named (sorted)", () => {
  const file = fileJson();
  delete samplesOf(file).dist;
  assert.deepStrictEqual(rejected(file), [
    { path: "$.lap.samples", message: "missing sample columns: dist" },
  ]);
  delete samplesOf(file).pos_z;
  delete samplesOf(file).brake;
  assert.deepStrictEqual(rejected(file), [
    { path: "$.lap.samples", message: "missing sample columns: brake, dist, pos_z" },
  ]);
});

Deno.test("imported: ride height and tyre slip may be absent, and stay absent", () => {
  const file = fileJson();
  delete samplesOf(file).body_height;
  delete samplesOf(file).tire_slip;
  const lap = buildImportedLap(parseLapFile(file));
  assert.strictEqual(lap.samples.body_height, undefined);
  assert.strictEqual(lap.samples.tire_slip, undefined);
  assert.strictEqual(lap.min_body_height, 0);
  assert.strictEqual(lap.tire_spin_pct, 0);
});

Deno.test("refused: ragged base columns are unequal", () => {
  const file = fileJson();
  samplesOf(file).speed.pop();
  samplesOf(file).surface.push(0);
  assert.deepStrictEqual(rejected(file), [
    {
      path: "$.lap.samples.speed",
      message: "sample columns have unequal lengths: speed has 9, t has 10",
    },
    {
      path: "$.lap.samples.surface",
      message: "sample columns have unequal lengths: surface has 11, t has 10",
    },
  ]);
});

Deno.test("refused: strings, null, Infinity and NaN in samples", () => {
  const file = fileJson();
  samplesOf(file).speed[3] = "fast";
  samplesOf(file).gear[0] = null;
  samplesOf(file).rpm[9] = "1200";
  // JSON cannot carry these; a JS caller can.
  samplesOf(file).throttle[2] = Infinity;
  samplesOf(file).brake[4] = -Infinity;
  samplesOf(file).yaw_rate[1] = NaN;
  const issues = rejected(file);
  const finite = "must be a finite number";
  assert.deepStrictEqual(issues, [
    { path: "$.lap.samples.speed[3]", message: finite },
    { path: "$.lap.samples.throttle[2]", message: finite },
    { path: "$.lap.samples.brake[4]", message: finite },
    { path: "$.lap.samples.gear[0]", message: finite },
    { path: "$.lap.samples.rpm[9]", message: finite },
    { path: "$.lap.samples.yaw_rate[1]", message: finite },
  ]);
});

Deno.test("refused: a column that is not an array", () => {
  const file = fileJson();
  samplesOf(file).speed = "lots" as unknown as unknown[];
  assert.deepStrictEqual(rejected(file), [
    { path: "$.lap.samples.speed", message: "must be an array of numbers" },
  ]);
});

Deno.test("refused: sample count outside 1..120,000", () => {
  const over = fileJson(1);
  const n = MAX_LAP_SAMPLES + 1;
  for (const [c, values] of Object.entries(samplesOf(over))) {
    samplesOf(over)[c] = Array(n).fill(values[0]);
  }
  assert.deepStrictEqual(rejected(over), [
    { path: "$.lap.samples", message: "sample count must be 1..120000, got 120001" },
  ]);

  const empty = fileJson(1);
  for (const c of Object.keys(samplesOf(empty))) samplesOf(empty)[c] = [];
  assert.deepStrictEqual(rejected(empty), [
    { path: "$.lap.samples", message: "sample count must be 1..120000, got 0" },
  ]);

  const atCap = fileJson(1);
  for (const [c, values] of Object.entries(samplesOf(atCap))) {
    samplesOf(atCap)[c] = Array(MAX_LAP_SAMPLES).fill(values[0]);
  }
  assert.equal(parseLapFile(atCap).samples.t.length, MAX_LAP_SAMPLES);
});

Deno.test("refused: samples as a list, missing, or null", () => {
  const file = fileJson();
  file.lap.samples = [samplesOf(file)];
  assert.deepStrictEqual(rejected(file), [
    { path: "$.lap.samples", message: "must be an object of sample columns" },
  ]);
  file.lap.samples = null;
  assert.deepStrictEqual(rejected(file), [
    { path: "$.lap.samples", message: "must be an object of sample columns" },
  ]);
  delete file.lap.samples;
  assert.deepStrictEqual(rejected(file), [{ path: "$.lap.samples", message: "required" }]);
});

Deno.test("refused: wrong format", () => {
  const file = fileJson();
  file.format = "gt7-datalogger-lap";
  assert.deepStrictEqual(rejected(file), [
    { path: "$.format", message: 'unrecognized lap file format: expected "sim-datalogger-lap"' },
  ]);
  delete file.format;
  assert.equal(rejected(file)[0].path, "$.format");
});

Deno.test("refused: version 3 (newer) with a clear message", () => {
  const file = fileJson();
  file.version = 3;
  assert.deepStrictEqual(rejected(file), [
    {
      path: "$.version",
      message: "lap file is version 3; this build reads versions 1 to 2 — upgrade first",
    },
  ]);
});

Deno.test('refused: version true, "2", 1.5, 0 or missing', () => {
  for (const version of [true, "2", 1.5, 0, -1, null, undefined]) {
    const file = fileJson();
    file.version = version;
    assert.deepStrictEqual(
      rejected(file),
      [{ path: "$.version", message: "must be the integer 1 or 2" }],
      String(version),
    );
  }
});

Deno.test("refused: not an object, or no lap object", () => {
  for (const doc of [null, [], "lap", 3]) {
    assert.deepStrictEqual(rejected(doc), [{ path: "$", message: "must be a JSON object" }]);
  }
  const file = fileJson();
  file.lap = [] as unknown as Record<string, unknown>;
  assert.deepStrictEqual(rejected(file), [{ path: "$.lap", message: "must be an object" }]);
});

Deno.test("refused: lap fields of the wrong type or range, each at its path", () => {
  const cases: [string, unknown, string][] = [
    ["number", -1, "$.lap.number"],
    ["number", 1.5, "$.lap.number"],
    ["number", undefined, "$.lap.number"],
    ["time_ms", 0, "$.lap.time_ms"],
    ["time_ms", "61500", "$.lap.time_ms"],
    ["finished_at", "x".repeat(65), "$.lap.finished_at"],
    ["car_id", -3, "$.lap.car_id"],
    ["car_category", "x".repeat(17), "$.lap.car_category"],
    ["fuel_start", true, "$.lap.fuel_start"],
    ["fuel_end", Infinity, "$.lap.fuel_end"],
    ["min_oil_pressure", null, "$.lap.min_oil_pressure"],
    ["tod_ms", 1.25, "$.lap.tod_ms"],
    ["race_position", -2, "$.lap.race_position"],
    ["salvaged", "yes", "$.lap.salvaged"],
    ["gearing", [], "$.lap.gearing"],
    ["gearing", { ratios: [1, "x"], top_speed: 1, rpm_alert: 1 }, "$.lap.gearing.ratios[1]"],
    ["gearing", { ratios: Array(17).fill(1), top_speed: 1, rpm_alert: 1 }, "$.lap.gearing.ratios"],
    ["gearing", { ratios: [], rpm_alert: 1 }, "$.lap.gearing.top_speed"],
  ];
  for (const [field, value, path] of cases) {
    const file = fileJson();
    file.lap[field] = value;
    const issues = rejected(file);
    assert.equal(issues.length, 1, `${field}=${String(value)}: ${JSON.stringify(issues)}`);
    assert.equal(issues[0].path, path, `${field}=${String(value)}`);
  }
});

Deno.test("every issue is reported together, at most 50", () => {
  const file = fileJson(200);
  file.lap.time_ms = 0;
  delete samplesOf(file).dist;
  samplesOf(file).speed[7] = "x";
  assert.deepStrictEqual(rejected(file).map((i) => i.path), [
    "$.lap.time_ms",
    "$.lap.samples",
    "$.lap.samples.speed[7]",
  ]);

  const bad = fileJson(200);
  for (const c of Object.keys(samplesOf(bad))) samplesOf(bad)[c] = Array(200).fill("x");
  const issues = rejected(bad);
  assert.equal(issues.length, MAX_ISSUES);
  assert.equal(issues[0].path, "$.lap.samples.t[0]");
  // Each column names a few of its bad elements, then the next column gets its turn.
  assert.equal(issues[5].path, "$.lap.samples.dist[0]");
});

Deno.test("the published JSON Schema describes the envelope", () => {
  const schema = lapFileJsonSchema() as {
    properties: {
      format: { const: string };
      lap: { required: string[]; properties: Record<string, unknown> };
    };
  };
  assert.equal(schema.properties.format.const, "sim-datalogger-lap");
  assert.deepStrictEqual(schema.properties.lap.required.sort(), ["number", "samples", "time_ms"]);
  const samples = schema.properties.lap.properties.samples as {
    properties: Record<SampleColumn, unknown>;
    required: string[];
  };
  assert.deepStrictEqual(Object.keys(samples.properties), SAMPLE_COLUMNS as readonly string[]);
  assert.equal(samples.required.length, 8);
});
