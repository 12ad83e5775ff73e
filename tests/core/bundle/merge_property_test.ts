import { strict as assert } from "node:assert";
import fc from "fast-check";
import { cellKey, pointKey } from "../../../src/core/bundle/cell.ts";
import { resolveKind } from "../../../src/core/bundle/kind.ts";
import { merge } from "../../_merge_objects.ts";
import { canonicalBundle, serialiseBundle } from "../../../src/core/bundle/serialise.ts";
import type { BundleV4 } from "../../../src/core/bundle/types.ts";
import { upgradeImported } from "../../../src/core/bundle/upgrade.ts";
import { validateBundle } from "../../../src/core/bundle/validate.ts";
import { v4DocsArb } from "./arbitraries.ts";

const NOW = "2025-06-01T12:00:00.000000+00:00";

function v4(raw: unknown): BundleV4 {
  return upgradeImported(validateBundle(raw));
}

function mergeAll(a: BundleV4, b: BundleV4): BundleV4 {
  return merge(a, b, { now: NOW }).merged;
}

/** What the merge laws are about: the votes of every cell, and the run counters. */
function voteView(doc: BundleV4) {
  const canonical = canonicalBundle(doc);
  const cells = canonical.edges
    .map((e) => [cellKey(e.x, e.z, e.side), e.votes, e.kind] as const)
    .sort((p, q) => p[0] - q[0]);
  return { cells, source_runs: canonical.meta.source_runs, runs: canonical.meta.runs };
}

Deno.test("merge is idempotent: merging the same document again changes nothing", () => {
  fc.assert(
    fc.property(v4DocsArb(2), ([rawA, rawB]) => {
      const once = mergeAll(v4(rawA), v4(rawB));
      const twice = mergeAll(once, v4(rawB));
      assert.deepEqual(canonicalBundle(twice).edges, canonicalBundle(once).edges);
      assert.deepEqual(canonicalBundle(twice).meta, canonicalBundle(once).meta);
    }),
    { numRuns: 200 },
  );
});

Deno.test("merge is commutative on votes, counters and the set of cells", () => {
  fc.assert(
    fc.property(v4DocsArb(2), ([rawA, rawB]) => {
      const a = v4(rawA);
      const b = v4(rawB);
      assert.deepEqual(voteView(mergeAll(a, b)), voteView(mergeAll(b, a)));
    }),
    { numRuns: 200 },
  );
});

Deno.test("merge is associative on votes, counters and the set of cells", () => {
  fc.assert(
    fc.property(v4DocsArb(3), ([rawA, rawB, rawC]) => {
      const a = v4(rawA);
      const b = v4(rawB);
      const c = v4(rawC);
      assert.deepEqual(
        voteView(mergeAll(mergeAll(a, b), c)),
        voteView(mergeAll(a, mergeAll(b, c))),
      );
    }),
    { numRuns: 200 },
  );
});

Deno.test("merging a document into itself changes nothing but updated_at", () => {
  fc.assert(
    fc.property(v4DocsArb(1), ([raw]) => {
      const a = v4(raw);
      const { merged, report } = merge(a, a, { now: NOW });
      assert.equal(merged.meta.updated_at, NOW);
      assert.equal(report.addedEdges, 0);
      const expected = canonicalBundle(a);
      expected.meta.updated_at = NOW;
      assert.deepEqual(canonicalBundle(merged), expected);
    }),
    { numRuns: 200 },
  );
});

