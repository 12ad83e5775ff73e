import { strict as assert } from "node:assert";
import { BadRequest, ImportRejected, type Issue } from "../../../src/core/errors.ts";
import { jsonPath } from "../../../src/core/bundle/issues.ts";
import type { BundleLegacy, BundleV4 } from "../../../src/core/bundle/types.ts";
import { validateBundle, validateTrackOverride } from "../../../src/core/bundle/validate.ts";
import { clone, FORMAT, FRIEND, legacyDoc, ME, v4Doc } from "./arbitraries.ts";

type Raw = Record<string, unknown>;
// The point of these tests is to write ill-typed values anywhere in a document.
// deno-lint-ignore no-explicit-any
type Loose = any;

/** Validates `raw`, expecting a refusal; returns the issues. */
function rejected(raw: unknown): Issue[] {
  try {
    validateBundle(raw);
  } catch (error) {
    assert.ok(error instanceof ImportRejected, `expected ImportRejected, got ${error}`);
    assert.ok(error.issues.length > 0);
    for (const issue of error.issues) assert.match(issue.path, /^\$/);
    return error.issues;
  }
  assert.fail("document was accepted");
}

/** Asserts that `raw` is refused with exactly one issue, at `path`, whose message matches. */
function refusedAt(raw: unknown, path: string, message: RegExp): void {
  const issues = rejected(raw);
  assert.deepEqual(issues.map((i) => i.path), [path]);
  assert.match(issues[0].message, message);
}

function edit(mutate: (doc: Loose) => void, base: Raw = v4Doc(3)): Raw {
  const doc = clone(base);
  mutate(doc);
  return doc;
}

Deno.test("the rejection list of the reference tests: each refused at its JSON path", () => {
  refusedAt(edit((d) => d.format = "gt7-datalogger-track-bundle"), "$.format", /format must be/);
  refusedAt(
    edit((d) => d.version = 99),
    "$.version",
    /^bundle is format v99; this build reads v4 — upgrade first$/,
  );
  refusedAt(
    edit((d) => d.meta.track = "  "),
    "$.meta.track",
    /^track is blank: give 1 to 80 characters that are not all spaces$/,
  );
  refusedAt(edit((d) => d.edges[1].side = "U"), "$.edges[1].side", /side must be "L" or "R"/);
  refusedAt(
    edit((d) => d.edges[0].votes = { grass: { [ME]: [1, 1] } }),
    "$.edges[0].votes.grass",
    /kind must be one of wall, runoff, edge, auto, straddle/,
  );
  refusedAt(
    edit((d) => d.edges[2].votes.auto = { "not a source": [1, 1] }),
    "$.edges[2].votes.auto['not a source']",
    /source id must be 6 to 32 lowercase hex characters/,
  );
  refusedAt(
    edit((d) => d.edges[0].x = 1e12),
    "$.edges[0].x",
    /coordinate must be a finite number from -10000000 to 10000000/,
  );
  refusedAt(edit((d) => d.edges[1].votes = {}), "$.edges[1].votes", /at least one kind/);
  refusedAt(edit((d) => d.edges = "lots"), "$.edges", /edges must be an array/);
  refusedAt(edit((d) => d.edges[0].x = NaN), "$.edges[0].x", /finite number/);
  refusedAt(
    edit((d) => d.edges[0].votes.auto[ME] = [1000000, 1]),
    `$.edges[0].votes.auto.${ME}`,
    /count must not exceed max\(last_run, 1\)/,
  );
  refusedAt(
    edit((d) => d.edges[0].votes.auto[ME] = [3, 2]),
    `$.edges[0].votes.auto.${ME}`,
    /count must not exceed max\(last_run, 1\)/,
  );
  refusedAt(
    edit((d) => d.edges[0].votes.auto[ME] = [1.5, 2]),
    `$.edges[0].votes.auto.${ME}`,
    /vote count must be an integer from 1 to 1000000/,
  );
  refusedAt(
    edit((d) => d.meta.source_runs[ME] = -3),
    `$.meta.source_runs.${ME}`,
    /integer from 0 to 1000000/,
  );
  refusedAt(
    edit((d) => d.meta.source_runs[ME] = 2.5),
    `$.meta.source_runs.${ME}`,
    /integer from 0 to 1000000/,
  );
});

