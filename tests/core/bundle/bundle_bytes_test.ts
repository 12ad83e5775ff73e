import { strict as assert } from "node:assert";
import fc from "fast-check";
import { readBundleBytes } from "../../../src/core/bundle/bundle_bytes.ts";
import type { BundleTable, EdgeTable } from "../../../src/core/bundle/edge_table.ts";
import { docOf } from "../../../src/core/bundle/table_convert.ts";
import { validateBundleTable } from "../../../src/core/bundle/validate.ts";
import { syntheticBundle } from "../../_bundles.ts";
import { seededRandom } from "../../_random.ts";
import { legacyDoc, ME, v4Doc, v4DocsArb } from "./arbitraries.ts";

// The point of these tests is to write ill-typed values anywhere in a document.
// deno-lint-ignore no-explicit-any
type Loose = any;

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** What the slow path makes of `bytes`, or "throws". */
function slowPath(bytes: Uint8Array): ReturnType<typeof validateBundleTable> | "throws" {
  try {
    return validateBundleTable(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)));
  } catch {
    return "throws";
  }
}

const COLUMNS = [
  "x",
  "z",
  "y",
  "hx",
  "hz",
  "tw",
  "run",
  "side",
  "kind",
  "voteStart",
  "voteKind",
  "voteSource",
  "voteCount",
  "voteRun",
] as const;

/** Asserts two tables are the same column by column, value by value (Object.is: -0 and NaN count). */
function assertSameEdges(actual: EdgeTable, expected: EdgeTable): void {
  assert.equal(actual.length, expected.length);
  assert.deepStrictEqual(actual.sources, expected.sources);
  for (const name of COLUMNS) {
    const a = actual[name];
    const e = expected[name];
    assert.equal(a.constructor, e.constructor, name);
    assert.equal(a.length, e.length, name);
    for (let i = 0; i < a.length; i++) {
      if (!Object.is(a[i], e[i])) assert.fail(`${name}[${i}]: ${a[i]} !== ${e[i]}`);
    }
  }
}

/** Asserts `fast` is exactly the slow path's table: as documents and as columns. */
function assertSameBundle(fast: BundleTable, slow: ReturnType<typeof validateBundleTable>): void {
  assert.equal(slow.version, 4);
  const table = slow as BundleTable;
  assertSameEdges(fast.edges, table.edges);
  assert.deepStrictEqual(docOf(fast), docOf(table));
}

/** Reads `bytes` both ways and asserts the fast reader takes them and agrees. */
function assertAccepted(bytes: Uint8Array): BundleTable {
  const slow = slowPath(bytes);
  assert.notEqual(slow, "throws");
  const fast = readBundleBytes(bytes);
  assert.notEqual(fast, null);
  assertSameBundle(fast!, slow as BundleTable);
  return fast!;
}

/** Reads `bytes` both ways: null whenever the slow path throws, else its very table. */
function assertAgrees(bytes: Uint8Array): "accepted" | "declined" | "both refuse" {
  const slow = slowPath(bytes);
  const fast = readBundleBytes(bytes);
  if (slow === "throws") {
    assert.equal(fast, null);
    return "both refuse";
  }
  if (fast === null) return "declined";
  assertSameBundle(fast, slow);
  return "accepted";
}

const WHITESPACE = [" ", "\t", "\n", "\r", "  ", "\n  "];

/**
 * `value` as JSON with random whitespace between tokens and, with
 * `shuffle`, every object's keys in random order.
 */
function writeJson(value: unknown, random: () => number, shuffle: boolean): string {
  const ws = () => random() < 0.5 ? "" : WHITESPACE[Math.floor(random() * WHITESPACE.length)];
  const write = (v: unknown): string => {
    if (Array.isArray(v)) {
      return `[${ws()}${v.map((item) => `${ws()}${write(item)}${ws()}`).join(",")}]`;
    }
    if (typeof v === "object" && v !== null) {
      const keys = Object.keys(v);
      if (shuffle) {
        for (let i = keys.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          [keys[i], keys[j]] = [keys[j], keys[i]];
        }
      }
      const members = keys.map((k) =>
        `${ws()}${JSON.stringify(k)}${ws()}:${ws()}${
          write((v as Record<string, unknown>)[k])
        }${ws()}`
      );
      return `{${ws()}${members.join(",")}}`;
    }
    return JSON.stringify(v);
  };
  return `${ws()}${write(value)}${ws()}`;
}

