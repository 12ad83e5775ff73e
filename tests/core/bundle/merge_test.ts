import { strict as assert } from "node:assert";
import { ImportRejected } from "../../../src/core/errors.ts";
import { mergeTables } from "../../../src/core/bundle/merge.ts";
import { merge } from "../../_merge_objects.ts";
import { tableBundleOf } from "../../../src/core/bundle/table_convert.ts";
import { canonicalBundle } from "../../../src/core/bundle/serialise.ts";
import { importStats } from "../../../src/core/bundle/stats.ts";
import type { BundleV4, Edge, Official } from "../../../src/core/bundle/types.ts";
import { upgrade, upgradeImported } from "../../../src/core/bundle/upgrade.ts";
import { validateBundle } from "../../../src/core/bundle/validate.ts";
import { FORMAT, FRIEND, ME, v4Doc } from "./arbitraries.ts";

const NOW = "2025-06-01T12:00:00.000000+00:00";
const LATER = "2025-06-02T08:30:00.000000+00:00";

function read(raw: unknown): BundleV4 {
  return upgradeImported(validateBundle(raw));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

function edge(x: number, z: number, votes: Edge["votes"], extra: Partial<Edge> = {}): Edge {
  return {
    x,
    z,
    y: null,
    hx: 0,
    hz: 1,
    side: "L",
    kind: "auto",
    votes,
    run: 1,
    tw: null,
    ...extra,
  };
}

function bundle(
  edges: Edge[],
  extra: Partial<BundleV4> = {},
  meta: Partial<BundleV4["meta"]> = {},
): BundleV4 {
  const doc: BundleV4 = {
    format: FORMAT,
    version: 4,
    meta: { track: "Ring", runs: 0, source_runs: {}, updated_at: "", official: null, ...meta },
    edges,
    finish_crossings: [],
    corners: [],
    sections: [],
    ...extra,
  };
  return deepFreeze(doc);
}

const OFFICIAL: Official = {
  track: "Lago Maggiore",
  layout: "East End",
  official_id: "lago-east",
  official_name: "Lago Maggiore - East End",
  turns: 8,
  length_m: 1800,
  reverse: false,
};

Deno.test("a 6-cell v4 import adds 6; repeating it adds 0 and leaves votes and counters alone", () => {
  const raw = v4Doc(6, { source: FRIEND, run: 4 });
  const first = merge(null, read(raw), { now: NOW });
  assert.equal(first.report.edgesBefore, 0);
  assert.equal(first.report.addedEdges, 6);
  assert.equal(first.merged.edges.length, 6);
  const second = merge(first.merged, read(raw), { now: LATER });
  assert.equal(second.report.edgesBefore, 6);
  assert.equal(second.report.addedEdges, 0);
  assert.equal(second.report.edgesAfter, 6);
  for (const e of second.merged.edges) assert.deepEqual(e.votes, { auto: { [FRIEND]: [4, 4] } });
  assert.deepEqual(second.merged.meta.source_runs, { [FRIEND]: 4 });
  assert.equal(second.merged.meta.runs, 4);
  assert.equal(second.merged.meta.updated_at, LATER);
  const expected = canonicalBundle(first.merged);
  expected.meta.updated_at = LATER;
  assert.deepEqual(canonicalBundle(second.merged), expected);
});

Deno.test("local [1,1] by me + imported [3,3] by a friend: both kept, total 4, runs 4", () => {
  const local = read(v4Doc(1, { source: ME, run: 1 }));
  const incoming = read(v4Doc(1, { source: FRIEND, run: 3 }));
  const { merged } = merge(local, incoming, { now: NOW });
  assert.deepEqual(merged.edges[0].votes, { auto: { [ME]: [1, 1], [FRIEND]: [3, 3] } });
  assert.deepEqual(merged.meta.source_runs, { [ME]: 1, [FRIEND]: 3 });
  assert.equal(merged.meta.runs, 4);
  assert.equal(merged.meta.source_runs[ME] + 1, 2, "my next run ordinal is 2");
});

Deno.test("an existing cell keeps its first-seen x, z, heading, side, run and tw; y is back-filled", () => {
  const local = bundle([
    edge(10.2, 4.9, { auto: { [ME]: [1, 1] } }, { hx: 1, hz: 0, run: 1, tw: 1.6 }),
  ]);
  const incoming = bundle([
    edge(9.7, 5.3, { auto: { [FRIEND]: [2, 2] } }, { y: 33.5, hx: 0, hz: -1, run: 2, tw: 1.9 }),
  ]);
  const { merged } = merge(local, incoming, { now: NOW });
  assert.deepEqual(merged.edges, [{
    x: 10.2,
    z: 4.9,
    y: 33.5,
    hx: 1,
    hz: 0,
    side: "L",
    kind: "auto",
    votes: { auto: { [ME]: [1, 1], [FRIEND]: [2, 2] } },
    run: 1,
    tw: 1.6,
  }]);
  // A known elevation is not overwritten.
  const again = merge(merged, bundle([edge(10, 5, {}, { y: 1 })]), { now: NOW }).merged;
  assert.equal(again.edges[0].y, 33.5);
});

Deno.test("new cells are copied whole, after the local ones, in incoming order", () => {
  const local = bundle([
    edge(0, 0, { auto: { [ME]: [1, 1] } }),
    edge(1, 0, { auto: { [ME]: [1, 1] } }),
  ]);
  const incoming = bundle([
    edge(5, 0, { wall: { [FRIEND]: [1, 1] } }, { y: 2, run: 7, tw: 1.7 }),
    edge(1.4, 0, { auto: { [FRIEND]: [1, 1] } }),
    edge(3, 0, { edge: { [FRIEND]: [1, 1] } }),
  ]);
  const { merged, report } = merge(local, incoming, { now: NOW });
  assert.deepEqual(merged.edges.map((e) => [e.x, e.kind]), [[0, "auto"], [1, "auto"], [5, "wall"], [
    3,
    "edge",
  ]]);
  assert.deepEqual(merged.edges[2], {
    x: 5,
    z: 0,
    y: 2,
    hx: 0,
    hz: 1,
    side: "L",
    kind: "wall",
    votes: { wall: { [FRIEND]: [1, 1] } },
    run: 7,
    tw: 1.7,
  });
  assert.equal(report.addedEdges, 2);
});

Deno.test("cells are keyed with half-to-even rounding, and sides are separate cells", () => {
  const local = bundle([
    edge(0, 0, { auto: { [ME]: [1, 1] } }),
    edge(2, 0, { auto: { [ME]: [1, 1] } }),
  ]);
  const incoming = bundle([
    edge(0.5, -0.5, { wall: { [ME]: [1, 1] } }), // rounds to (0, 0)
    edge(2.5, 0, { wall: { [ME]: [1, 1] } }), // rounds to (2, 0)
    edge(1.5, 0, { wall: { [ME]: [1, 1] } }), // rounds to (2, 0) too
    edge(3.5, 0, { wall: { [ME]: [1, 1] } }), // rounds to (4, 0): new
    edge(0, 0, { wall: { [ME]: [1, 1] } }, { side: "R" }), // other side: new
  ]);
  const { merged } = merge(local, incoming, { now: NOW });
  assert.deepEqual(merged.edges.map((e) => [e.x, e.side, e.kind]), [
    [0, "L", "wall"],
    [2, "L", "wall"],
    [3.5, "L", "wall"],
    [0, "R", "wall"],
  ]);
});

Deno.test("votes advance only on a later run; the kind is re-resolved, never trusted", () => {
  const local = bundle([edge(0, 0, { auto: { [ME]: [2, 2] } }, { kind: "wall" })]);
  const same = merge(local, bundle([edge(0, 0, { auto: { [ME]: [2, 2] } })]), { now: NOW }).merged;
  assert.deepEqual(same.edges[0].votes, { auto: { [ME]: [2, 2] } });
  assert.equal(same.edges[0].kind, "auto");
  const later =
    merge(local, bundle([edge(0, 0, { auto: { [ME]: [1, 5] }, runoff: { [ME]: [1, 5] } })]), {
      now: NOW,
    }).merged;
  assert.deepEqual(later.edges[0].votes, { auto: { [ME]: [3, 5] }, runoff: { [ME]: [1, 5] } });
  assert.equal(later.edges[0].kind, "runoff");
});

Deno.test("a v1-upgraded local cell at run 0 then a run-1 vote stays importable", () => {
  const local = upgrade(
    validateBundle({
      format: FORMAT,
      version: 1,
      meta: { track: "Ring", runs: 0, updated_at: "" },
      edges: [{ x: 0, z: 0, side: "L", kind: "auto" }],
    }),
    ME,
  );
  const { merged } = merge(local, bundle([edge(0, 0, { auto: { [ME]: [1, 1] } })]), { now: NOW });
  assert.deepEqual(merged.edges[0].votes, { auto: { [ME]: [1, 1] } });
  assert.deepEqual(merged.meta.source_runs, { [ME]: 1 });
  assert.doesNotThrow(() => validateBundle(JSON.parse(JSON.stringify(merged))));
});

Deno.test("source_runs: per-source maximum, raised to the vote watermarks, keys sorted; runs = sum", () => {
  const local = bundle([edge(0, 0, { auto: { [ME]: [1, 1] } })], {}, {
    source_runs: { [ME]: 3, bbbbbb: 9 },
  });
  const incoming = bundle([edge(0, 0, { auto: { [FRIEND]: [6, 6], abcdef: [2, 7] } })], {}, {
    source_runs: { [ME]: 5, bbbbbb: 2, [FRIEND]: 1 },
  });
  const { merged } = merge(local, incoming, { now: NOW });
  assert.deepEqual(merged.meta.source_runs, { [ME]: 5, abcdef: 7, bbbbbb: 9, [FRIEND]: 6 });
  assert.deepEqual(Object.keys(merged.meta.source_runs), [ME, "abcdef", "bbbbbb", FRIEND]);
  assert.equal(merged.meta.runs, 27);
});

Deno.test("finish crossings: local first, new rounded positions appended, newest 20 kept", () => {
  const crossing = (x: number, lap: number) => ({ x, z: 0, hx: 0, hz: 1, lap });
  const local = bundle([], { finish_crossings: [crossing(0, 1), crossing(10, 2)] });
  const incoming = bundle([], {
    finish_crossings: [crossing(0.4, 3), crossing(20, 4), crossing(20.2, 5)],
  });
  const { merged } = merge(local, incoming, { now: NOW });
  assert.deepEqual(merged.finish_crossings.map((c) => [c.x, c.lap]), [[0, 1], [10, 2], [20, 4]]);

  const many = bundle([], {
    finish_crossings: Array.from({ length: 20 }, (_, i) => crossing(i * 10, i)),
  });
  const more = bundle([], {
    finish_crossings: Array.from({ length: 5 }, (_, i) => crossing(1000 + i * 10, 100 + i)),
  });
  const kept = merge(many, more, { now: NOW }).merged.finish_crossings;
  assert.equal(kept.length, 20);
  assert.deepEqual(kept[0], crossing(50, 5));
  assert.deepEqual(kept[19], crossing(1040, 104));
});

Deno.test("corners, sections and official: local ones stay when present, else incoming ones apply", () => {
  const corner = (name: string) => ({
    n: 1,
    name,
    direction: "L" as const,
    apex: { x: 30, z: 5 },
    entry: { x: 30.0, z: 5.0 },
    exit: null,
    note: "",
  });
  const section = (name: string) => ({ n: 1, name, start: { x: 0, z: 0 }, end: { x: 1, z: 1 } });
  const incoming = bundle([], { corners: [corner("theirs")], sections: [section("theirs")] }, {
    official: { ...OFFICIAL, layout: "theirs" },
  });

  const authored = bundle([], { corners: [corner("mine")], sections: [section("mine")] }, {
    official: OFFICIAL,
  });
  const kept = merge(authored, incoming, { now: NOW });
  assert.deepEqual(kept.merged.corners, [corner("mine")]);
  assert.deepEqual(kept.merged.sections, [section("mine")]);
  assert.deepEqual(kept.merged.meta.official, OFFICIAL);
  assert.deepEqual(
    [kept.report.cornersKept, kept.report.sectionsKept, kept.report.officialKept],
    [true, true, true],
  );

  const bare = bundle([]);
  const applied = merge(bare, incoming, { now: NOW });
  assert.deepEqual(applied.merged.corners, [corner("theirs")]);
  assert.deepEqual(applied.merged.sections, [section("theirs")]);
  assert.equal(applied.merged.meta.official?.layout, "theirs");
  assert.deepEqual(
    [applied.report.cornersKept, applied.report.sectionsKept, applied.report.officialKept],
    [false, false, false],
  );

  // Nothing incoming to drop: nothing reported kept, local ones stay.
  const quiet = merge(authored, bare, { now: NOW });
  assert.deepEqual(quiet.merged.corners, [corner("mine")]);
  assert.deepEqual(
    [quiet.report.cornersKept, quiet.report.sectionsKept, quiet.report.officialKept],
    [false, false, false],
  );
});

Deno.test("keepAuthored (survey saves) never takes corners, sections or official from incoming", () => {
  const incoming = bundle([], {
    corners: [{
      n: 1,
      name: "c",
      direction: null,
      apex: { x: 0, z: 0 },
      entry: null,
      exit: null,
      note: "",
    }],
  }, { official: OFFICIAL });
  const bare = bundle([]);
  const { merged, report } = merge(bare, incoming, { now: NOW, keepAuthored: true });
  assert.deepEqual(merged.corners, []);
  assert.equal(merged.meta.official, null);
  assert.equal(report.cornersKept, true);
  assert.equal(report.officialKept, true);
  // Without a local document there is nothing to keep.
  assert.equal(merge(null, incoming, { now: NOW, keepAuthored: true }).merged.corners.length, 1);
});

Deno.test("meta.track: the override if given, else the incoming name; updated_at is now", () => {
  const local = bundle([], {}, { track: "lago east", updated_at: "old" });
  const incoming = bundle([], {}, { track: "Lago - East End", updated_at: "theirs" });
  assert.equal(merge(local, incoming, { now: NOW }).merged.meta.track, "Lago - East End");
  const renamed = merge(local, incoming, { now: NOW, track: "Lago Maggiore East" }).merged;
  assert.equal(renamed.meta.track, "Lago Maggiore East");
  assert.equal(renamed.meta.updated_at, NOW);
});

Deno.test("neither argument is changed (both deep-frozen)", () => {
  const local = bundle([edge(0, 0, { auto: { [ME]: [1, 1] } })], {
    finish_crossings: [{ x: 0, z: 0, hx: 0, hz: 1, lap: 1 }],
  }, { source_runs: { [ME]: 1 }, official: OFFICIAL });
  const incoming = bundle([
    edge(0, 0, { auto: { [ME]: [2, 2] } }, { y: 4 }),
    edge(9, 9, { wall: { [FRIEND]: [1, 1] } }),
  ]);
  const before = structuredClone([local, incoming]);
  const { merged } = merge(local, incoming, { now: NOW });
  assert.deepEqual([local, incoming], before);
  assert.deepEqual(merged.edges[0].votes, { auto: { [ME]: [2, 2] } });
  assert.equal(merged.edges[0].y, 4);
});

Deno.test("a merge past 50,000 edges is refused whole at $.edges; exactly 50,000 is fine", () => {
  const row = (count: number, offset: number) =>
    Array.from({ length: count }, (_, i) => edge(offset + i, 0, { auto: { [ME]: [1, 1] } }));
  const local = bundle(row(30_000, 0));
  const fits = merge(local, bundle(row(20_000, 30_000)), { now: NOW });
  assert.equal(fits.merged.edges.length, 50_000);
  const tooMany = bundle([...row(10, 0), ...row(20_001, 30_000)]);
  assert.throws(() => merge(local, tooMany, { now: NOW }), (e: unknown) => {
    assert.ok(e instanceof ImportRejected);
    assert.deepEqual(e.issues.map((i) => i.path), ["$.edges"]);
    assert.match(e.issues[0].message, /would hold 50001 edges; the limit is 50000/);
    return true;
  });
  assert.equal(local.edges.length, 30_000);
});

Deno.test("run counters that would sum past 1,000,000 are refused at $.meta.runs", () => {
  const local = bundle([], {}, { source_runs: { [ME]: 600_000 } });
  const incoming = bundle([], {}, { source_runs: { [FRIEND]: 400_001 } });
  assert.throws(
    () => merge(local, incoming, { now: NOW }),
    (e: unknown) => e instanceof ImportRejected && e.issues[0].path === "$.meta.runs",
  );
});

Deno.test("import stats report the merged counts and what was kept", () => {
  const incoming = read(v4Doc(4, { source: FRIEND, run: 2 }));
  const local = bundle([edge(0, 0, { wall: { [ME]: [1, 1] } }, { y: 1 })], {
    corners: [{
      n: 1,
      name: "T1",
      direction: "R",
      apex: { x: 0, z: 0 },
      entry: null,
      exit: null,
      note: "",
    }],
  }, { source_runs: { [ME]: 1 } });
  const stats = importStats(
    mergeTables(tableBundleOf(local), tableBundleOf(incoming), { now: NOW }),
  );
  assert.deepEqual(stats, {
    points: 4,
    elevation_points: 4,
    elevation_pct: 100,
    manual_points: 1,
    finish_crossings: 0,
    corners: 1,
    sections: 0,
    sources: 2,
    added_points: 3,
    corners_kept: false,
    sections_kept: false,
    official_kept: false,
  });
});

Deno.test("reconcileRuns false (survey saves): a run in progress is not counted by its votes", () => {
  const local = bundle([edge(0, 0, { auto: { [ME]: [1, 1] } })], {}, { source_runs: { [ME]: 1 } });
  const save = bundle(
    [edge(0, 0, { auto: { [ME]: [2, 2] } }), edge(1, 0, { wall: { [ME]: [1, 2] } })],
    {},
    {
      source_runs: { [ME]: 1 },
    },
  );
  const saved = merge(local, save, { now: NOW, keepAuthored: true, reconcileRuns: false }).merged;
  assert.deepEqual(saved.meta.source_runs, { [ME]: 1 });
  assert.equal(saved.meta.runs, 1);
  assert.deepEqual(saved.edges[0].votes, { auto: { [ME]: [2, 2] } });
  const imported = merge(local, save, { now: NOW }).merged;
  assert.deepEqual(imported.meta.source_runs, { [ME]: 2 });
});