Deno.test("a NaN literal parsed by a lenient reader is refused, as is Infinity", () => {
  // JSON cannot carry them, but a document built in JS can.
  refusedAt(
    edit((d) => d.edges[0].hz = NaN),
    "$.edges[0].hz",
    /direction component must be a finite number/,
  );
  refusedAt(
    edit((d) => d.edges[0].y = Infinity),
    "$.edges[0].y",
    /y must be null or a finite number/,
  );
  refusedAt(
    edit((d) => d.edges[0].tw = -Infinity),
    "$.edges[0].tw",
    /tw must be null or a finite number from -10 to 10/,
  );
  refusedAt(edit((d) => d.meta.source_runs[ME] = NaN), `$.meta.source_runs.${ME}`, /integer/);
});

Deno.test("document-level refusals", () => {
  refusedAt([], "$", /a bundle must be a JSON object/);
  refusedAt("bundle", "$", /a bundle must be a JSON object/);
  refusedAt(null, "$", /a bundle must be a JSON object/);
  refusedAt(
    edit((d) => delete d.format),
    "$.format",
    /^required: format must be "sim-datalogger-track-bundle"$/,
  );
  refusedAt(edit((d) => d.version = true), "$.version", /version must be an integer of at least 1/);
  refusedAt(edit((d) => d.version = "4"), "$.version", /version must be an integer of at least 1/);
  refusedAt(edit((d) => d.version = 0), "$.version", /version must be an integer of at least 1/);
  refusedAt(edit((d) => d.version = 4.5), "$.version", /version must be an integer of at least 1/);
  refusedAt(
    edit((d) => d.version = 5),
    "$.version",
    /^bundle is format v5; this build reads v4 — upgrade first$/,
  );
  refusedAt(edit((d) => d.meta = []), "$.meta", /meta must be an object/);
  refusedAt(
    edit((d) => d.meta.track = "x".repeat(81)),
    "$.meta.track",
    /^track is too long: 81 characters, at most 80$/,
  );
  refusedAt(
    edit((d) => d.meta.track = "x".repeat(400)),
    "$.meta.track",
    /^track is too long: 400 characters, at most 80$/,
  );
  refusedAt(
    edit((d) => d.meta.track = "Lago\u0007"),
    "$.meta.track",
    /^track holds a control character, U\+0007, at character 5: none is allowed$/,
  );
  refusedAt(edit((d) => d.meta.track = 7), "$.meta.track", /1 to 80 characters/);
  refusedAt(edit((d) => delete d.meta.source_runs), "$.meta.source_runs", /^required: source_runs/);
  refusedAt(
    edit((d) => d.meta.source_runs = { XYZ123: 1 }),
    "$.meta.source_runs.XYZ123",
    /source id/,
  );
  refusedAt(edit((d) => d.meta.runs = -1), "$.meta.runs", /integer from 0 to 1000000/);
  refusedAt(edit((d) => d.meta.runs = 1.5), "$.meta.runs", /integer from 0 to 1000000/);
  refusedAt(edit((d) => d.meta.updated_at = "x".repeat(65)), "$.meta.updated_at", /at most 64/);
});

Deno.test("a wrong format is reported alone: nothing else of an unknown document is judged", () => {
  const issues = rejected({ format: "something-else", version: 4, edges: "lots" });
  assert.deepEqual(issues, [{
    path: "$.format",
    message: 'format must be "sim-datalogger-track-bundle"',
  }]);
});

Deno.test("a track of exactly 80 characters is accepted, counted in characters not UTF-16 units", () => {
  const emoji = "🏁".repeat(80); // 160 UTF-16 units
  const doc = validateBundle(edit((d) => d.meta.track = emoji)) as BundleV4;
  assert.equal(doc.meta.track, emoji);
  refusedAt(
    edit((d) => d.meta.track = emoji + "x"),
    "$.meta.track",
    /^track is too long: 81 characters, at most 80$/,
  );
});

