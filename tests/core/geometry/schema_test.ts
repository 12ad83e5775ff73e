import { strict as assert } from "node:assert";
import { join } from "node:path";
import { compileBundle } from "../../../src/core/geometry/compile.ts";
import {
  compiledJsonSchema,
  compiledTrackSchema,
  parseCompiled,
} from "../../../src/core/geometry/schema.ts";
import { haveFixtures, SHARED_REFERENCE } from "../../_fixtures.ts";
import { borderCells, bundleOf, ovalCentre } from "./_cells.ts";
import { violations } from "./_json_schema_subset.ts";

function sample() {
  return compileBundle(
    bundleOf(
      borderCells(ovalCentre(120, 80, 10), {
        kind: "wall",
        holes: [{ side: "L", from: 40, to: 70 }],
      }),
      { finish: [{ x: 120, z: 0, hx: 0, hz: 1, lap: 1 }] },
    ),
    { compiledAt: "2026-11-21T12:00:00.000Z", appVersion: "0.1.0", identity: [7, 1234] },
  );
}

Deno.test("a compiled document passes our zod schema and the reference JSON Schema", () => {
  const doc = JSON.parse(JSON.stringify(sample()));
  assert.deepEqual(compiledTrackSchema.parse(doc), doc);
  if (!haveFixtures()) return;
  const reference = JSON.parse(
    Deno.readTextFileSync(join(SHARED_REFERENCE, "track-compiled.v1.schema.json")),
  );
  // Our format id is SPEC.md's, not the reference project's.
  reference.properties.format.const = "sim-datalogger-track-compiled";
  assert.deepEqual(violations(reference, reference, doc), []);
  assert.ok(doc.gaps.L.length === 1 && doc.walls.length > 0 && doc.finish !== null);
});

Deno.test("the reference JSON Schema catches a broken document (the checker can fail)", () => {
  if (!haveFixtures()) return;
  const reference = JSON.parse(
    Deno.readTextFileSync(join(SHARED_REFERENCE, "track-compiled.v1.schema.json")),
  );
  const doc = JSON.parse(JSON.stringify(sample()));
  doc.centerline[0][0] = [1, 2, null];
  delete doc.coverage;
  // The untouched reference also refuses our format id, which differs from its own.
  assert.deepEqual(violations(reference, reference, doc), [
    "$: required coverage",
    "$.format: const",
    "$.centerline[0][0]: minItems",
  ]);
});

Deno.test("our published JSON Schema requires what the reference requires", () => {
  const ours = compiledJsonSchema();
  const required = ours.required as string[];
  for (
    const key of ["format", "version", "track", "slug", "borders", "centerline", "road", "coverage"]
  ) {
    assert.ok(required.includes(key), key);
  }
  assert.equal(
    (ours.properties as Record<string, { const?: string }>).format.const,
    "sim-datalogger-track-compiled",
  );
});

Deno.test("a damaged cached document parses to null", () => {
  const doc = JSON.parse(JSON.stringify(sample()));
  doc.road[0] = [1, 2, 3];
  assert.equal(parseCompiled(doc), null);
  assert.equal(parseCompiled({ format: "sim-datalogger-track-compiled" }), null);
});
