/**
 * The edges of a v4 document checked by hand: the hot part of a bundle
 * import, which zod takes several times longer over (50,000 edges, a few
 * hundred thousand vote entries). This is a fast path only. It accepts
 * exactly what `bundleV4Schema` accepts for `edges`, and builds exactly the
 * edges `validateBundle` builds from zod's output; on anything unusual (a
 * broken rule, an object that is not plain, a `__proto__` key, a symbol
 * key) it gives up with null and the caller runs the schema, which then
 * reports every failure with its path. So it never needs to say why.
 *
 * @module
 */
import {
  COORD_LIMIT,
  MAX_EDGES,
  RUN_LIMIT,
  SOURCE_ID_PATTERN,
  TW_LIMIT,
  UNIT_LIMIT,
} from "./limits.ts";
import { type Edge, KINDS, type SourceVotes, type Votes } from "./types.ts";

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

/** What one document's check carries along: the source ids already seen to be valid. */
interface Seen {
  sources: Set<string>;
}

/**
 * One kind's source -> [count, last_run] map, copied, with the rule of
 * `voteEntrySchema` (integers, 1 <= count <= max(last_run, 1)); -1 total
 * when zod would refuse it or treat it specially. Returns the count total.
 */
function copySources(value: unknown, out: SourceVotes, seen: Seen): number {
  if (!plainRecord(value)) return -1;
  let total = 0;
  let any = false;
  // An own "__proto__" key (JSON.parse makes one) fails the pattern, so the schema judges it.
  for (const source in value) {
    if (!seen.sources.has(source)) {
      if (!SOURCE_ID_PATTERN.test(source)) return -1;
      seen.sources.add(source);
    }
    const entry = value[source];
    if (!Array.isArray(entry) || entry.length !== 2) return -1;
    const count = entry[0];
    const run = entry[1];
    if (!Number.isInteger(count) || count < 1 || count > RUN_LIMIT) return -1;
    if (!Number.isInteger(run) || run < 0 || run > RUN_LIMIT) return -1;
    if (count > Math.max(run, 1)) return -1;
    out[source] = [count, run];
    total += count;
    any = true;
  }
  return any ? total : -1;
}

/** The tier winner as `resolveKind` picks it: highest total, ties to the earlier kind. */
function best(totals: Float64Array, from: number, to: number): number {
  let at = -1;
  let top = 0;
  for (let k = from; k < to; k++) {
    if (totals[k] > top) {
      top = totals[k];
      at = k;
    }
  }
  return at;
}

/** Index of the first inferred kind in KINDS (wall, runoff, edge | auto, straddle). */
const FIRST_INFERRED = 3;

function edge(raw: unknown, seen: Seen, totals: Float64Array): Edge | null {
  if (!objectLike(raw)) return null;
  const { x, z, y, hx, hz, side, kind, votes, run, tw } = raw;
  if (!within(x, COORD_LIMIT) || !within(z, COORD_LIMIT)) return null;
  if (y !== undefined && y !== null && !within(y, COORD_LIMIT)) return null;
  if (hx !== undefined && !within(hx, UNIT_LIMIT)) return null;
  if (hz !== undefined && !within(hz, UNIT_LIMIT)) return null;
  if (side !== "L" && side !== "R") return null;
  if (kind !== undefined && !(typeof kind === "string" && KIND_SET.has(kind))) return null;
  if (run !== undefined && !(Number.isInteger(run) && within(run, RUN_LIMIT) && run >= 0)) {
    return null;
  }
  if (tw !== undefined && tw !== null && !within(tw, TW_LIMIT)) return null;
  if (!plainRecord(votes)) return null;
  let kinds = 0;
  for (const key in votes) {
    if (!KIND_SET.has(key)) return null;
    kinds++;
  }
  if (kinds === 0) return null;
  // Kinds in tie-break order, as copyVotes leaves them.
  const copy: Votes = {};
  for (let k = 0; k < KINDS.length; k++) {
    const bySource = votes[KINDS[k]];
    totals[k] = 0;
    if (bySource === undefined) continue;
    const sources: SourceVotes = {};
    const total = copySources(bySource, sources, seen);
    if (total < 0) return null;
    totals[k] = total;
    copy[KINDS[k]] = sources;
  }
  const manual = best(totals, 0, FIRST_INFERRED);
  const inferred = manual < 0 ? best(totals, FIRST_INFERRED, KINDS.length) : -1;
  const at = manual >= 0 ? manual : inferred;
  return {
    x,
    z,
    y: y ?? null,
    hx: hx ?? 0,
    hz: hz ?? 0,
    side,
    kind: at >= 0 ? KINDS[at] : "auto",
    votes: copy,
    run: (run as number | undefined) ?? 0,
    tw: tw ?? null,
  };
}

/**
 * The edges of a v4 document as `validateBundle` builds them (defaults
 * filled, kinds resolved from the votes, vote maps copied), or null when
 * the schema has to judge them: whenever it would refuse them, and in the
 * rare cases this check does not model. Never accepts what the schema refuses.
 */
export function fastEdgesV4(raw: unknown): Edge[] | null {
  if (!Array.isArray(raw) || raw.length > MAX_EDGES || !prototypeClean()) return null;
  const seen: Seen = { sources: new Set() };
  const totals = new Float64Array(KINDS.length);
  const out: Edge[] = [];
  for (let i = 0; i < raw.length; i++) {
    const e = edge(raw[i], seen, totals);
    if (e === null) return null;
    out.push(e);
  }
  return out;
}