Deno.test("edge refusals name each field", () => {
  refusedAt(edit((d) => d.edges[0] = 5), "$.edges[0]", /edge must be an object/);
  refusedAt(edit((d) => delete d.edges[0].x), "$.edges[0].x", /^required: coordinate/);
  refusedAt(edit((d) => d.edges[0].z = "1"), "$.edges[0].z", /coordinate/);
  refusedAt(edit((d) => d.edges[0].z = true), "$.edges[0].z", /coordinate/);
  refusedAt(edit((d) => d.edges[0].hx = 1.01), "$.edges[0].hx", /-1.0001 to 1.0001/);
  refusedAt(edit((d) => d.edges[0].tw = 10.5), "$.edges[0].tw", /-10 to 10/);
  refusedAt(edit((d) => d.edges[0].run = -1), "$.edges[0].run", /integer from 0 to 1000000/);
  refusedAt(edit((d) => d.edges[0].run = 2.5), "$.edges[0].run", /integer from 0 to 1000000/);
  refusedAt(edit((d) => d.edges[0].kind = "grass"), "$.edges[0].kind", /kind must be one of/);
  refusedAt(edit((d) => delete d.edges[0].votes), "$.edges[0].votes", /^required: votes/);
  refusedAt(
    edit((d) => d.edges[0].votes = [[1, 1]]),
    "$.edges[0].votes",
    /votes must be an object/,
  );
  refusedAt(
    edit((d) => d.edges[0].votes.auto = {}),
    "$.edges[0].votes.auto",
    /at least one source/,
  );
  refusedAt(edit((d) => d.edges[0].votes.auto = [1, 1]), "$.edges[0].votes.auto", /source ids/);
  refusedAt(
    edit((d) => d.edges[0].votes.auto[ME] = [1, 1, 1]),
    `$.edges[0].votes.auto.${ME}`,
    /two integers/,
  );
  refusedAt(
    edit((d) => d.edges[0].votes.auto[ME] = [1]),
    `$.edges[0].votes.auto.${ME}`,
    /two integers/,
  );
  refusedAt(
    edit((d) => d.edges[0].votes.auto[ME] = { 0: 1, 1: 1 }),
    `$.edges[0].votes.auto.${ME}`,
    /two integers/,
  );
  refusedAt(
    edit((d) => d.edges[0].votes.auto[ME] = [0, 4]),
    `$.edges[0].votes.auto.${ME}`,
    /count must be an integer from 1/,
  );
  refusedAt(
    edit((d) => d.edges[0].votes.auto[ME] = [1, -1]),
    `$.edges[0].votes.auto.${ME}`,
    /last_run must be an integer from 0/,
  );
  refusedAt(
    edit((d) => d.edges[0].votes.auto[ME] = [1, 1000001]),
    `$.edges[0].votes.auto.${ME}`,
    /last_run must be an integer from 0 to 1000000/,
  );
  refusedAt(
    edit((d) => d.edges[0].votes.auto[ME] = [true, 1]),
    `$.edges[0].votes.auto.${ME}`,
    /count must be an integer/,
  );
  refusedAt(
    edit((d) => d.edges[0].votes.auto["0abcdeg"] = [1, 1]),
    "$.edges[0].votes.auto['0abcdeg']",
    /source id/,
  );
  refusedAt(
    edit((d) => d.edges[0].votes.auto.ABCDEF = [1, 1]),
    "$.edges[0].votes.auto.ABCDEF",
    /source id must be 6 to 32 lowercase hex characters/,
  );
  refusedAt(
    edit((d) => d.edges[0].votes.auto.abcde = [1, 1]),
    "$.edges[0].votes.auto.abcde",
    /source id/,
  );
  refusedAt(
    edit((d) => d.edges[0].votes.auto["a".repeat(33)] = [1, 1]),
    `$.edges[0].votes.auto.${"a".repeat(33)}`,
    /source id/,
  );
});

Deno.test("count <= max(last_run, 1) allows one vote at run 0 and count == last_run", () => {
  const doc = validateBundle(edit((d) => {
    d.edges[0].votes.auto[ME] = [1, 0];
    d.edges[1].votes.auto[ME] = [4, 4];
  })) as BundleV4;
  assert.deepEqual(doc.edges[0].votes, { auto: { [ME]: [1, 0] } });
  assert.deepEqual(doc.edges[1].votes, { auto: { [ME]: [4, 4] } });
});

