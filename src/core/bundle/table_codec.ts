/**
 * A bundle held as an {@linkcode EdgeTable}, as bytes: the storage encoding
 * that replaces gzip'd JSON, so that a store read is a dozen copies and a
 * few loops instead of a parse of some hundred thousand objects.
 *
 * Layout (every integer little-endian):
 *
 * | bytes              | what                                                     |
 * | ------------------ | -------------------------------------------------------- |
 * | 4                  | magic `E T B` and the layout version, 1                  |
 * | 4                  | u32 length of the header                                 |
 * | header length      | UTF-8 JSON: n, m, sources and the bundle's other members |
 * | 0 to 7             | zero bytes, up to a multiple of 8                        |
 * | 8n each            | f64 columns x, z, y, hx, hz, tw                          |
 * | 4n, 4(n + 1)       | i32 columns run, voteStart                               |
 * | 4m each            | i32 voteCount, voteRun; u32 voteSource                   |
 * | n, m               | u8 columns side, voteKind                                |
 *
 * `kind` is not stored: it is derived from the votes, and recomputed on
 * decode. Nothing read is trusted; see {@linkcode decodeBundleTable}.
 *
 * @module
 */
import { ImportRejected } from "../errors.ts";
import { type BundleTable, compareSources, type EdgeTable, resolveKindAt } from "./edge_table.ts";
import {
  countFitsRun,
  isCoord,
  isKindCode,
  isRunCounter,
  isSideCode,
  isTrackWidth,
  isUnit,
  isVoteCount,
} from "./edge_rules.ts";
import { COORD_LIMIT, MAX_EDGES, RUN_LIMIT, TW_LIMIT, UNIT_LIMIT } from "./limits.ts";
import { isSourceId } from "./source_id.ts";
import { canonicalBundle } from "./serialise.ts";
import { withEdges } from "./table_convert.ts";
import { KINDS, V4_MEMBERS } from "./types.ts";
import { validateMembersV4 } from "./validate.ts";

/** The name of this encoding, as a store's head records it next to the bytes. */
export const TABLE_ENCODING = "edge-table-1";

/** Typed arrays use the platform's byte order; the layout is little-endian. */
if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
  throw new Error(
    "table_codec: this platform is big-endian; the edge table encoding needs little-endian",
  );
}

/** "ETB" and the layout version. */
const MAGIC = [0x45, 0x54, 0x42] as const;
const LAYOUT_VERSION = 1;
/** Magic, version and the header length. */
const PREFIX = 8;
/** Every member a header holds; any other key is refused. */
const HEADER_KEYS: ReadonlySet<string> = new Set(["n", "m", "sources", ...V4_MEMBERS]);

