import { strict as assert } from "node:assert";
import fc from "fast-check";
import { merge } from "../../_merge_objects.ts";
import { canonicalBundle, serialiseBundle } from "../../../src/core/bundle/serialise.ts";
import { syntheticSourceId } from "../../../src/core/bundle/source_id.ts";
import type { BundleLegacy, BundleV1, BundleV4 } from "../../../src/core/bundle/types.ts";
import { upgrade, upgradeImported } from "../../../src/core/bundle/upgrade.ts";
import { validateBundle } from "../../../src/core/bundle/validate.ts";
import { FORMAT, legacyDoc, legacyDocArb, ME, v1DocArb } from "./arbitraries.ts";

const NOW = "2025-06-01T12:00:00.000000+00:00";

Deno.test("on-disk v1: co-located kinds become one cell voting for each at run 0", () => {
  const v1 = {
    format: FORMAT,
    version: 1,
    meta: { track: "Ring", runs: 3, updated_at: "2022-01-01T00:00:00" },
    edges: [
      { x: 10.2, z: 5.4, hx: 1.0, hz: 0.0, side: "L", kind: "straddle" },
      { x: 10.4, z: 4.6, hx: 0.0, hz: 1.0, side: "L", kind: "runoff" },
      { x: 9.6, z: 5.0, hx: 0.0, hz: -1.0, side: "L", kind: "runoff" },
    ],
    finish_crossings: [{ x: 1, z: 2, hx: 0, hz: 1, lap: 4 }],
  };
  const doc = upgrade(validateBundle(v1), ME);
  assert.deepEqual(doc, {
    format: FORMAT,
    version: 4,
    meta: {
      track: "Ring",
      runs: 3,
      source_runs: { [ME]: 3 },
      updated_at: "2022-01-01T00:00:00",
      official: null,
    },
    edges: [{
      x: 10.2,
      z: 5.4,
      y: null,
      hx: 1.0,
      hz: 0.0,
      side: "L",
      kind: "runoff",
      votes: { runoff: { [ME]: [1, 0] }, straddle: { [ME]: [1, 0] } },
      run: 0,
      tw: null,
    }],
    finish_crossings: [{ x: 1, z: 2, hx: 0, hz: 1, lap: 4 }],
    corners: [],
    sections: [],
  });
});

Deno.test("v1 records on different sides or metres stay separate cells, in first-seen order", () => {
  const v1 = {
    format: FORMAT,
    version: 1,
    meta: { track: "Ring", runs: 0, updated_at: "" },
    edges: [
      { x: 2.5, z: 0, side: "R", kind: "wall" },
      { x: 0.5, z: 0, side: "L", kind: "auto" },
      { x: 2.0, z: 0, side: "R", kind: "auto" },
      { x: 0.0, z: 0, side: "R", kind: "auto" },
      { x: 1.5, z: 0, side: "R", kind: "edge" },
    ],
  };
  const doc = upgrade(validateBundle(v1), ME);
  assert.deepEqual(doc.edges.map((e) => [e.x, e.side, e.kind, Object.keys(e.votes)]), [
    [2.5, "R", "wall", ["wall", "auto", "edge"]],
    [0.5, "L", "auto", ["auto"]],
    [0.0, "R", "auto", ["auto"]],
  ]);
});

Deno.test("local v2: y null, votes attributed to this installation, corners and sections empty", () => {
  const doc = upgrade(validateBundle(legacyDoc(2)), ME);
  assert.equal(doc.version, 4);
  assert.deepEqual(doc.edges[0], {
    x: 0,
    z: 5,
    y: null,
    hx: 0,
    hz: 1,
    side: "R",
    kind: "auto",
    votes: { auto: { [ME]: [2, 3] } },
    run: 1,
    tw: null,
  });
  assert.deepEqual(doc.meta.source_runs, { [ME]: 3 });
  assert.equal(doc.meta.runs, 3);
  assert.deepEqual(doc.corners, []);
  assert.deepEqual(doc.sections, []);
  assert.equal(doc.meta.official, null);
  assert.deepEqual(doc.finish_crossings, [{ x: 0, z: 5, hx: 0, hz: 1, lap: 2 }]);
});

Deno.test("v3 keeps its elevations", () => {
  const doc = upgrade(validateBundle(legacyDoc(2, { version: 3 })), ME);
  assert.deepEqual(doc.edges.map((e) => e.y), [3.25, 3.25]);
});

