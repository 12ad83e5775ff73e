/**
 * The edges of a v4 document checked by hand straight into an
 * {@linkcode EdgeTable}: the hot part of a bundle import, which zod takes
 * several times longer over (50,000 edges, a few hundred thousand vote
 * entries). This is a fast path only. It accepts exactly what
 * `bundleV4Schema` accepts for `edges`, and builds the table of exactly the
 * edges the schema's output gives; on anything unusual (a broken rule, an
 * object that is not plain, a `__proto__` key, a symbol key) it gives up
 * with null and the caller runs the schema, which then reports every
 * failure with its path. So it never needs to say why.
 *
 * @module
 */
import { type EdgeTable, EdgeTableBuilder } from "./edge_table.ts";
import {
  COORD_LIMIT,
  MAX_EDGES,
  RUN_LIMIT,
  SOURCE_ID_PATTERN,
  TW_LIMIT,
  UNIT_LIMIT,
} from "./limits.ts";
import { KINDS } from "./types.ts";

const KIND_SET: ReadonlySet<string> = new Set(KINDS);

/**
 * A plain object whose keys zod's records would all see: no symbol keys,
 * and (with {@linkcode prototypeClean}) for-in lists exactly its own keys.
 */
function plainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    Object.getOwnPropertySymbols(value).length === 0;
}

/** No enumerable key on Object.prototype, so for-in over a plain object sees only its own keys. */
function prototypeClean(): boolean {
  for (const _ in Object.prototype) return false;
  return true;
}

/** An object zod's `z.object` would read fields from. */
function objectLike(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function within(value: unknown, limit: number): value is number {
  // NaN and the infinities fail the comparisons, as z.number() refuses them.
  return typeof value === "number" && value >= -limit && value <= limit;
}

/**
 * Adds one kind's source -> [count, last_run] entries to the cell being
 * built, with the rule of `voteEntrySchema` (integers, 1 <= count <=
 * max(last_run, 1)). False when zod would refuse them or read them otherwise.
 */
function addSources(
  value: unknown,
  kind: number,
  out: EdgeTableBuilder,
  checked: Set<string>,
): boolean {
  if (!plainRecord(value)) return false;
  let any = false;
  // An own "__proto__" key (JSON.parse makes one) fails the pattern, so the schema judges it.
  for (const source in value) {
    if (!checked.has(source)) {
      if (!SOURCE_ID_PATTERN.test(source)) return false;
      checked.add(source);
    }
    const entry = value[source];
    if (!Array.isArray(entry) || entry.length !== 2) return false;
    const count = entry[0];
    const run = entry[1];
    if (!Number.isInteger(count) || count < 1 || count > RUN_LIMIT) return false;
    if (!Number.isInteger(run) || run < 0 || run > RUN_LIMIT) return false;
    if (count > Math.max(run, 1)) return false;
    out.addVote(kind, out.source(source), count, run);
    any = true;
  }
  return any;
}

function addEdge(raw: unknown, out: EdgeTableBuilder, checked: Set<string>): boolean {
  if (!objectLike(raw)) return false;
  const { x, z, y, hx, hz, side, kind, votes, run, tw } = raw;
  if (!within(x, COORD_LIMIT) || !within(z, COORD_LIMIT)) return false;
  if (y !== undefined && y !== null && !within(y, COORD_LIMIT)) return false;
  if (hx !== undefined && !within(hx, UNIT_LIMIT)) return false;
  if (hz !== undefined && !within(hz, UNIT_LIMIT)) return false;
  if (side !== "L" && side !== "R") return false;
  if (kind !== undefined && !(typeof kind === "string" && KIND_SET.has(kind))) return false;
  if (run !== undefined && !(Number.isInteger(run) && within(run, RUN_LIMIT) && run >= 0)) {
    return false;
  }
  if (tw !== undefined && tw !== null && !within(tw, TW_LIMIT)) return false;
  if (!plainRecord(votes)) return false;
  let kinds = 0;
  for (const key in votes) {
    if (!KIND_SET.has(key)) return false;
    kinds++;
  }
  if (kinds === 0) return false;
  out.addCell(
    x,
    z,
    y ?? NaN,
    hx ?? 0,
    hz ?? 0,
    side === "R" ? 1 : 0,
    (run as number | undefined) ?? 0,
    tw ?? NaN,
  );
  for (let k = 0; k < KINDS.length; k++) {
    const bySource = votes[KINDS[k]];
    if (bySource !== undefined && !addSources(bySource, k, out, checked)) return false;
  }
  return true;
}

/**
 * The table of a v4 document's edges as `validateBundle` builds them
 * (defaults filled, kinds resolved from the votes), or null when the schema
 * has to judge them: whenever it would refuse them, and in the rare cases
 * this check does not model. Never accepts what the schema refuses.
 */
export function fastEdgeTable(raw: unknown): EdgeTable | null {
  if (!Array.isArray(raw) || raw.length > MAX_EDGES || !prototypeClean()) return null;
  const checked = new Set<string>();
  const out = new EdgeTableBuilder(raw.length, raw.length * 6);
  for (let i = 0; i < raw.length; i++) {
    if (!addEdge(raw[i], out, checked)) return null;
  }
  return out.finish();
}