Deno.test("valid documents are read as the slow path reads them, however they are written", () => {
  fc.assert(
    fc.property(v4DocsArb(1), fc.integer(), ([doc], seed) => {
      const random = seededRandom(seed);
      assertAccepted(utf8(JSON.stringify(doc)));
      assertAccepted(utf8(JSON.stringify(doc, null, 2)));
      assertAccepted(utf8(writeJson(doc, random, false)));
      assertAccepted(utf8(writeJson(doc, random, true)));
    }),
    { numRuns: 300, seed: 19 },
  );
});

Deno.test("the 50,000-edge, 3-source synthetic bundle is read as the slow path reads it", () => {
  const doc = syntheticBundle({
    cells: 50_000,
    sources: ["0badc0ffee01", "f0e1d2c3b4a5", "a1b2c3d4e5f6"],
    runs: 25,
    seed: 12,
    dx: 0.2,
  });
  const table = assertAccepted(utf8(JSON.stringify(doc)));
  assert.equal(table.edges.length, 50_000);
  assert.deepStrictEqual(table.edges.sources, ["0badc0ffee01", "a1b2c3d4e5f6", "f0e1d2c3b4a5"]);
});

/** Values to put in place of anything, as raw JSON text (some of them not JSON at all). */
const ODD_VALUES = [
  "-0",
  "-0.0",
  "0.0",
  "1e999",
  "-1e999",
  '"1"',
  "null",
  "true",
  "false",
  "[]",
  "{}",
  "1.5",
  "1e2",
  "1E-3",
  "2.5e0",
  "100000000000000000000",
  "1.0000000000000002",
  "10000000",
  "10000000.000000001",
  "10000001",
  "1.0001",
  "1.00010000000000001",
  "1.00011",
  "-1.0001",
  "1000000",
  "1000001",
  "1e6",
  "0.1",
  "10",
  "10.5",
  "4",
  "3",
  "2",
  "0",
  '"L"',
  '"R"',
  '"U"',
  '"\\u004c"',
  '"auto"',
  '"au\\u0074o"',
  '"wall"',
  '"grass"',
  '"sim-datalogger-track-bundle"',
  '"é"',
  '"\\ud800"',
  "[1,1]",
  "[1,1,1]",
  "[0,1]",
  "[2,1]",
  "[1.5,2]",
  "[1,-0]",
  "[1e0,1E0]",
  "[1,]",
  '{"a":[1,{"b":null}],"c":"\\u00e9\\ud800\\n"}',
  `{"${ME}":[1,1]}`,
  `{"auto":{"${ME}":[1,1]}}`,
  "01",
  "1.",
  ".5",
  "+1",
  "-",
  "NaN",
  '"\t"',
  '"\\x"',
  "nul",
];

/** Keys to add (raw JSON text): known, unknown, escaped, duplicates of real ones. */
const ODD_KEYS = [
  '"__proto__"',
  '"x"',
  '"y"',
  '"z"',
  '"hx"',
  '"run"',
  '"tw"',
  '"side"',
  '"kind"',
  '"votes"',
  '"auto"',
  '"wall"',
  '"straddle"',
  `"${ME}"`,
  '"abcdef"',
  '"ABCDEF"',
  '"123456"',
  '"edges"',
  '"version"',
  '"format"',
  '"meta"',
  '"corners"',
  '"extra"',
  '"\\u0078"',
  '"é"',
  '""',
];

/** Bytes a byte-level mutation inserts or writes. */
const ODD_BYTES = [
  0x22, // "
  0x5c, // \
  0x2c, // ,
  0x5d, // ]
  0x7d, // }
  0x5b, // [
  0x7b, // {
  0x2d, // -
  0x2e, // .
  0x65, // e
  0x30,
  0x39,
  0x20,
  0x0a,
  0x00,
  0x80,
  0xc3,
  0xed,
  0xff,
];

const ODD_MARK = "@@odd-value@@";
const KEY_MARK = "@@odd-key@@";

/** Every object and array in `value`, the document itself first. */
function containers(value: unknown, out: Loose[] = []): Loose[] {
  if (typeof value === "object" && value !== null) {
    out.push(value);
    for (const v of Object.values(value)) containers(v, out);
  }
  return out;
}

