import { strict as assert } from "node:assert";
import fc from "fast-check";
import { EdgeTableBuilder } from "../../../src/core/bundle/edge_table.ts";
import { mergeTables } from "../../../src/core/bundle/merge.ts";
import { merge } from "../../_merge_objects.ts";
import { mergeCells } from "../../../src/core/bundle/merge_cells.ts";
import {
  edgesOfTable,
  inCellOrder,
  tableBundleOf,
  tableOfEdges,
} from "../../../src/core/bundle/table_convert.ts";
import type { BundleV4, Edge } from "../../../src/core/bundle/types.ts";
import { upgradeImported } from "../../../src/core/bundle/upgrade.ts";
import { validateBundle } from "../../../src/core/bundle/validate.ts";
import { syntheticBundle } from "../../_bundles.ts";
import { referenceMerge } from "./_reference_merge.ts";
import { FRIEND, ME, v4DocsArb } from "./arbitraries.ts";

const NOW = "2026-11-21T12:00:00.000Z";

function v4(raw: unknown): BundleV4 {
  return upgradeImported(validateBundle(raw));
}

/** Edges as JSON would write them: key order and -0 aside, what a reader sees. */
function text(edges: readonly Edge[]): string {
  return JSON.stringify(edgesOfTable(tableOfEdges(edges)));
}

Deno.test("the table merge gives the cells and counters of the object merge it replaced", () => {
  fc.assert(
    fc.property(v4DocsArb(2), fc.boolean(), fc.boolean(), ([rawA, rawB], alone, reconcile) => {
      const a = v4(rawA);
      const b = v4(rawB);
      const local = alone ? null : a;
      const expected = referenceMerge(local, b, reconcile);
      const { merged, report } = merge(local, b, { now: NOW, reconcileRuns: reconcile });
      assert.equal(text(merged.edges), text(expected.edges));
      assert.deepEqual(merged.meta.source_runs, expected.source_runs);
      assert.equal(merged.meta.runs, expected.runs);
      assert.equal(report.edgesBefore, expected.before);
      assert.equal(report.addedEdges, expected.edges.length - expected.before);
    }),
    { numRuns: 300 },
  );
});

Deno.test("records of one cell within one document fold in order, as the object merge folds them", () => {
  fc.assert(
    fc.property(v4DocsArb(3), ([rawA, rawB, rawC]) => {
      // Documents with repeated cells: b's and c's edges run twice through one document.
      const a = v4(rawA);
      const b = v4(rawB);
      const c = v4(rawC);
      const twice: BundleV4 = { ...b, edges: [...b.edges, ...c.edges, ...b.edges] };
      const expected = referenceMerge(a, twice);
      const { merged } = merge(a, twice, { now: NOW });
      assert.equal(text(merged.edges), text(expected.edges));
      assert.deepEqual(merged.meta.source_runs, expected.source_runs);
    }),
    { numRuns: 200 },
  );
});

Deno.test("a 20,000-edge merge: the table merge equals the object merge, cell for cell", () => {
  const a = v4(syntheticBundle({ cells: 20_000, sources: [ME], runs: 12, seed: 11 }));
  const b = v4(syntheticBundle({
    cells: 20_000,
    sources: ["0badc0ffee01", FRIEND, ME],
    runs: 25,
    seed: 12,
    dx: 0.2,
  }));
  const expected = referenceMerge(a, b);
  const { merged, report } = mergeTables(tableBundleOf(a), tableBundleOf(b), { now: NOW });
  assert.equal(merged.edges.length, 20_000);
  assert.equal(report.edgesBefore, 20_000);
  assert.equal(JSON.stringify(edgesOfTable(merged.edges)), text(expected.edges));
});

Deno.test("y is filled by the first record that knows it; first-seen position and run stay", () => {
  const cell = (x: number, y: number, run: number, count: number): EdgeTableBuilder => {
    const out = new EdgeTableBuilder();
    out.addCell(x, 0, y, 1, 0, 0, run, NaN);
    out.addVote(3, out.source(ME), count, run);
    return out;
  };
  const local = cell(0.4, NaN, 1, 1).finish();
  const incoming = cell(-0.4, 7.5, 3, 3).finish();
  const { table, before } = mergeCells(local, incoming);
  assert.equal(before, 1);
  assert.equal(table.length, 1);
  assert.equal(table.x[0], 0.4);
  assert.equal(table.y[0], 7.5);
  assert.equal(table.run[0], 1);
  // A later run advances the count to max(prior + 1, incoming), capped at max(run, 1).
  assert.deepEqual([...table.voteCount], [3]);
  assert.deepEqual([...table.voteRun], [3]);
});

Deno.test("tables hold no -0, resolve kinds from votes and list sources in serialised order", () => {
  const out = new EdgeTableBuilder();
  out.addCell(-0, 5, NaN, -0, 1, 1, 2, NaN);
  out.addVote(1, out.source("f00000"), 1, 2);
  out.addVote(0, out.source("123456"), 1, 1);
  out.addVote(0, out.source("0123456"), 1, 1);
  const table = out.finish();
  assert.ok(Object.is(table.x[0], 0));
  assert.ok(Object.is(table.hx[0], 0));
  assert.deepEqual(table.sources, ["123456", "0123456", "f00000"]);
  // wall (2 votes) beats runoff (1): a tie-break order, kinds before sources.
  assert.equal(table.kind[0], 0);
  assert.deepEqual([...table.voteKind], [0, 0, 1]);
  const [edge] = edgesOfTable(table);
  assert.equal(
    JSON.stringify(edge.votes),
    '{"wall":{"123456":[1,1],"0123456":[1,1]},"runoff":{"f00000":[1,2]}}',
  );
  assert.equal(edge.side, "R");
  assert.equal(edge.y, null);
});

Deno.test("inCellOrder sorts cells stably by cell and keeps each cell's entries", () => {
  const out = new EdgeTableBuilder();
  for (const [x, s] of [[5, 0], [1, 1], [1, 0], [3, 0]]) {
    out.addCell(x, 0, NaN, 1, 0, s, 0, NaN);
    out.addVote(3, out.source(ME), 1, x);
  }
  const sorted = inCellOrder(out.finish());
  assert.deepEqual([...sorted.x], [1, 1, 3, 5]);
  assert.deepEqual([...sorted.side], [0, 1, 0, 0]);
  assert.deepEqual([...sorted.voteRun], [1, 1, 3, 5]);
  assert.equal(inCellOrder(sorted), sorted);
});

Deno.test("a builder started empty grows to thousands of cells and keeps every offset", () => {
  const out = new EdgeTableBuilder(0, 0);
  for (let i = 0; i < 5_000; i++) {
    out.addCell(i, 0, NaN, 1, 0, i % 2, 1, NaN);
    for (let k = 0; k <= i % 3; k++) out.addVote(k, out.source(k === 1 ? FRIEND : ME), 1, 1);
  }
  const table = out.finish();
  assert.equal(table.length, 5_000);
  assert.equal(table.voteStart.length, 5_001);
  for (let i = 0; i < 5_000; i++) {
    assert.equal(table.voteStart[i + 1] - table.voteStart[i], 1 + (i % 3));
  }
  assert.equal(table.voteStart[5_000], table.voteKind.length);
});