Deno.test("limits: edges, finish crossings, corners, sections, names, notes, official", () => {
  const crossing = { x: 1, z: 2, hx: 0, hz: 1, lap: 3 };
  const corner = { apex: { x: 1, z: 1 } };
  const section = { start: { x: 0, z: 0 }, end: { x: 1, z: 1 } };
  assert.equal(
    (validateBundle(edit((d) => d.finish_crossings = Array(20).fill(crossing))) as BundleV4)
      .finish_crossings.length,
    20,
  );
  refusedAt(
    edit((d) => d.finish_crossings = Array(21).fill(crossing)),
    "$.finish_crossings",
    /at most 20/,
  );
  assert.equal(
    (validateBundle(edit((d) => d.corners = Array(100).fill(corner))) as BundleV4).corners.length,
    100,
  );
  refusedAt(edit((d) => d.corners = Array(101).fill(corner)), "$.corners", /at most 100/);
  assert.equal(
    (validateBundle(edit((d) => d.sections = Array(40).fill(section))) as BundleV4).sections.length,
    40,
  );
  refusedAt(edit((d) => d.sections = Array(41).fill(section)), "$.sections", /at most 40/);
  refusedAt(
    edit((d) => d.corners = [{ ...corner, name: "n".repeat(61) }]),
    "$.corners[0].name",
    /at most 60/,
  );
  refusedAt(
    edit((d) => d.sections = [{ ...section, name: "n".repeat(61) }]),
    "$.sections[0].name",
    /at most 60/,
  );
  refusedAt(
    edit((d) => d.corners = [{ ...corner, note: "n".repeat(241) }]),
    "$.corners[0].note",
    /at most 240/,
  );
  refusedAt(
    edit((d) => d.corners = [{ apex: { x: "1", z: 1 } }]),
    "$.corners[0].apex.x",
    /coordinate/,
  );
  refusedAt(
    edit((d) => d.corners = [{ apex: null }]),
    "$.corners[0].apex",
    /point must be an object/,
  );
  refusedAt(
    edit((d) => d.corners = [{ ...corner, direction: "sideways" }]),
    "$.corners[0].direction",
    /direction must be null, "", "L" or "R"/,
  );
  refusedAt(
    edit((d) => d.corners = [{ ...corner, entry: { x: 1 } }]),
    "$.corners[0].entry.z",
    /^required: coordinate/,
  );
  refusedAt(
    edit((d) => d.sections = [{ start: { x: 0, z: 0 } }]),
    "$.sections[0].end",
    /^required: point/,
  );
  refusedAt(
    edit((d) => d.finish_crossings = [{ ...crossing, lap: -1 }]),
    "$.finish_crossings[0].lap",
    /lap must be a finite number from 0 to 1000000/,
  );
  refusedAt(edit((d) => d.finish_crossings = [{ z: 1 }]), "$.finish_crossings[0].x", /required/);
  refusedAt(
    edit((d) => d.meta.official = { track: "t".repeat(81) }),
    "$.meta.official.track",
    /at most 80/,
  );
  refusedAt(
    edit((d) => d.meta.official = { layout: "t".repeat(81) }),
    "$.meta.official.layout",
    /at most 80/,
  );
  refusedAt(
    edit((d) => d.meta.official = { official_id: "t".repeat(33) }),
    "$.meta.official.official_id",
    /at most 32/,
  );
  refusedAt(
    edit((d) => d.meta.official = { official_name: "t".repeat(161) }),
    "$.meta.official.official_name",
    /at most 160/,
  );
  refusedAt(edit((d) => d.meta.official = { turns: 1001 }), "$.meta.official.turns", /0 to 1000/);
  refusedAt(
    edit((d) => d.meta.official = { turns: 12.5 }),
    "$.meta.official.turns",
    /integer from 0 to 1000/,
  );
  refusedAt(
    edit((d) => d.meta.official = { length_m: 1000001 }),
    "$.meta.official.length_m",
    /0 to 1000000/,
  );
  refusedAt(
    edit((d) => d.meta.official = { reverse: "yes" }),
    "$.meta.official.reverse",
    /boolean/,
  );
  refusedAt(edit((d) => d.meta.official = "Lago"), "$.meta.official", /null or an object/);
});

Deno.test("50,000 edges are accepted and 50,001 refused", () => {
  const edge = (v4Doc(1).edges as Raw[])[0];
  const ok = validateBundle(edit((d) => d.edges = Array(50000).fill(edge))) as BundleV4;
  assert.equal(ok.edges.length, 50000);
  refusedAt(edit((d) => d.edges = Array(50001).fill(edge)), "$.edges", /at most 50000/);
});