/** A structural mutation: what to change in which container. */
const structuralArb = fc.record({
  at: fc.nat(),
  how: fc.constantFrom("replace", "add first", "add last"),
  member: fc.nat(),
  value: fc.constantFrom(...ODD_VALUES),
  key: fc.constantFrom(...ODD_KEYS),
});

type Structural = typeof structuralArb extends fc.Arbitrary<infer T> ? T : never;

/** A byte-level mutation. */
const byteArb = fc.record({
  at: fc.nat(),
  how: fc.constantFrom("delete", "insert", "replace"),
  byte: fc.oneof(fc.constantFrom(...ODD_BYTES), fc.integer({ min: 0, max: 255 })),
});

/**
 * `doc`'s JSON with `mutations` applied: members replaced by odd values,
 * odd keys added. Each is marked in the copy and spelled out in the text.
 */
function mutated(doc: unknown, mutations: Structural[]): string {
  const copy = structuredClone(doc);
  mutations.forEach((m, i) => {
    const all = containers(copy);
    const target = all[m.at % all.length];
    const keys = Object.keys(target);
    const mark = `${ODD_MARK}${i}`;
    if (m.how === "replace" && keys.length > 0) {
      target[keys[m.member % keys.length]] = mark;
    } else if (Array.isArray(target)) {
      if (m.how === "add first") target.unshift(mark);
      else target.push(mark);
    } else {
      // Rebuilt so the new key may come before the existing ones (duplicates either way round).
      const entries = Object.entries(target);
      for (const k of keys) delete target[k];
      if (m.how === "add first") target[`${KEY_MARK}${i}`] = mark;
      for (const [k, v] of entries) target[k] = v;
      if (m.how !== "add first") target[`${KEY_MARK}${i}`] = mark;
    }
  });
  let text = JSON.stringify(copy);
  mutations.forEach((m, i) => {
    text = text.replaceAll(`"${ODD_MARK}${i}"`, m.value).replaceAll(`"${KEY_MARK}${i}"`, m.key);
  });
  return text;
}

Deno.test("mutated documents: null whenever the slow path throws, else its very table", () => {
  const tally = { accepted: 0, declined: 0, "both refuse": 0 };
  fc.assert(
    fc.property(
      v4DocsArb(1, 6),
      fc.array(structuralArb, { maxLength: 2 }),
      fc.array(byteArb, { maxLength: 2 }),
      ([doc], structural, bytewise) => {
        let bytes = utf8(mutated(doc, structural));
        for (const m of bytewise) {
          const at = m.at % (bytes.length + 1);
          const next = Array.from(bytes);
          if (m.how === "insert") next.splice(at, 0, m.byte);
          else if (m.how === "delete") next.splice(at, 1);
          else next[Math.min(at, next.length - 1)] = m.byte;
          bytes = Uint8Array.from(next);
        }
        tally[assertAgrees(bytes)]++;
      },
    ),
    { numRuns: 4_000, seed: 19 },
  );
  // Every kind of outcome happened: the property was not vacuous.
  assert.ok(tally.accepted > 500, JSON.stringify(tally));
  assert.ok(tally["both refuse"] > 500, JSON.stringify(tally));
});

Deno.test("mutated documents: odd values in every edge field, one at a time", () => {
  const doc = v4Doc(3) as Loose;
  doc.edges[1].votes.wall = { f0e1d2c3b4a5: [2, 3], [ME]: [1, 1] };
  const text = JSON.stringify(doc);
  const fields = ["x", "z", "y", "hx", "hz", "side", "kind", "votes", "run", "tw"];
  for (const field of fields) {
    for (const value of ODD_VALUES) {
      const changed = structuredClone(doc);
      changed.edges[1][field] = ODD_MARK;
      const bytes = utf8(JSON.stringify(changed).replace(`"${ODD_MARK}"`, value));
      assert.doesNotThrow(() => assertAgrees(bytes), `${field}: ${value}`);
    }
    for (const key of ODD_KEYS) {
      const bytes = utf8(text.replace(`"${field}":`, `${key}: 1, "${field}":`));
      assert.doesNotThrow(() => assertAgrees(bytes), `${key} before ${field}`);
    }
  }
  for (const [spot, value] of [["auto", ""], ["wall", ""]]) {
    const bytes = utf8(text.replace(`"${spot}":{`, `"${spot}":{${value}`));
    assertAgrees(bytes);
  }
});