/** Bytes that are not an edge table this build can read, and what is wrong with them. */
export class TableCorrupt extends Error {
  /** The error with a message naming the field at fault. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "TableCorrupt";
  }
}

function padded(length: number): number {
  return Math.ceil(length / 8) * 8;
}

/** Bytes the columns of a table of `n` cells and `m` entries take. */
function columnBytes(n: number, m: number): number {
  return 6 * 8 * n + 4 * n + 4 * (n + 1) + 3 * 4 * m + n + m;
}

/** The header's JSON value: members listed field by field, so equal values give equal text. */
function headerOf(bundle: BundleTable): Record<string, unknown> {
  const t = bundle.edges;
  // The members as an export writes them, so equal bundles give equal headers.
  const { format, version, meta, finish_crossings, corners, sections } = canonicalBundle(
    withEdges(bundle, []),
  );
  return {
    n: t.length,
    m: t.voteKind.length,
    sources: [...t.sources],
    format,
    version,
    meta,
    finish_crossings,
    corners,
    sections,
  };
}

/** True when element `i` of the f64 column `words` views has the bits of the literal NaN. */
function canonicalNaN(words: Uint32Array, i: number): boolean {
  return words[2 * i] === 0 && words[2 * i + 1] === 0x7ff80000;
}

/**
 * `column` with every -0 as 0 and every NaN as the one NaN bit pattern, so
 * tables equal in value encode to equal bytes (x86 arithmetic makes NaNs
 * with the sign bit set). The column itself when already so, as a table's is.
 */
function canonical(column: Float64Array): Float64Array {
  const words = new Uint32Array(column.buffer, column.byteOffset, column.length * 2);
  let out: Float64Array | null = null;
  for (let i = 0; i < column.length; i++) {
    const v = column[i];
    if (v === 0) {
      if (1 / v < 0) (out ??= column.slice())[i] = 0;
    } else if (v !== v && !canonicalNaN(words, i)) {
      (out ??= column.slice())[i] = NaN;
    }
  }
  return out ?? column;
}

function bytesOf(column: Float64Array | Int32Array | Uint32Array | Uint8Array): Uint8Array {
  return new Uint8Array(column.buffer, column.byteOffset, column.byteLength);
}

/** Throws when `table`'s columns disagree on its size: a bug, never written to a store. */
function checkShape(t: EdgeTable): void {
  const n = t.length;
  const m = t.voteKind.length;
  const cells = [t.x, t.z, t.y, t.hx, t.hz, t.tw, t.run, t.side];
  const votes = [t.voteSource, t.voteCount, t.voteRun];
  if (
    cells.some((c) => c.length !== n) || votes.some((c) => c.length !== m) ||
    t.voteStart.length !== n + 1
  ) {
    throw new Error(`edge table columns disagree on its size (${n} cells, ${m} entries)`);
  }
  // The vote rules a read checks are checked before writing too: a table that breaks
  // them is a bug upstream, refused here rather than stored and found unreadable later.
  const used = new Uint8Array(t.sources.length);
  try {
    checkVotes(
      n,
      t.sources.length,
      t.voteStart,
      t.voteKind,
      t.voteSource,
      t.voteCount,
      t.voteRun,
      used,
    );
  } catch (err) {
    if (!(err instanceof TableCorrupt)) throw err;
    throw new Error(`refusing to write an edge table that breaks its rules: ${err.message}`);
  }
  const unused = used.indexOf(0);
  if (unused >= 0) {
    throw new Error(
      `refusing to write an edge table listing source ${t.sources[unused]} with no entry`,
    );
  }
}

/**
 * The bytes of `bundle`, in pieces: a small header piece, then views of the
 * table's own columns (a column is copied only to turn a -0 or an unusual
 * NaN into the usual one), so a table of several megabytes is never
 * gathered into one buffer. Concatenated, the pieces are the encoding; equal
 * tables (equal values, whatever order their members' keys were set in)
 * give equal bytes. The pieces share memory with the table, which never
 * changes; consume them before changing anything a piece views.
 *
 * @throws {Error} when the table's columns disagree on its size, or its
 *   vote entries break a rule a read checks (a bug upstream: nothing is written).
 */
export function* encodeBundleTable(bundle: BundleTable): Generator<Uint8Array> {
  const t = bundle.edges;
  checkShape(t);
  const json = new TextEncoder().encode(JSON.stringify(headerOf(bundle)));
  const head = new Uint8Array(padded(PREFIX + json.length));
  head.set(MAGIC);
  head[3] = LAYOUT_VERSION;
  new DataView(head.buffer).setUint32(4, json.length, true);
  head.set(json, PREFIX);
  yield head;
  const columns = [
    canonical(t.x),
    canonical(t.z),
    canonical(t.y),
    canonical(t.hx),
    canonical(t.hz),
    canonical(t.tw),
    t.run,
    t.voteStart,
    t.voteCount,
    t.voteRun,
    t.voteSource,
    t.side,
    t.voteKind,
  ];
  for (const column of columns) if (column.length > 0) yield bytesOf(column);
}

/** The header's JSON, as an object with the members a decode needs checked. */
interface Header {
  n: number;
  m: number;
  sources: string[];
  raw: Record<string, unknown>;
}

function readHeader(bytes: Uint8Array): { header: Header; end: number } {
  if (bytes.length < PREFIX) {
    throw new TableCorrupt(
      `truncated: ${bytes.length} bytes, shorter than the ${PREFIX}-byte prefix`,
    );
  }
  if (bytes[0] !== MAGIC[0] || bytes[1] !== MAGIC[1] || bytes[2] !== MAGIC[2]) {
    throw new TableCorrupt("bad magic: not an edge table");
  }
  if (bytes[3] !== LAYOUT_VERSION) {
    throw new TableCorrupt(
      `edge table layout version is ${bytes[3]}; this build reads ${LAYOUT_VERSION}`,
    );
  }
  const length = new DataView(bytes.buffer, bytes.byteOffset, PREFIX).getUint32(4, true);
  const end = padded(PREFIX + length);
  if (end > bytes.length) {
    throw new TableCorrupt(
      `truncated: header length is ${length}, past the end of ${bytes.length} bytes`,
    );
  }
  for (let i = PREFIX + length; i < end; i++) {
    if (bytes[i] !== 0) throw new TableCorrupt(`header padding byte ${i} is ${bytes[i]}, not 0`);
  }
  let raw: unknown;
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })
      .decode(bytes.subarray(PREFIX, PREFIX + length));
    raw = JSON.parse(text);
  } catch (err) {
    throw new TableCorrupt(`header is not UTF-8 JSON: ${(err as Error).message}`, { cause: err });
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new TableCorrupt("header is not a JSON object");
  }
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!HEADER_KEYS.has(key)) {
      throw new TableCorrupt(`header has an unknown key ${JSON.stringify(key)}`);
    }
  }
  const { n, m, sources } = obj;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0) {
    throw new TableCorrupt(`header n is ${JSON.stringify(n)}; it must be a cell count`);
  }
  if (n > MAX_EDGES) {
    throw new TableCorrupt(`header n is ${n}; a bundle holds at most ${MAX_EDGES} edges`);
  }
  if (typeof m !== "number" || !Number.isSafeInteger(m) || m < 0) {
    throw new TableCorrupt(`header m is ${JSON.stringify(m)}; it must be an entry count`);
  }
  if (!Array.isArray(sources)) throw new TableCorrupt("header sources is not an array");
  for (let s = 0; s < sources.length; s++) {
    const id = sources[s];
    if (!isSourceId(id)) {
      throw new TableCorrupt(
        `sources[${s}] is ${JSON.stringify(id)}; a source id is 6 to 32 lowercase hex characters`,
      );
    }
    if (s > 0 && compareSources(sources[s - 1], id) >= 0) {
      throw new TableCorrupt(
        `sources[${s}] is ${JSON.stringify(id)}, not after ${JSON.stringify(sources[s - 1])}; ` +
          "sources must be strictly increasing",
      );
    }
  }
  return { header: { n, m, sources: sources as string[], raw: obj }, end };
}

