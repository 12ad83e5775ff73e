/**
 * Mutation fuzzing of JSON documents: fast-check picks up to three edits
 * (delete, replace, insert, duplicate, truncate, retype) at paths of a valid
 * document, so most inputs are nearly valid and reach deep validation rules.
 *
 * @module
 */
import fc from "fast-check";

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One edit at the `at`-th path (modulo the number of paths). */
export interface Mutation {
  at: number;
  op: "delete" | "replace" | "insert" | "duplicate" | "truncate";
  value: Json;
}

const NASTY: Json[] = [
  null,
  true,
  0,
  -0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53,
  -(2 ** 31),
  "",
  "NaN",
  "Infinity",
  "../../etc/passwd",
  '=HYPERLINK("http://x")',
  "x".repeat(300),
  "\u0000\u202e",
  [],
  {},
  [[[]]],
  JSON.parse('{"__proto__": {"polluted": 1}}'),
  { constructor: { prototype: { polluted: 1 } } },
];

/** Arbitrary replacement values: the nasty list or small random JSON. */
export const valueArb: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json> },
  { weight: 2, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.integer() },
);

/** One to three mutations. */
export const mutationsArb: fc.Arbitrary<Mutation[]> = fc.array(
  fc.record({
    at: fc.nat(),
    op: fc.constantFrom("delete", "replace", "replace", "insert", "duplicate", "truncate"),
    value: valueArb,
  }) as fc.Arbitrary<Mutation>,
  { minLength: 1, maxLength: 3 },
);

type Path = (string | number)[];

/** Paths worth editing: every key and the first, second and last element of arrays. */
function paths(value: Json, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(value)) {
    const picks = new Set([0, 1, value.length - 1].filter((i) => i >= 0 && i < value.length));
    for (const i of picks) paths(value[i], [...prefix, i], out);
  } else if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value)) paths(value[key], [...prefix, key], out);
  }
  return out;
}

function parentOf(root: Json, path: Path): Json | undefined {
  let node: Json | undefined = root;
  for (const seg of path.slice(0, -1)) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string | number, Json>)[seg];
  }
  return node;
}

/** `doc` (not modified) with `mutations` applied in order. */
export function mutate(doc: Json, mutations: readonly Mutation[]): Json {
  let root = structuredClone(doc);
  for (const m of mutations) {
    const all = paths(root);
    const path = all[m.at % all.length];
    if (path.length === 0) {
      if (m.op === "replace") root = structuredClone(m.value);
      continue;
    }
    const parent = parentOf(root, path);
    if (parent === null || typeof parent !== "object" || parent === undefined) continue;
    const key = path[path.length - 1];
    const slot = parent as Record<string | number, Json>;
    const target = slot[key];
    switch (m.op) {
      case "delete":
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete slot[key];
        break;
      case "replace":
        slot[key] = structuredClone(m.value);
        break;
      case "insert":
        if (Array.isArray(parent)) parent.splice(key as number, 0, structuredClone(m.value));
        else slot[`${String(key)}_extra`] = structuredClone(m.value);
        break;
      case "duplicate":
        if (Array.isArray(parent)) parent.splice(key as number, 0, structuredClone(target));
        else if (Array.isArray(target)) target.push(...structuredClone(target).slice(0, 3));
        break;
      case "truncate":
        if (Array.isArray(target)) target.length = Math.floor(target.length / 2);
        else if (typeof target === "string") slot[key] = target.slice(0, target.length >> 1);
        break;
    }
  }
  return root;
}

/** A cheap fingerprint of every entry in the store: equal before and after means nothing was written. */
export async function storeFingerprint(kv: Deno.Kv): Promise<string> {
  let count = 0;
  let latest = "";
  for await (const entry of kv.list({ prefix: [] })) {
    count++;
    if (entry.versionstamp > latest) latest = entry.versionstamp;
  }
  return `${count}@${latest}`;
}