Deno.test("every failure is reported, each with its own path", () => {
  const issues = rejected(edit((d) => {
    d.meta.track = "";
    d.edges[0].side = "U";
    d.edges[2].votes.straddle = { [ME]: [5, 2] };
  }));
  assert.deepEqual(issues.map((i) => i.path), [
    "$.meta.track",
    "$.edges[0].side",
    `$.edges[2].votes.straddle.${ME}`,
  ]);
});

Deno.test("at most 100 issues are reported for a document broken everywhere", () => {
  const edge = { x: 1, z: 1, side: "U", votes: {} };
  const issues = rejected(edit((d) => d.edges = Array(500).fill(edge)));
  assert.equal(issues.length, 100);
  assert.equal(issues[0].path, "$.edges[0].side");
  assert.equal(issues[1].path, "$.edges[0].votes");
});

Deno.test("the error message lists the first issues", () => {
  try {
    validateBundle(edit((d) => d.edges[1].side = "U"));
    assert.fail("accepted");
  } catch (error) {
    assert.ok(error instanceof ImportRejected);
    assert.equal(error.message, '$.edges[1].side: side must be "L" or "R"');
  }
});

Deno.test("values are rebuilt: unknown keys dropped everywhere, defaults filled", () => {
  const raw = edit((d) => {
    d.extra = 1;
    d.meta.extra = { deep: true };
    d.meta.official = { track: "Lago Maggiore", turns: 11, unknown: "x" };
    d.edges[0].extra = "x";
    d.edges[0].votes.auto[ME].extra = 1;
    delete d.edges[1].y;
    delete d.edges[1].hx;
    delete d.edges[1].hz;
    delete d.edges[1].run;
    delete d.edges[1].tw;
    delete d.edges[1].kind;
    d.finish_crossings = [{ x: 3, z: 4, extra: 1 }];
    d.corners = [{ apex: { x: 1, z: 2, w: 3 }, n: 7, extra: 1 }];
    d.sections = [{ start: { x: 0, z: 0 }, end: { x: 5, z: 5 }, n: 9 }];
  });
  const doc = validateBundle(raw) as BundleV4;
  assert.deepEqual(Object.keys(doc), [
    "format",
    "version",
    "meta",
    "edges",
    "finish_crossings",
    "corners",
    "sections",
  ]);
  assert.deepEqual(doc.meta.official, {
    track: "Lago Maggiore",
    layout: "",
    official_id: "",
    official_name: "",
    turns: 11,
    length_m: 0,
    reverse: false,
  });
  assert.deepEqual(Object.keys(doc.meta), [
    "track",
    "runs",
    "source_runs",
    "updated_at",
    "official",
  ]);
  assert.deepEqual(doc.edges[0], {
    x: 0,
    z: 0,
    y: 12.5,
    hx: 1,
    hz: 0,
    side: "L",
    kind: "auto",
    votes: { auto: { [ME]: [4, 4] } },
    run: 1,
    tw: 1.6,
  });
  assert.deepEqual(doc.edges[1], {
    x: 1,
    z: 0,
    y: null,
    hx: 0,
    hz: 0,
    side: "L",
    kind: "auto",
    votes: { auto: { [ME]: [4, 4] } },
    run: 0,
    tw: null,
  });
  assert.deepEqual(doc.finish_crossings, [{ x: 3, z: 4, hx: 0, hz: 0, lap: 0 }]);
  assert.deepEqual(doc.corners, [{
    n: 1,
    name: "",
    direction: null,
    apex: { x: 1, z: 2 },
    entry: null,
    exit: null,
    note: "",
  }]);
  assert.deepEqual(doc.sections, [{ n: 1, name: "", start: { x: 0, z: 0 }, end: { x: 5, z: 5 } }]);
  // The input is not the output: nothing is shared with the raw value.
  assert.notEqual(doc.edges[0].votes, (raw.edges as Loose)[0].votes);
});

Deno.test("missing or null finish_crossings, corners, sections and official become empty", () => {
  const raw = edit((d) => {
    delete d.finish_crossings;
    d.corners = null;
    delete d.sections;
    delete d.meta.official;
    delete d.meta.updated_at;
    delete d.meta.runs;
  });
  const doc = validateBundle(raw) as BundleV4;
  assert.deepEqual(doc.finish_crossings, []);
  assert.deepEqual(doc.corners, []);
  assert.deepEqual(doc.sections, []);
  assert.equal(doc.meta.official, null);
  assert.equal(doc.meta.updated_at, "");
  assert.equal(doc.meta.runs, 4);
});

