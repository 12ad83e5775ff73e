import { strict as assert } from "node:assert";
import { createHash } from "node:crypto";
import { merge } from "../../_merge_objects.ts";
import { isSourceId, syntheticSourceId } from "../../../src/core/bundle/source_id.ts";
import type { BundleLegacy } from "../../../src/core/bundle/types.ts";
import { upgradeImported } from "../../../src/core/bundle/upgrade.ts";
import { validateBundle } from "../../../src/core/bundle/validate.ts";
import { legacyDoc } from "./arbitraries.ts";

const NOW = "2025-06-01T12:00:00.000000+00:00";

function legacy(raw: unknown): BundleLegacy {
  return validateBundle(raw) as BundleLegacy;
}

Deno.test("the synthetic id is the first 12 hex characters of SHA-256 over name, runs and records", () => {
  const raw = legacyDoc(2, { runs: 4 }) as { meta: { track: string } };
  raw.meta.track = "  Old Ring ";
  const expected = createHash("sha256")
    .update("Old Ring" + "4" + "|0,5,R,auto" + "|1,5,R,auto")
    .digest("hex")
    .slice(0, 12);
  assert.equal(syntheticSourceId(legacy(raw)), expected);
  assert.ok(isSourceId(expected));
});

Deno.test("two 80-cell v2 files differing only in the last cell get two sources on shared cells", () => {
  const a = upgradeImported(legacy(legacyDoc(80)));
  const b = upgradeImported(legacy(legacyDoc(80, { lastX: 500 })));
  const sourceA = Object.keys(a.meta.source_runs)[0];
  const sourceB = Object.keys(b.meta.source_runs)[0];
  assert.notEqual(sourceA, sourceB);
  const { merged } = merge(merge(null, a, { now: NOW }).merged, b, { now: NOW });
  assert.equal(merged.edges.length, 81);
  assert.deepEqual(Object.keys(merged.edges[0].votes.auto!).sort(), [sourceA, sourceB].sort());
  assert.deepEqual(Object.keys(merged.edges[79].votes.auto!), [sourceA]);
  assert.deepEqual(Object.keys(merged.edges[80].votes.auto!), [sourceB]);
  assert.equal(merged.meta.runs, 6);
});

Deno.test("the name, the run count and each coordinate are part of the hash", () => {
  const base = syntheticSourceId(legacy(legacyDoc(3)));
  const renamed = legacyDoc(3) as { meta: { track: string } };
  renamed.meta.track = "Other Ring";
  assert.notEqual(syntheticSourceId(legacy(renamed)), base);
  assert.notEqual(syntheticSourceId(legacy(legacyDoc(3, { runs: 4 }))), base);
  assert.notEqual(syntheticSourceId(legacy(legacyDoc(3, { lastX: 2.001 }))), base);
  // Unknown keys and key order do not matter; the validated values do.
  const reordered = legacyDoc(3) as { edges: Record<string, unknown>[] };
  reordered.edges = reordered.edges.map((e) => ({
    extra: true,
    ...Object.fromEntries(Object.entries(e).reverse()),
  }));
  assert.equal(syntheticSourceId(legacy(reordered)), base);
});

Deno.test("source ids: 6 to 32 lowercase hex characters", () => {
  assert.ok(isSourceId("abcdef"));
  assert.ok(isSourceId("0123456789abcdef0123456789abcdef"));
  assert.equal(isSourceId("abcde"), false);
  assert.equal(isSourceId("0123456789abcdef0123456789abcdef0"), false);
  assert.equal(isSourceId("ABCDEF"), false);
  assert.equal(isSourceId("not a source"), false);
  assert.equal(isSourceId(123456), false);
});
