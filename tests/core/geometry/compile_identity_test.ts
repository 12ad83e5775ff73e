/**
 * Output identity across the performance work of issue 19: documents
 * compiled, merged and serialised from fixed generated bundles must hash
 * exactly as they did before it. The hashes were computed with the code as
 * it stood before any of that work (commit ca4d797).
 */
import { strict as assert } from "node:assert";
import { createHash } from "node:crypto";
import { cellKey } from "../../../src/core/bundle/cell.ts";
import { merge } from "../../_merge_objects.ts";
import { serialiseBundle } from "../../../src/core/bundle/serialise.ts";
import type { BundleV4, Edge } from "../../../src/core/bundle/types.ts";
import { upgradeImported } from "../../../src/core/bundle/upgrade.ts";
import { validateBundle } from "../../../src/core/bundle/validate.ts";
import { compileBundle } from "../../../src/core/geometry/compile.ts";
import { tableBundleOf } from "../../../src/core/bundle/table_convert.ts";
import { syntheticBundle } from "../../_bundles.ts";
import { borderCells, bundleOf, ovalCentre } from "./_cells.ts";

const OPTS = { compiledAt: "2026-11-21T12:00:00.000Z", appVersion: "bench" };

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** bench/geometry_bench.ts's bundle: a 10 km oval surveyed over and over, jittered, `n` cells. */
function surveyedOval(n: number): BundleV4 {
  const base = borderCells(ovalCentre(2000, 1200, 12));
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const edges: Edge[] = [];
  const seen = new Set<number>();
  for (let pass = 0; pass < 50 && edges.length < n; pass++) {
    for (const e of base) {
      if (edges.length >= n) break;
      const shift = (random() * 2 - 1) * 1.5;
      const x = Math.round((e.x + e.hz * shift) * 1000) / 1000;
      const z = Math.round((e.z - e.hx * shift) * 1000) / 1000;
      const key = cellKey(x, z, e.side);
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push({ ...e, x, z });
    }
  }
  return bundleOf(edges, { track: "Bench Oval" });
}

function read(raw: unknown): BundleV4 {
  return upgradeImported(validateBundle(raw));
}

Deno.test("a 12,345-edge surveyed oval compiles to the same document, byte for byte", () => {
  const oval = surveyedOval(12_345);
  const expected = "9f5a276fd4e649611c01471b9b7bee24b2adeb488b624ecdda91fc2eede6762c";
  assert.equal(sha256(JSON.stringify(compileBundle(oval, OPTS))), expected);
  // Held as a table (as the store gives it), it compiles to the same bytes.
  assert.equal(sha256(JSON.stringify(compileBundle(tableBundleOf(oval), OPTS))), expected);
});

Deno.test("a 20,000-edge grid bundle validates and compiles to the same document", () => {
  const doc = read(
    syntheticBundle({ cells: 20_000, sources: ["a1b2c3d4e5f6"], runs: 12, seed: 11 }),
  );
  const expected = "593cd645ed6ccabd24b7db650b421ee09670ddbc21263c708737b965cb381d11";
  assert.equal(sha256(JSON.stringify(compileBundle(doc, OPTS))), expected);
  assert.equal(sha256(JSON.stringify(compileBundle(tableBundleOf(doc), OPTS))), expected);
});

Deno.test("two 20,000-edge bundles merge and serialise to the same bytes", () => {
  const a = read(syntheticBundle({ cells: 20_000, sources: ["a1b2c3d4e5f6"], runs: 12, seed: 11 }));
  const b = read(syntheticBundle({
    cells: 20_000,
    sources: ["0badc0ffee01", "f0e1d2c3b4a5", "a1b2c3d4e5f6"],
    runs: 25,
    seed: 12,
    dx: 0.2,
  }));
  const { merged, report } = merge(a, b, { now: "2026-11-21T12:00:00.000Z" });
  assert.equal(
    sha256(serialiseBundle(merged)),
    "49cbc293da585c7e3c9d6f36efa8b5e94bd3db1770f8a1209d2fd904847a79ca",
  );
  assert.deepEqual(report, {
    edgesBefore: 20_000,
    edgesAfter: 20_000,
    addedEdges: 0,
    cornersKept: false,
    sectionsKept: false,
    officialKept: false,
  });
});
