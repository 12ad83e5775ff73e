import { strict as assert } from "node:assert";
import { merge } from "../../_merge_objects.ts";
import { tableBundleOf } from "../../../src/core/bundle/table_convert.ts";
import type { BundleV4 } from "../../../src/core/bundle/types.ts";
import {
  nextOrdinal,
  runBundle,
  RunEvidence,
  type RunStamp,
} from "../../../src/core/survey/run_evidence.ts";

const ME = "a1b2c3d4e5f6";
const FRIEND = "0f1e2d3c4b5a";
const NOW = "2026-11-21T12:00:00.000Z";

function run(
  kinds: ("auto" | "straddle" | "runoff" | "edge" | "wall")[],
  stamp: Partial<RunStamp>,
) {
  const evidence = new RunEvidence();
  for (const kind of kinds) evidence.lay(kind, "L", 10.2, 20.4, 5, 1, 0, 1.6);
  return runBundle(evidence.snapshot(), [], {
    track: "Ring",
    source: ME,
    ordinal: 1,
    countRun: false,
    now: NOW,
    ...stamp,
  });
}

/** A survey save: the one merge, authored data kept, counters not reconciled. */
function save(local: BundleV4 | null, incoming: BundleV4): BundleV4 {
  return merge(local, incoming, { now: NOW, keepAuthored: true, reconcileRuns: false }).merged;
}

Deno.test("a run votes once per kind per metre however often it lays it", () => {
  const evidence = new RunEvidence();
  assert.equal(evidence.lay("straddle", "L", 10.2, 20.4, 5, 1, 0, 1.6), true);
  assert.equal(evidence.lay("straddle", "L", 10.4, 20.1, 5, 1, 0, 1.6), false);
  assert.equal(evidence.lay("auto", "L", 9.6, 19.6, 5, 1, 0, 1.6), true);
  assert.equal(evidence.lay("auto", "R", 10.2, 20.4, 5, 1, 0, 1.6), true);
  assert.equal(evidence.size, 2);
  const doc = runBundle(evidence.snapshot(), [], {
    track: "Ring",
    source: ME,
    ordinal: 3,
    countRun: true,
    now: NOW,
  });
  assert.deepEqual(doc.edges[0].votes, { auto: { [ME]: [1, 3] }, straddle: { [ME]: [1, 3] } });
  assert.equal(doc.edges[0].run, 3);
  assert.equal(doc.edges[0].tw, 1.6);
  assert.deepEqual(doc.meta.source_runs, { [ME]: 3 });
});

Deno.test("five autosaves of one run leave [1, 1]; the stop counts the run; a second run counts once more", () => {
  let doc: BundleV4 | null = null;
  for (let i = 0; i < 5; i++) doc = save(doc, run(["straddle"], { ordinal: 1 }));
  assert.deepEqual(doc!.edges[0].votes, { straddle: { [ME]: [1, 1] } });
  assert.deepEqual(doc!.meta.source_runs, { [ME]: 0 });
  doc = save(doc, run(["straddle"], { ordinal: 1, countRun: true }));
  assert.deepEqual(doc.edges[0].votes, { straddle: { [ME]: [1, 1] } });
  assert.equal(doc.meta.runs, 1);
  assert.equal(nextOrdinal(tableBundleOf(doc), ME), 2);
  for (let i = 0; i < 3; i++) doc = save(doc, run(["straddle"], { ordinal: 2 }));
  doc = save(doc, run(["straddle"], { ordinal: 2, countRun: true }));
  assert.deepEqual(doc.edges[0].votes, { straddle: { [ME]: [2, 2] } });
  assert.equal(doc.meta.runs, 2);
  assert.equal(doc.edges.length, 1);
});

Deno.test("manual evidence beats inferred outright: auto (run 1) then runoff (run 2), then two edge votes", () => {
  let doc = save(null, run(["auto"], { ordinal: 1, countRun: true }));
  assert.equal(doc.edges[0].kind, "auto");
  doc = save(doc, run(["runoff"], { ordinal: 2, countRun: true }));
  assert.equal(doc.edges[0].kind, "runoff");
  // The outvoted evidence stays in the votes.
  assert.deepEqual(doc.edges[0].votes.auto, { [ME]: [1, 1] });
  doc = save(doc, run(["edge", "auto"], { ordinal: 3, countRun: true }));
  doc = save(doc, run(["edge", "auto"], { ordinal: 4, countRun: true }));
  assert.deepEqual(doc.edges[0].votes.edge, { [ME]: [2, 4] });
  assert.deepEqual(doc.edges[0].votes.auto, { [ME]: [3, 4] });
  // Two manual edge votes beat one runoff; three inferred auto votes never beat manual.
  assert.equal(doc.edges[0].kind, "edge");
});

Deno.test("two sources at run 1 give a total of 2, and merging again changes nothing", () => {
  const mine = save(null, run(["straddle"], { ordinal: 1, countRun: true }));
  const theirs = save(null, run(["straddle"], { ordinal: 1, countRun: true, source: FRIEND }));
  const both = merge(mine, theirs, { now: NOW }).merged;
  assert.deepEqual(both.edges[0].votes, { straddle: { [ME]: [1, 1], [FRIEND]: [1, 1] } });
  const total = Object.values(both.edges[0].votes.straddle!).reduce((n, [c]) => n + c, 0);
  assert.equal(total, 2);
  assert.equal(both.meta.runs, 2);
  assert.deepEqual(merge(both, theirs, { now: NOW }).merged, both);
});

Deno.test("the next ordinal follows the vote watermark, so a crash after an autosave never reuses a run", () => {
  const autosaved = save(null, run(["straddle"], { ordinal: 1 }));
  assert.deepEqual(autosaved.meta.source_runs, { [ME]: 0 });
  assert.equal(nextOrdinal(tableBundleOf(autosaved), ME), 2);
  assert.equal(nextOrdinal(null, ME), 1);
  assert.equal(nextOrdinal(tableBundleOf(autosaved), FRIEND), 1);
  const second = save(autosaved, run(["straddle"], { ordinal: 2, countRun: true }));
  assert.deepEqual(second.edges[0].votes, { straddle: { [ME]: [2, 2] } });
});
