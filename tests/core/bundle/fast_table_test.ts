import { strict as assert } from "node:assert";
import fc from "fast-check";
import { ImportRejected } from "../../../src/core/errors.ts";
import { fastEdgeTable } from "../../../src/core/bundle/fast_table.ts";
import { validateBundle, validateBundleBySchema } from "../../../src/core/bundle/validate.ts";
import { syntheticBundle } from "../../_bundles.ts";
import { clone, ME, v4Doc, v4DocsArb } from "./arbitraries.ts";

// The point of these tests is to write ill-typed values anywhere in a document.
// deno-lint-ignore no-explicit-any
type Loose = any;

/** What validation made of `raw`: the document's JSON (key order included) or the issues. */
function outcome(validate: (raw: unknown) => unknown, raw: unknown): string {
  try {
    return `ok ${JSON.stringify(validate(raw))}`;
  } catch (err) {
    if (!(err instanceof ImportRejected)) throw err;
    return `rejected ${JSON.stringify(err.issues)}`;
  }
}

/** Asserts the fast path and the schema agree on `raw`, to the byte and the issue. */
function agree(raw: unknown): string {
  const fast = outcome(validateBundle, raw);
  assert.equal(fast, outcome(validateBundleBySchema, raw));
  return fast;
}

Deno.test("valid v4 documents take the fast path and come out as the schema builds them", () => {
  fc.assert(
    fc.property(v4DocsArb(1), ([raw]) => {
      const json = JSON.parse(JSON.stringify(raw));
      assert.notEqual(fastEdgeTable(json.edges), null);
      assert.match(agree(json), /^ok /);
    }),
    { numRuns: 300 },
  );
});

Deno.test("a 3,000-edge, 3-source bundle: fast path taken, result identical", () => {
  const raw = syntheticBundle({
    cells: 3_000,
    sources: ["0badc0ffee01", "f0e1d2c3b4a5", "a1b2c3d4e5f6"],
    runs: 25,
    seed: 5,
  });
  const edges = fastEdgeTable(raw.edges);
  assert.equal(edges?.length, 3_000);
  assert.match(agree(raw), /^ok /);
});

/** Odd values to put in place of a field: each one the schema must judge. */
const ODD: unknown[] = [
  -0,
  NaN,
  Infinity,
  -Infinity,
  "1",
  null,
  undefined,
  true,
  [],
  {},
  [1],
  [1, 1, 1],
  [0, 1],
  [2, 1],
  [1.5, 2],
  [1, -1],
  1e12,
  -1e7,
  1e7 + 1,
  1.0001,
  1.00011,
  -1.00011,
  10,
  10.5,
  0.5,
  2.5,
  1_000_000,
  1_000_001,
  "L",
  "R",
  "U",
  "wall",
  "grass",
];

/** Where odd values go: an edge field, a vote map, a source map, an entry. */
const SPOTS = [
  "x",
  "z",
  "y",
  "hx",
  "hz",
  "side",
  "kind",
  "run",
  "tw",
  "votes",
  "votes.auto",
  `votes.auto.${ME}`,
  "votes.wall",
  "votes.auto.abcdef",
  "votes.auto.ABCDEF",
  "votes.grass",
  "extra",
];

function put(edge: Loose, spot: string, value: unknown): void {
  const path = spot.split(".");
  let at = edge;
  for (const key of path.slice(0, -1)) {
    if (typeof at[key] !== "object" || at[key] === null) at[key] = {};
    at = at[key];
  }
  const last = path[path.length - 1];
  if (value === undefined) delete at[last];
  else at[last] = value;
}

Deno.test("fast path and schema agree on documents with an odd value anywhere in an edge", () => {
  fc.assert(
    fc.property(
      v4DocsArb(1),
      fc.nat(),
      fc.constantFrom(...SPOTS),
      fc.constantFrom(...ODD),
      ([raw], at, spot, value) => {
        const doc = clone(raw) as Loose;
        if (doc.edges.length === 0) return;
        put(doc.edges[at % doc.edges.length], spot, value);
        agree(doc);
      },
    ),
    { numRuns: 2_000 },
  );
});

Deno.test("shapes JSON never makes go to the schema, which judges them as before", () => {
  const cases: [string, (doc: Loose) => void][] = [
    ["a __proto__ source", (d) => {
      d.edges[0].votes.auto = JSON.parse(`{"__proto__": [1, 1], "${ME}": [1, 1]}`);
    }],
    ["a __proto__ kind", (d) => {
      d.edges[0].votes = JSON.parse(`{"__proto__": {"${ME}": [1, 1]}, "auto": {"${ME}": [1, 1]}}`);
    }],
    ["a symbol key on a vote map", (d) => {
      d.edges[0].votes[Symbol("x")] = { [ME]: [1, 1] };
    }],
    ["a symbol key on a source map", (d) => {
      d.edges[0].votes.auto[Symbol("x")] = [1, 1];
    }],
    ["a prototype-less vote map", (d) => {
      d.edges[0].votes = Object.assign(Object.create(null), d.edges[0].votes);
    }],
    ["a class instance as an edge", (d) => {
      d.edges[0] = Object.assign(new (class Edge {})(), d.edges[0]);
    }],
    ["a sparse edge list", (d) => {
      d.edges.length = 5;
    }],
    ["edges not an array", (d) => {
      d.edges = { 0: d.edges[0] };
    }],
    ["an edge that is an array", (d) => {
      d.edges[0] = [];
    }],
    ["a meta that fails", (d) => {
      d.meta.track = "  ";
    }],
    ["no edges at all", (d) => {
      delete d.edges;
    }],
    ["too many edges", (d) => {
      d.edges = Array.from({ length: 50_001 }, () => d.edges[0]);
    }],
  ];
  for (const [what, mutate] of cases) {
    const doc = clone(v4Doc(3)) as Loose;
    mutate(doc);
    assert.doesNotThrow(() => agree(doc), what);
  }
});

Deno.test("an enumerable key on Object.prototype sends every document to the schema", () => {
  const doc = clone(v4Doc(3)) as Loose;
  const expected = agree(doc);
  Object.defineProperty(Object.prototype, "polluted", {
    value: 1,
    enumerable: true,
    configurable: true,
  });
  try {
    assert.equal(fastEdgeTable(doc.edges), null);
  } finally {
    delete (Object.prototype as Loose).polluted;
  }
  assert.equal(agree(doc), expected);
});