Deno.test("legacy counts above max(run, 1) are capped, and runs raised to the vote watermark", () => {
  const raw = legacyDoc(1, { runs: 2 }) as { edges: { votes: unknown }[] };
  raw.edges[0].votes = { straddle: [40, 6], wall: [3, 0] };
  const doc = upgrade(validateBundle(raw), ME);
  assert.deepEqual(doc.edges[0].votes, { wall: { [ME]: [1, 0] }, straddle: { [ME]: [6, 6] } });
  assert.equal(doc.edges[0].kind, "wall");
  assert.deepEqual(doc.meta.source_runs, { [ME]: 6 });
  assert.equal(doc.meta.runs, 6);
});

Deno.test("imported v2: a synthetic, non-local source that is the same on every read", () => {
  const text = JSON.stringify(legacyDoc(6));
  const first = upgradeImported(validateBundle(JSON.parse(text)));
  const again = upgradeImported(validateBundle(JSON.parse(text)));
  const sources = Object.keys(first.meta.source_runs);
  assert.equal(sources.length, 1);
  assert.notEqual(sources[0], ME);
  assert.match(sources[0], /^[0-9a-f]{12}$/);
  assert.equal(sources[0], syntheticSourceId(validateBundle(JSON.parse(text)) as BundleLegacy));
  assert.deepEqual(again, first);
  assert.deepEqual(first.edges[0].votes, { auto: { [sources[0]]: [2, 3] } });
});

Deno.test("upgrading v4 returns the document itself; a bad source id is a programming error", () => {
  const v4 = upgradeImported(validateBundle(legacyDoc(2)));
  assert.equal(upgrade(v4, ME), v4);
  assert.equal(upgradeImported(v4), v4);
  assert.throws(() => upgrade(validateBundle(legacyDoc(2)), "not a source"), TypeError);
});

Deno.test("upgrade is deterministic and gives a valid v4 document that re-reads to itself", () => {
  fc.assert(
    fc.property(fc.oneof(v1DocArb, legacyDocArb), (raw) => {
      const a = upgradeImported(validateBundle(raw));
      assert.deepEqual(upgradeImported(validateBundle(structuredClone(raw))), a);
      // A JSON round trip of the input (which turns -0 into 0) gives the same bytes.
      const text = serialiseBundle(a);
      assert.equal(
        serialiseBundle(upgradeImported(validateBundle(JSON.parse(JSON.stringify(raw))))),
        text,
      );
      assert.equal(serialiseBundle(validateBundle(JSON.parse(text)) as BundleV4), text);
      const local = upgrade(validateBundle(raw), ME);
      assert.deepEqual(upgrade(validateBundle(raw), ME), local);
      assert.deepEqual(Object.keys(local.meta.source_runs), [ME]);
    }),
    { numRuns: 300 },
  );
});

Deno.test("re-importing an upgraded old document changes nothing but updated_at", () => {
  fc.assert(
    fc.property(fc.oneof(v1DocArb, legacyDocArb), (raw) => {
      const once = merge(null, upgradeImported(validateBundle(raw)), { now: NOW }).merged;
      const { merged, report } = merge(once, upgradeImported(validateBundle(raw)), {
        now: "2030-01-01T00:00:00.000000+00:00",
      });
      assert.equal(report.addedEdges, 0);
      const expected = canonicalBundle(once);
      expected.meta.updated_at = "2030-01-01T00:00:00.000000+00:00";
      assert.deepEqual(canonicalBundle(merged), expected);
    }),
    { numRuns: 200 },
  );
});

Deno.test("the synthetic id hashes every record: the v1 kind and v2 stored kind count", () => {
  const v1 = (kind: string) =>
    validateBundle({
      format: FORMAT,
      version: 1,
      meta: { track: "Ring", runs: 1, updated_at: "" },
      edges: [{ x: 1, z: 1, side: "L", kind }],
    }) as BundleV1;
  assert.notEqual(syntheticSourceId(v1("wall")), syntheticSourceId(v1("edge")));
  const v2 = (kind: unknown) => {
    const raw = legacyDoc(3) as { edges: { kind: unknown }[] };
    raw.edges[1].kind = kind;
    return syntheticSourceId(validateBundle(raw) as BundleLegacy);
  };
  assert.equal(v2("grass"), v2("auto"), "an invalid stored kind hashes as auto");
  assert.notEqual(v2("wall"), v2("auto"));
});
