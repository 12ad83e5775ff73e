import { strict as assert } from "node:assert";
import { join } from "node:path";
import { bundleJsonSchema } from "../../../src/core/bundle/json_schema.ts";
import fc from "fast-check";
import { merge } from "../../_merge_objects.ts";
import { canonicalBundle, serialiseBundle } from "../../../src/core/bundle/serialise.ts";
import type { BundleV4 } from "../../../src/core/bundle/types.ts";
import { upgradeImported } from "../../../src/core/bundle/upgrade.ts";
import { validateBundle } from "../../../src/core/bundle/validate.ts";
import { noFixtures, SHARED_REFERENCE } from "../../_fixtures.ts";
import { FORMAT, FRIEND, ME, v4Doc, v4DocsArb } from "./arbitraries.ts";

Deno.test("the exported document has a fixed shape: key order, kinds in order, sources sorted", () => {
  const raw = v4Doc(1) as Record<string, unknown> & { edges: Record<string, unknown>[] };
  raw.edges[0] = {
    tw: null,
    votes: { straddle: { [FRIEND]: [1, 1], [ME]: [2, 2] }, wall: { [ME]: [1, 1] } },
    kind: "auto",
    side: "R",
    run: 2,
    z: 2,
    x: 1,
  };
  raw.corners = [{ apex: { z: 2, x: 1 }, name: "T1" }];
  const doc = validateBundle(raw) as BundleV4;
  const text = serialiseBundle(doc);
  assert.equal(
    text,
    `{"format":"${FORMAT}","version":4,` +
      `"meta":{"track":"Test Ring","runs":5,"source_runs":{"${ME}":4,"${FRIEND}":1},` +
      `"updated_at":"2024-01-01T00:00:00.000000+00:00","official":null},` +
      `"edges":[{"x":1,"z":2,"y":null,"hx":0,"hz":0,"side":"R","kind":"wall",` +
      `"votes":{"wall":{"${ME}":[1,1]},"straddle":{"${ME}":[2,2],"${FRIEND}":[1,1]}},"run":2,"tw":null}],` +
      `"finish_crossings":[],` +
      `"corners":[{"n":1,"name":"T1","direction":null,"apex":{"x":1,"z":2},"entry":null,"exit":null,"note":""}],` +
      `"sections":[]}`,
  );
  assert.deepEqual(JSON.parse(text), canonicalBundle(doc));
});

Deno.test("equal content serialises to equal bytes whatever the insertion order", () => {
  const a = validateBundle(v4Doc(3)) as BundleV4;
  const b = structuredClone(a);
  b.edges[0].votes = { wall: { [FRIEND]: [1, 1], [ME]: [1, 1] }, auto: { [ME]: [4, 4] } };
  a.edges[0].votes = { auto: { [ME]: [4, 4] }, wall: { [ME]: [1, 1], [FRIEND]: [1, 1] } };
  b.meta.source_runs = { [FRIEND]: 1, [ME]: 4 };
  a.meta.source_runs = { [ME]: 4, [FRIEND]: 1 };
  assert.equal(serialiseBundle(a), serialiseBundle(b));
});

// The published reference schema describes the same document under another format name.
type Json = Record<string, unknown>;

/** A reference node with `$ref`s resolved and `oneOf [null, X]` flattened to X plus `nullable`. */
function normal(node: Json, root: Json): Json {
  if (typeof node.$ref === "string") {
    const name = node.$ref.replace("#/$defs/", "");
    return normal((root.$defs as Json)[name] as Json, root);
  }
  const alternatives = (node.oneOf ?? node.anyOf) as Json[] | undefined;
  if (alternatives) {
    const rest = alternatives.filter((a) => a.type !== "null");
    if (rest.length === 1 && alternatives.length === 2) {
      return { ...normal(rest[0], root), nullable: true };
    }
  }
  return node;
}

const CONSTRAINTS = [
  "type",
  "const",
  "enum",
  "pattern",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
] as const;

/**
 * Every constraint the reference states, ours states the same way, recursively;
 * returns the JSON pointers where they differ.
 */