/** Reads typed columns out of `bytes` at a cursor, each a copy, so alignment never matters. */
class Reader {
  #at: number;
  constructor(readonly bytes: Uint8Array, at: number) {
    this.#at = at;
  }
  #take(length: number): ArrayBuffer {
    const out = this.bytes.slice(this.#at, this.#at + length).buffer;
    this.#at += length;
    return out;
  }
  f64(count: number): Float64Array {
    return new Float64Array(this.#take(count * 8));
  }
  i32(count: number): Int32Array {
    return new Int32Array(this.#take(count * 4));
  }
  u32(count: number): Uint32Array {
    return new Uint32Array(this.#take(count * 4));
  }
  u8(count: number): Uint8Array {
    return new Uint8Array(this.#take(count));
  }
}

/**
 * Checks `column` by `rule` (whose bound is `limit`, for the message), NaN
 * allowed where `nullable`; turns -0 and NaN canonical.
 */
function checkReals(
  name: string,
  column: Float64Array,
  rule: (value: number) => boolean,
  limit: number,
  nullable: boolean,
): void {
  for (let i = 0; i < column.length; i++) {
    const v = column[i];
    if (rule(v)) {
      if (v === 0) column[i] = 0;
    } else if (nullable && v !== v) {
      column[i] = NaN;
    } else {
      throw new TableCorrupt(
        `${name}[${i}] is ${v}; it must be ${nullable ? "NaN (null) or " : ""}within ±${limit}`,
      );
    }
  }
}

function checkRuns(name: string, column: Int32Array): void {
  for (let i = 0; i < column.length; i++) {
    const v = column[i];
    if (!isRunCounter(v)) {
      throw new TableCorrupt(`${name}[${i}] is ${v}; runs are 0 to ${RUN_LIMIT}`);
    }
  }
}

/** Checks the vote columns of a table of `n` cells against each other and `sourceCount`. */
function checkVotes(
  n: number,
  sourceCount: number,
  voteStart: Int32Array,
  voteKind: Uint8Array,
  voteSource: Uint32Array,
  voteCount: Int32Array,
  voteRun: Int32Array,
  used: Uint8Array,
): void {
  const m = voteKind.length;
  if (voteStart[0] !== 0) throw new TableCorrupt(`voteStart[0] is ${voteStart[0]}; it must be 0`);
  for (let i = 0; i < n; i++) {
    const from = voteStart[i];
    const to = voteStart[i + 1];
    if (to <= from) {
      throw new TableCorrupt(
        to < from
          ? `voteStart[${i + 1}] is ${to}, below voteStart[${i}] ${from}; offsets must not decrease`
          : `cell ${i} has no vote entries (voteStart[${i}] = voteStart[${i + 1}] = ${to})`,
      );
    }
    if (to > m) throw new TableCorrupt(`voteStart[${i + 1}] is ${to}, past the ${m} entries`);
    let previous = -1;
    for (let v = from; v < to; v++) {
      const kind = voteKind[v];
      const source = voteSource[v];
      if (!isKindCode(kind)) {
        throw new TableCorrupt(`voteKind[${v}] is ${kind}; kinds are 0 to ${KINDS.length - 1}`);
      }
      if (source >= sourceCount) {
        throw new TableCorrupt(
          `voteSource[${v}] is ${source}; there are ${sourceCount} sources`,
        );
      }
      const key = kind * sourceCount + source;
      if (key <= previous) {
        throw new TableCorrupt(
          `cell ${i}: entry ${v} (voteKind ${kind}, voteSource ${source}) is not after the one ` +
            "before; entries must be strictly increasing by (kind, source)",
        );
      }
      previous = key;
      used[source] = 1;
      const run = voteRun[v];
      const count = voteCount[v];
      if (!isRunCounter(run)) {
        throw new TableCorrupt(`voteRun[${v}] is ${run}; runs are 0 to ${RUN_LIMIT}`);
      }
      if (!isVoteCount(count) || !countFitsRun(count, run)) {
        throw new TableCorrupt(
          `voteCount[${v}] is ${count}; it must be 1 to max(voteRun, 1) = ${Math.max(run, 1)}`,
        );
      }
    }
  }
  if (voteStart[n] !== m) {
    throw new TableCorrupt(`voteStart[${n}] is ${voteStart[n]}; it must be the ${m} entries`);
  }
}

/**
 * The bundle `bytes` encode (the concatenated pieces of
 * {@linkcode encodeBundleTable}), read from a view at any offset and shared
 * with nothing. Every value is checked as an import checks a document: the
 * result satisfies every invariant of {@linkcode EdgeTable} (kinds are
 * resolved here, -0 read as 0, NaN as the usual NaN) and every other member
 * passes {@linkcode validateMembersV4}, its run counters read as written
 * (not raised to the votes: a survey's save leaves a run still being driven
 * uncounted) and `meta.runs` their sum.
 *
 * @throws {TableCorrupt} naming the field at fault when the bytes are not
 *   exactly such an encoding: bad magic or version, truncated or extra
 *   bytes, a header that is not the expected JSON, or any value out of its
 *   rules.
 */
export function decodeBundleTable(bytes: Uint8Array): BundleTable {
  const { header, end } = readHeader(bytes);
  const { n, m, sources } = header;
  const expected = end + columnBytes(n, m);
  if (bytes.length < expected) {
    throw new TableCorrupt(
      `truncated: ${bytes.length} bytes; a table of n ${n}, m ${m} takes ${expected}`,
    );
  }
  if (bytes.length > expected) {
    throw new TableCorrupt(
      `${bytes.length - expected} extra bytes after the table (${bytes.length}, not ${expected})`,
    );
  }
  const read = new Reader(bytes, end);
  const x = read.f64(n);
  const z = read.f64(n);
  const y = read.f64(n);
  const hx = read.f64(n);
  const hz = read.f64(n);
  const tw = read.f64(n);
  const run = read.i32(n);
  const voteStart = read.i32(n + 1);
  const voteCount = read.i32(m);
  const voteRun = read.i32(m);
  const voteSource = read.u32(m);
  const side = read.u8(n);
  const voteKind = read.u8(m);

  const used = new Uint8Array(sources.length);
  checkVotes(n, sources.length, voteStart, voteKind, voteSource, voteCount, voteRun, used);
  for (let s = 0; s < sources.length; s++) {
    if (used[s] === 0) throw new TableCorrupt(`sources[${s}] ${sources[s]} has no vote entry`);
  }
  checkReals("x", x, isCoord, COORD_LIMIT, false);
  checkReals("z", z, isCoord, COORD_LIMIT, false);
  checkReals("y", y, isCoord, COORD_LIMIT, true);
  checkReals("hx", hx, isUnit, UNIT_LIMIT, false);
  checkReals("hz", hz, isUnit, UNIT_LIMIT, false);
  checkReals("tw", tw, isTrackWidth, TW_LIMIT, true);
  checkRuns("run", run);
  for (let i = 0; i < n; i++) {
    if (!isSideCode(side[i])) {
      throw new TableCorrupt(`side[${i}] is ${side[i]}; sides are 0 (L) and 1 (R)`);
    }
  }

  const kind = new Uint8Array(n);
  const totals = new Float64Array(KINDS.length);
  for (let i = 0; i < n; i++) {
    kind[i] = resolveKindAt(voteKind, voteCount, voteStart[i], voteStart[i + 1], totals);
  }
  const table: EdgeTable = {
    length: n,
    x,
    z,
    y,
    hx,
    hz,
    tw,
    run,
    side,
    kind,
    voteStart,
    voteKind,
    voteSource,
    voteCount,
    voteRun,
    sources,
  };
  try {
    // As written: a survey's save may leave a run still being driven uncounted.
    return validateMembersV4(header.raw, table, { reconcile: false });
  } catch (err) {
    if (err instanceof ImportRejected) throw new TableCorrupt(err.message, { cause: err });
    throw err;
  }
}