Deno.test('corners and sections are renumbered 1..N from list order; "" direction becomes null', () => {
  const doc = validateBundle(edit((d) => {
    d.corners = [
      { n: 9, name: "Hairpin", direction: "", apex: { x: 30, z: 5 }, entry: { x: 30.0, z: 5.0 } },
      { n: 2, name: "Esses", direction: "L", apex: { x: 10, z: 5 }, exit: null, note: "fast" },
      { name: "Last", direction: "R", apex: { x: 0, z: 0 }, direction_extra: 1 },
    ];
    d.sections = [
      { n: 40, name: "S2", start: { x: 1, z: 1 }, end: { x: 2, z: 2 } },
      { n: 1, name: "S1", start: { x: 3, z: 3 }, end: { x: 4, z: 4 } },
    ];
  })) as BundleV4;
  assert.deepEqual(doc.corners.map((c) => [c.n, c.name, c.direction]), [
    [1, "Hairpin", null],
    [2, "Esses", "L"],
    [3, "Last", "R"],
  ]);
  assert.deepEqual(doc.corners[0].entry, { x: 30, z: 5 });
  assert.equal(doc.corners[1].note, "fast");
  assert.deepEqual(doc.sections.map((s) => [s.n, s.name]), [[1, "S2"], [2, "S1"]]);
});

Deno.test("the stored kind is never trusted: it is recomputed from the votes", () => {
  const doc = validateBundle(edit((d) => {
    d.edges[0].kind = "wall";
    d.edges[0].votes = { auto: { [ME]: [4, 4] }, runoff: { [FRIEND]: [1, 2] } };
    d.edges[1].kind = "straddle";
  })) as BundleV4;
  assert.equal(doc.edges[0].kind, "runoff");
  assert.equal(doc.edges[1].kind, "auto");
});

Deno.test("source_runs {} with votes at run 4 stores {src: 4} and runs 4", () => {
  const doc = validateBundle(edit((d) => {
    d.meta.source_runs = {};
    d.meta.runs = 0;
  })) as BundleV4;
  assert.deepEqual(doc.meta.source_runs, { [ME]: 4 });
  assert.equal(doc.meta.runs, 4);
});

Deno.test("source_runs are raised to each source's highest last_run and runs is their sum", () => {
  const doc = validateBundle(edit((d) => {
    d.meta.source_runs = { [ME]: 2, [FRIEND]: 9, "abcdef": 0 };
    d.meta.runs = 999;
    d.edges[0].votes.wall = { [FRIEND]: [2, 7], "abcdef": [3, 5] };
  })) as BundleV4;
  assert.deepEqual(doc.meta.source_runs, { [ME]: 4, abcdef: 5, [FRIEND]: 9 });
  assert.deepEqual(Object.keys(doc.meta.source_runs), [ME, "abcdef", FRIEND]);
  assert.equal(doc.meta.runs, 18);
});

Deno.test("run counters that would sum past 1,000,000 are refused", () => {
  refusedAt(
    edit((d) => d.meta.source_runs = { [ME]: 600000, [FRIEND]: 600000 }),
    "$.meta.source_runs",
    /sum to at most 1000000/,
  );
});

Deno.test("meta.track is trimmed; version 4.0 is 4", () => {
  const raw = JSON.parse(JSON.stringify(v4Doc(1)).replace('"version":4', '"version":4.0'));
  raw.meta.track = "  Lago Maggiore - East End \t";
  const doc = validateBundle(raw);
  assert.equal(doc.version, 4);
  assert.equal(doc.meta.track, "Lago Maggiore - East End");
});