function differences(ref: Json, ours: Json, refRoot: Json, ourRoot: Json, at = ""): string[] {
  const r = normal(ref, refRoot);
  const o = normal(ours, ourRoot);
  const out: string[] = [];
  for (const key of CONSTRAINTS) {
    if (!(key in r)) continue;
    let mine = o[key];
    let theirs = r[key];
    if (key === "type" && theirs === "number" && mine === "integer") mine = "number";
    if (key === "enum") {
      theirs = (theirs as unknown[]).filter((v) => v !== null);
      mine = (mine as unknown[] | undefined)?.filter((v) => v !== "");
    }
    if (JSON.stringify(mine) !== JSON.stringify(theirs)) out.push(`${at}/${key}`);
  }
  if (r.required) {
    for (const name of r.required as string[]) {
      if (!((o.required as string[] | undefined) ?? []).includes(name)) {
        out.push(`${at}/required/${name}`);
      }
    }
  }
  for (const child of ["items", "additionalProperties", "propertyNames"] as const) {
    if (typeof r[child] === "object") {
      out.push(
        ...differences(
          r[child] as Json,
          (o[child] ?? {}) as Json,
          refRoot,
          ourRoot,
          `${at}/${child}`,
        ),
      );
    }
  }
  if (Array.isArray(r.prefixItems)) {
    (r.prefixItems as Json[]).forEach((item, i) => {
      const mine = ((o.prefixItems ?? []) as Json[])[i] ?? {};
      out.push(...differences(item, mine, refRoot, ourRoot, `${at}/prefixItems/${i}`));
    });
  }
  for (const [name, sub] of Object.entries((r.properties ?? {}) as Json)) {
    const mine = ((o.properties ?? {}) as Json)[name];
    if (mine === undefined) out.push(`${at}/properties/${name}`);
    else {out.push(
        ...differences(sub as Json, mine as Json, refRoot, ourRoot, `${at}/properties/${name}`),
      );}
  }
  return out;
}

Deno.test({
  name: "the published JSON Schema states every constraint of the reference v4 schema",
  ignore: noFixtures,
  fn() {
    const reference = JSON.parse(
      Deno.readTextFileSync(join(SHARED_REFERENCE, "track-bundle.v4.schema.json")),
    ) as Json;
    const ours = bundleJsonSchema() as Json;
    // What we knowingly differ in: our format name, and a reader that tolerates a missing
    // (or null) crossing list, run count and write time, filling [] , the sum and "".
    assert.deepEqual(differences(reference, ours, reference, ours), [
      "/required/finish_crossings",
      "/properties/format/const",
      "/properties/meta/required/runs",
      "/properties/meta/required/updated_at",
    ]);
    assert.equal((ours.properties as Json & { format: Json }).format.const, FORMAT);
  },
});

/** The canonical text, by the definition: the canonical copy, stringified. */
function reference(doc: BundleV4): string {
  return JSON.stringify(canonicalBundle(doc));
}

Deno.test("serialising writes exactly the canonical copy's JSON, whatever order the maps are in", () => {
  fc.assert(
    fc.property(v4DocsArb(2), fc.boolean(), ([rawA, rawB], mergeThem) => {
      const a = upgradeImported(validateBundle(rawA));
      const doc = mergeThem
        ? merge(a, upgradeImported(validateBundle(rawB)), { now: "t" }).merged
        : a;
      // Shuffle every map's order and the edges: the text must not move.
      const shuffled: BundleV4 = {
        ...doc,
        edges: [...doc.edges].reverse().map((e) => ({
          ...e,
          votes: Object.fromEntries(
            Object.entries(e.votes).reverse().map(([k, v]) => [
              k,
              Object.fromEntries(Object.entries(v!).reverse()),
            ]),
          ),
        })),
      };
      const text = reference(doc);
      assert.equal(serialiseBundle(doc), text);
      assert.equal(serialiseBundle(shuffled), text);
    }),
    { numRuns: 200 },
  );
});

Deno.test("sources that are array indexes serialise where the canonical copy puts them", () => {
  const doc = validateBundle(v4Doc(2)) as BundleV4;
  // "123456" is an array index, listed first by every object; "0123456" is not (leading zero).
  doc.edges[0].votes = { auto: { "f00000": [1, 1], "123456": [1, 1], "0123456": [1, 1] } };
  doc.edges[1].votes = { auto: { "4294967295": [1, 1], "4294967294": [1, 1], "10000000": [1, 1] } };
  const text = serialiseBundle(doc);
  assert.equal(text, reference(doc));
  assert.match(text, /"votes":\{"auto":\{"123456":\[1,1\],"0123456":\[1,1\],"f00000":\[1,1\]\}\}/);
  assert.match(
    text,
    /"votes":\{"auto":\{"10000000":\[1,1\],"4294967294":\[1,1\],"4294967295":\[1,1\]\}\}/,
  );
});