Deno.test("declined: a byte order mark, trailing garbage or commas, no object, an older version", () => {
  const text = JSON.stringify(v4Doc(3));
  const cases: [string, Uint8Array][] = [
    ["a byte order mark", new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(text)])],
    ["trailing garbage", utf8(`${text} x`)],
    ["a second document", utf8(`${text}{}`)],
    ["a trailing comma at the top", utf8(`${text.slice(0, -1)},}`)],
    ["a trailing comma in the edges", utf8(text.replace("1.6}],", "1.6},],"))],
    ["a trailing comma in votes", utf8(text.replace("]}},", "]},},"))],
    ["a trailing comma in an entry", utf8(text.replace("4,4]", "4,4,]"))],
    ["an empty object", utf8("{}")],
    ["an empty document", new Uint8Array()],
    ["only whitespace", utf8(" \n")],
    ["an array", utf8(`[${text}]`)],
    ["a version 3 document", utf8(JSON.stringify(legacyDoc(3, { version: 3 })))],
    ["a version 2 document", utf8(JSON.stringify(legacyDoc(3)))],
    ["a version 5 document", utf8(text.replace('"version":4', '"version":5'))],
    ["version as a string", utf8(text.replace('"version":4', '"version":"4"'))],
    ["no edges", utf8(text.replace(/"edges":\[.*\],"finish/, '"finish'))],
    ["bad UTF-8 in the track", utf8(text).map((b) => b === 0x54 ? 0xff : b)],
    ["a duplicate top-level key", utf8(text.replace('"version":4', '"version":4,"version":4'))],
  ];
  for (const [what, bytes] of cases) {
    assert.equal(readBundleBytes(bytes), null, what);
    assertAgrees(bytes);
  }
});

Deno.test("numbers convert exactly as JSON.parse converts them", () => {
  const text = JSON.stringify(v4Doc(3));
  const literals = [
    "1e2",
    "1E-3",
    "1e+2",
    "-0.0",
    "-0",
    "0.1",
    "0.3",
    "1234567.89123456789",
    "123456789.123456789e-2",
    "0.1000000000000000055511151231257827",
    "1234567.890123456",
    "123456.7890123456",
    "9999999.999999999",
    "-9999999.999999999999",
    "5e-324",
    "2.2250738585072011e-308",
    "0.000000000000000000000001",
    "1.00000000000000011102230246251565404236316680908203125",
  ];
  for (const literal of literals) {
    const bytes = utf8(text.replace('"x":1,', `"x":${literal},`));
    const table = assertAccepted(bytes);
    assert.ok(Object.is(table.edges.x[1], JSON.parse(literal) + 0), literal);
  }
});

/** Decimal literals by the JSON grammar, around the fast path's 15-digit and 22-place edges. */
const literalArb = fc.record({
  negative: fc.boolean(),
  integer: fc.oneof(fc.constant("0"), fc.stringMatching(/^[1-9][0-9]{0,7}$/)),
  fraction: fc.option(fc.stringMatching(/^[0-9]{1,25}$/), { nil: null }),
  exponent: fc.option(fc.stringMatching(/^[eE][+-]?[0-9]{1,2}$/), { nil: null }),
}).map((n) =>
  `${n.negative ? "-" : ""}${n.integer}${n.fraction === null ? "" : `.${n.fraction}`}${
    n.exponent ?? ""
  }`
);

Deno.test("random number literals in a coordinate read exactly as JSON.parse reads them", () => {
  const text = JSON.stringify(v4Doc(3));
  fc.assert(
    fc.property(literalArb, (literal) => {
      const bytes = utf8(text.replace('"x":1,', `"x":${literal},`));
      const value = JSON.parse(literal);
      if (Math.abs(value) > 10_000_000) {
        assert.equal(readBundleBytes(bytes), null);
        return;
      }
      const table = assertAccepted(bytes);
      assert.ok(Object.is(table.edges.x[1], value + 0), literal);
    }),
    { numRuns: 3_000, seed: 19 },
  );
});

Deno.test("accepted: unknown keys anywhere, __proto__ keys, nulls and defaults, any spacing", () => {
  const doc = v4Doc(3) as Loose;
  doc.extra = { deep: [[[{ a: "é\u0000\ud83d\ude00" }]]], n: -1.5e-7 };
  doc.edges[0].note = { a: [1, 2, { b: null, c: true, d: false }], e: '\\"\n' };
  doc.edges[0].y = null;
  doc.edges[0].tw = null;
  delete doc.edges[1].hx;
  delete doc.edges[1].hz;
  delete doc.edges[1].run;
  delete doc.edges[1].kind;
  doc.meta.track = "Nürburgring 🏁";
  const text = JSON.stringify(doc, null, "\t")
    .replace('"x": 2,', '"__proto__": {"x": 5}, "x": 2,')
    .replace('"format"', '"__proto__": [1], "format"');
  const table = assertAccepted(utf8(text));
  assert.ok(Number.isNaN(table.edges.y[0]));
  assert.equal(table.edges.x[2], 2);
  assert.equal(table.meta.track, "Nürburgring 🏁");
});

Deno.test("declined: duplicate keys in an edge, its votes or a source map; escaped values", () => {
  const text = JSON.stringify(v4Doc(3));
  const cases: [string, string][] = [
    ["duplicate x", text.replace('"x":1,', '"x":1,"x":1,')],
    ["duplicate votes", text.replace('"votes":', `"votes":{"auto":{"${ME}":[4,4]}},"votes":`)],
    ["duplicate kind", text.replace('{"auto":{', `{"auto":{"${ME}":[4,4]},"auto":{`)],
    ["duplicate source", text.replace(`{"${ME}":[4,4]}`, `{"${ME}":[4,4],"${ME}":[4,4]}`)],
    ["an escaped side", text.replace('"side":"L"', '"side":"\\u004c"')],
    ["an escaped key", text.replace('"x":1,', '"\\u0078":1,')],
  ];
  for (const [what, changed] of cases) {
    assert.equal(readBundleBytes(utf8(changed)), null, what);
    assertAgrees(utf8(changed));
  }
});

/** Byte runs to write into a skipped value: well-formed and ill-formed UTF-8, JSON punctuation. */
const ODD_RUNS = [
  [0xed, 0xa0, 0x80], // an encoded surrogate
  [0xf4, 0x90, 0x80, 0x80], // past U+10FFFF
  [0xe0, 0x80, 0x80], // overlong
  [0xc0, 0xaf], // overlong
  [0xe2, 0x82], // cut short
  [0xf0, 0x9f, 0x98, 0x80], // well-formed
  [0xc3, 0xa9], // well-formed
  [0x5c, 0x75, 0x30, 0x30, 0x67], // \u00g
  [0x5c, 0x75, 0x44, 0x38, 0x30, 0x30], // \uD800: JSON.parse takes it
  [0x09], // a raw tab
  [0x22, 0x3a], // ":
  [0x2c, 0x2c],
];

Deno.test("unknown values in an edge are skipped only when JSON.parse would take them", () => {
  const tally = { accepted: 0, declined: 0, "both refuse": 0 };
  const doc = v4Doc(2) as Loose;
  doc.edges[0].extra = ODD_MARK;
  const text = JSON.stringify(doc);
  fc.assert(
    fc.property(
      fc.json({ stringUnit: "binary" }),
      fc.nat(),
      fc.option(fc.constantFrom(...ODD_RUNS), { nil: null }),
      fc.boolean(),
      (json, at, run, replace) => {
        const value = utf8(json);
        const bytes = Array.from(value);
        if (run !== null) bytes.splice(at % (value.length + 1), replace ? run.length : 0, ...run);
        const [head, tail] = text.split(`"${ODD_MARK}"`);
        tally[assertAgrees(Uint8Array.from([...utf8(head), ...bytes, ...utf8(tail)]))]++;
      },
    ),
    { numRuns: 3_000, seed: 19 },
  );
  assert.ok(tally.accepted > 500, JSON.stringify(tally));
  assert.ok(tally["both refuse"] > 500, JSON.stringify(tally));
});

Deno.test("a 5 MB number or member name is declined at once, and the slow path reads the document", () => {
  const doc = JSON.parse(JSON.stringify(v4Doc(2))) as Record<string, unknown>;
  const text = JSON.stringify(doc);
  const digits = "1" + "0".repeat(5_000_000);
  for (
    const big of [
      text.slice(0, -1) + `,"junk":${digits}}`,
      text.slice(0, -1) + `,"${"k".repeat(5_000_000)}":1}`,
    ]
  ) {
    assert.equal(readBundleBytes(new TextEncoder().encode(big)), null);
    assert.ok(validateBundleTable(JSON.parse(big)));
  }
});
