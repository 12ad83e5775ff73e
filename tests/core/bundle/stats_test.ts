import { strict as assert } from "node:assert";
import { bundleStats as tableStats } from "../../../src/core/bundle/stats.ts";
import { tableBundleOf } from "../../../src/core/bundle/table_convert.ts";
import type { BundleV4, Edge } from "../../../src/core/bundle/types.ts";
import { FORMAT, FRIEND, ME } from "./arbitraries.ts";

/** The stats of a document of edge objects, through its table. */
const bundleStats = (d: BundleV4) => tableStats(tableBundleOf(d));

function doc(edges: Edge[], sourceRuns: Record<string, number> = {}): BundleV4 {
  return {
    format: FORMAT,
    version: 4,
    meta: { track: "Ring", runs: 0, source_runs: sourceRuns, updated_at: "", official: null },
    edges,
    finish_crossings: [{ x: 0, z: 0, hx: 0, hz: 1, lap: 1 }],
    corners: [],
    sections: [{ n: 1, name: "S1", start: { x: 0, z: 0 }, end: { x: 1, z: 1 } }],
  };
}

function edge(kind: Edge["kind"], y: number | null): Edge {
  return {
    x: 0,
    z: 0,
    y,
    hx: 0,
    hz: 1,
    side: "L",
    kind,
    votes: { [kind]: { [ME]: [1, 1] } },
    run: 1,
    tw: null,
  };
}

Deno.test("stats of an empty bundle: zero points and 0 % elevation", () => {
  assert.deepEqual(bundleStats(doc([])), {
    points: 0,
    elevation_points: 0,
    elevation_pct: 0,
    manual_points: 0,
    finish_crossings: 1,
    corners: 0,
    sections: 1,
    sources: 0,
  });
});

Deno.test("stats count elevations, manual kinds and sources", () => {
  const edges = [
    edge("wall", 1),
    edge("runoff", null),
    edge("edge", 2),
    edge("auto", null),
    edge("straddle", null),
    edge("auto", null),
  ];
  const stats = bundleStats(doc(edges, { [ME]: 2, [FRIEND]: 1 }));
  assert.equal(stats.points, 6);
  assert.equal(stats.elevation_points, 2);
  assert.equal(stats.elevation_pct, 33.3);
  assert.equal(stats.manual_points, 3);
  assert.equal(stats.sources, 2);
});

Deno.test("elevation_pct has one decimal, halves rounded to even as Python does", () => {
  // 1 of 16 is exactly 6.25 %: Python's round gives 6.2.
  const edges = Array.from({ length: 16 }, (_, i) => edge("auto", i === 0 ? 5 : null));
  assert.equal(bundleStats(doc(edges)).elevation_pct, 6.2);
  // 3 of 16 is exactly 18.75 %: 18.8.
  const three = Array.from({ length: 16 }, (_, i) => edge("auto", i < 3 ? 5 : null));
  assert.equal(bundleStats(doc(three)).elevation_pct, 18.8);
  assert.equal(bundleStats(doc([edge("auto", 0)])).elevation_pct, 100);
});