Deno.test("merging into nothing gives the document itself, with crossings deduplicated", () => {
  fc.assert(
    fc.property(v4DocsArb(1), ([raw]) => {
      const a = v4(raw);
      const expected = canonicalBundle(a);
      expected.meta.updated_at = NOW;
      const seen = new Set<number>();
      expected.finish_crossings = expected.finish_crossings.filter((c) => {
        const key = pointKey(c.x, c.z);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      assert.deepEqual(canonicalBundle(merge(null, a, { now: NOW }).merged), expected);
    }),
    { numRuns: 100 },
  );
});

Deno.test("a merged document exports to JSON that validates back to the same bytes", () => {
  fc.assert(
    fc.property(v4DocsArb(3), ([rawA, rawB, rawC]) => {
      const merged = mergeAll(mergeAll(v4(rawA), v4(rawB)), v4(rawC));
      const text = serialiseBundle(merged);
      const reread = validateBundle(JSON.parse(text));
      assert.equal(reread.version, 4);
      assert.equal(serialiseBundle(reread as BundleV4), text);
    }),
    { numRuns: 100 },
  );
});

Deno.test("merge resolves every kind from the votes and keeps counters consistent", () => {
  fc.assert(
    fc.property(v4DocsArb(2), ([rawA, rawB]) => {
      const merged = mergeAll(v4(rawA), v4(rawB));
      let sum = 0;
      for (const source in merged.meta.source_runs) sum += merged.meta.source_runs[source];
      assert.equal(merged.meta.runs, sum);
      // JS objects list integer-like keys first whatever the insertion order; the rest are sorted.
      const named = Object.keys(merged.meta.source_runs).filter((k) => !/^(0|[1-9]\d*)$/.test(k));
      assert.deepEqual(named, [...named].sort());
      const keys = new Set<number>();
      for (const edge of merged.edges) {
        assert.equal(edge.kind, resolveKind(edge.votes));
        keys.add(cellKey(edge.x, edge.z, edge.side));
        for (const bySource of Object.values(edge.votes)) {
          for (const [source, [count, lastRun]] of Object.entries(bySource)) {
            assert.ok(count <= Math.max(lastRun, 1));
            assert.ok(merged.meta.source_runs[source] >= lastRun);
          }
        }
      }
      assert.equal(keys.size, merged.edges.length);
    }),
    { numRuns: 200 },
  );
});

/** The same document as a fresh object nothing in this process has vouched for. */
function unvouched(doc: BundleV4): BundleV4 {
  return JSON.parse(JSON.stringify(doc));
}

Deno.test("merging documents this process built gives what merging them read back gives", () => {
  fc.assert(
    fc.property(v4DocsArb(3), fc.boolean(), ([rawA, rawB, rawC], reconcile) => {
      // a is unreconciled when built by a non-reconciling merge (a survey save).
      const a = merge(v4(rawA), v4(rawC), { now: NOW, reconcileRuns: reconcile }).merged;
      const b = v4(rawB);
      const fast = merge(a, b, { now: NOW });
      const slow = merge(unvouched(a), unvouched(b), { now: NOW });
      assert.equal(serialiseBundle(fast.merged), serialiseBundle(slow.merged));
      assert.deepEqual(fast.report, slow.report);
    }),
    { numRuns: 300 },
  );
});

Deno.test("a kind read from outside is resolved again, and unreconciled counters are raised", () => {
  const raw = {
    format: "sim-datalogger-track-bundle",
    version: 4,
    meta: { track: "T", runs: 1, source_runs: { a1b2c3d4e5f6: 1 }, updated_at: "", official: null },
    edges: [{
      x: 0,
      z: 0,
      y: null,
      hx: 1,
      hz: 0,
      side: "L",
      kind: "wall",
      votes: { auto: { a1b2c3d4e5f6: [3, 7] } },
      run: 1,
      tw: null,
    }],
    finish_crossings: [],
    corners: [],
    sections: [],
  } as unknown as BundleV4;
  const merged = merge(raw, v4(rawSingle()), { now: NOW }).merged;
  assert.equal(merged.edges[0].kind, "auto");
  assert.equal(merged.meta.source_runs.a1b2c3d4e5f6, 7);
  // A survey save keeps the counters below the votes; the next merge must still raise them.
  const saved = merge(null, raw, { now: NOW, reconcileRuns: false }).merged;
  assert.equal(saved.meta.source_runs.a1b2c3d4e5f6, 1);
  const next = merge(saved, v4(rawSingle()), { now: NOW }).merged;
  assert.equal(next.meta.source_runs.a1b2c3d4e5f6, 7);
  assert.equal(merge(v4(rawSingle()), saved, { now: NOW }).merged.meta.source_runs.a1b2c3d4e5f6, 7);
});

function rawSingle() {
  return {
    format: "sim-datalogger-track-bundle",
    version: 4,
    meta: { track: "T", runs: 1, source_runs: { f0e1d2c3b4a5: 1 } },
    edges: [{ x: 5, z: 5, side: "R", votes: { edge: { f0e1d2c3b4a5: [1, 1] } } }],
  };
}