Deno.test("v2 and v3: stored kind tolerated (hashed as auto when invalid), votes checked", () => {
  const raw = legacyDoc(3, { version: 3 }) as Loose;
  raw.edges[0].kind = "grass";
  delete raw.edges[1].kind;
  raw.edges[2].votes = { wall: [9, 2], auto: [1, 0] };
  const doc = validateBundle(raw) as BundleLegacy;
  assert.equal(doc.version, 3);
  assert.deepEqual(doc.edges.map((e) => e.kind), ["auto", "auto", "auto"]);
  assert.deepEqual(doc.edges[2].votes, { wall: [9, 2], auto: [1, 0] });
  assert.equal(doc.edges[0].y, 3.25);
  assert.deepEqual(doc.meta, { track: "Old Ring", runs: 3, updated_at: "2023-01-01T00:00:00" });

  const v2 = legacyDoc(2) as Loose;
  refusedAt(edit((d) => d.edges[0].votes = {}, v2), "$.edges[0].votes", /at least one kind/);
  refusedAt(
    edit((d) => d.edges[0].votes = { grass: [1, 1] }, v2),
    "$.edges[0].votes.grass",
    /kind must be one of/,
  );
  refusedAt(
    edit((d) => d.edges[0].votes = { auto: [0, 1] }, v2),
    "$.edges[0].votes.auto",
    /count must be an integer from 1/,
  );
  refusedAt(
    edit((d) => d.edges[0].votes = { auto: [1, -1] }, v2),
    "$.edges[0].votes.auto",
    /run must be an integer from 0/,
  );
  refusedAt(
    edit((d) => d.edges[0].votes = { auto: [1.5, 1] }, v2),
    "$.edges[0].votes.auto",
    /count must be an integer/,
  );
  refusedAt(
    edit((d) => d.edges[0].votes = { auto: { [ME]: [1, 1] } }, v2),
    "$.edges[0].votes.auto",
    /two integers/,
  );
  refusedAt(edit((d) => d.edges[0].side = "U", v2), "$.edges[0].side", /side/);
  refusedAt(edit((d) => d.meta.runs = -3, v2), "$.meta.runs", /integer from 0/);
  refusedAt(edit((d) => d.meta.runs = 2.5, v2), "$.meta.runs", /integer from 0/);
});

Deno.test("v1: the kind of each record must be one of the five", () => {
  const v1 = {
    format: FORMAT,
    version: 1,
    meta: { track: "First", runs: 3, updated_at: "2022-01-01T00:00:00" },
    edges: [{ x: 1, z: 2, hx: 0, hz: 1, side: "L", kind: "runoff" }],
    finish_crossings: [],
  };
  const doc = validateBundle(v1);
  assert.equal(doc.version, 1);
  assert.deepEqual(doc.edges, [{ x: 1, z: 2, hx: 0, hz: 1, side: "L", kind: "runoff" }]);
  refusedAt(edit((d) => d.edges[0].kind = "grass", v1), "$.edges[0].kind", /kind must be one of/);
  refusedAt(edit((d) => delete d.edges[0].kind, v1), "$.edges[0].kind", /^required: kind/);
});

Deno.test("track override: trimmed; blank, over-long and control characters refused, never cut", () => {
  assert.equal(validateTrackOverride("  Lago  "), "Lago");
  assert.equal(validateTrackOverride("é".repeat(80)), "é".repeat(80));
  const blank = "is blank: give 1 to 80 characters that are not all spaces";
  const control = (code: string, at: number) =>
    `holds a control character, U+${code}, at character ${at}: none is allowed`;
  for (
    const [bad, rule] of [
      ["  ", blank],
      ["", blank],
      ["x".repeat(81), "is too long: 81 characters, at most 80"],
      ["é".repeat(100), "is too long: 100 characters, at most 80"],
      ["A\u0001B", control("0001", 2)],
      ["Spa\x1b[2J", control("001B", 4)],
      ["a\nb", control("000A", 2)],
    ]
  ) {
    assert.throws(
      () => validateTrackOverride(bad),
      (e: unknown) =>
        e instanceof BadRequest && e.message === `track ${rule}` &&
        e.issues.length === 1 && e.issues[0].path === "track" && e.issues[0].message === rule,
      JSON.stringify(bad),
    );
  }
});

Deno.test("JSON paths: indexes in brackets, plain names dotted, others quoted", () => {
  assert.equal(jsonPath([]), "$");
  assert.equal(jsonPath(["edges", 3, "votes", "auto", "abc123"]), "$.edges[3].votes.auto.abc123");
  assert.equal(
    jsonPath(["edges", 0, "votes", "auto", "123abc"]),
    "$.edges[0].votes.auto['123abc']",
  );
  assert.equal(jsonPath(["a b", "it's", "back\\slash"]), "$['a b']['it\\'s']['back\\\\slash']");
});
