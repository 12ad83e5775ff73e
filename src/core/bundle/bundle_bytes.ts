/**
 * A v4 bundle read straight from the bytes of its JSON into a validated
 * {@linkcode BundleTable}, without an object per edge. `JSON.parse` of a
 * 50,000-edge bundle makes some half a million objects, and collecting them
 * costs more than parsing; this reader walks the edges once, byte by byte,
 * into the table's columns, and hands only the small members (meta,
 * crossings, corners, sections) to `JSON.parse` and the schema.
 *
 * It is a fast path only: it accepts a subset of what the slow path
 * (decode, `JSON.parse`, {@linkcode validateBundleTable}) accepts, with the
 * same result, and declines with null on everything else: every document
 * the slow path refuses, and the shapes it does not model (escaped or
 * non-ASCII keys, duplicate keys, a byte order mark, very deep nesting).
 * The caller then runs the slow path, which reports failures precisely.
 * The JSON grammar itself (numbers, strings, skipped values) is
 * {@linkcode JsonScanner}'s; this module knows only the bundle's shape.
 *
 * @module
 */
import { ImportRejected } from "../errors.ts";
import { type BundleTable, EdgeTableBuilder } from "./edge_table.ts";
import {
  isCoord,
  isRunCounter,
  isTrackWidth,
  isUnit,
  isVote,
  prototypeClean,
} from "./edge_rules.ts";
import { MAX_EDGES } from "./limits.ts";
import { KINDS, V4_MEMBERS } from "./types.ts";
import { validateMembersV4 } from "./validate.ts";
import { Decline, JsonScanner, MAX_LITERAL_BYTES } from "../json_scan.ts";

// Byte values. Local, not imported from json_scan.ts: the JIT folds a
// module's own constants into the hot loops but loads imported ones from
// their binding each time (measured: some 8 to 10% slower on a 50,000-edge bundle; re-measured
// 2026-11-27 with the nine shared ones imported: 53 ms against 32 ms, min of 30 interleaved reads).
const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const ZERO = 0x30;
const NINE = 0x39;

const UPPER_L = 0x4c;
const UPPER_R = 0x52;
const LOWER_A = 0x61;
const LOWER_D = 0x64;
const LOWER_E = 0x65;
const LOWER_F = 0x66;
const LOWER_H = 0x68;
const LOWER_I = 0x69;
const LOWER_K = 0x6b;
const LOWER_N = 0x6e;
const LOWER_O = 0x6f;
const LOWER_R = 0x72;
const LOWER_S = 0x73;
const LOWER_T = 0x74;
const LOWER_U = 0x75;
const LOWER_V = 0x76;
const LOWER_W = 0x77;
const LOWER_X = 0x78;
const LOWER_Y = 0x79;
const LOWER_Z = 0x7a;

// The keys of an edge, as bits of the mask of keys seen.
const KEY_UNKNOWN = 0;
const KEY_X = 1;
const KEY_Z = 2;
const KEY_Y = 4;
const KEY_HX = 8;
const KEY_HZ = 16;
const KEY_SIDE = 32;
const KEY_KIND = 64;
const KEY_VOTES = 128;
const KEY_RUN = 256;
const KEY_TW = 512;
const KEY_REQUIRED = KEY_X | KEY_Z | KEY_SIDE | KEY_VOTES;

/** The members of a v4 document other than `edges`, which `validateMembersV4` reads. */
const MEMBERS: ReadonlySet<string> = new Set(V4_MEMBERS);

/** Each kind's name as bytes, indexed as {@linkcode KINDS}. */
const KIND_BYTES: readonly Uint8Array[] = KINDS.map((k) => new TextEncoder().encode(k));

/**
 * The reader: a {@linkcode JsonScanner} over the bytes, plus the vote
 * entries of the edge being read (an edge's votes may come before its
 * coordinates, and a cell must be added first) and the source ids seen.
 */
class Reader extends JsonScanner {
  /** Vote entries of the current edge. */
  voteKind = new Uint8Array(64);
  voteSource = new Uint32Array(64);
  voteCount = new Float64Array(64);
  voteRun = new Float64Array(64);
  votes = 0;
  /** Per source index: where its id's bytes first appeared, and their length. */
  sourceAt = new Int32Array(16);
  sourceLength = new Uint8Array(16);
  /** Per source index: the token of the last source map it appeared in (duplicate check). */
  sourceSeen = new Int32Array(16);
  mapToken = 0;
  /** Source index by the low byte of its hash, -1 when none: most lookups end here. */
  readonly recent = new Int32Array(256).fill(-1);
  readonly byHash = new Map<number, number>();
  readonly byId = new Map<string, number>();
  readonly out: EdgeTableBuilder;

  constructor(bytes: Uint8Array) {
    super(bytes);
    // A survey's bundle takes some 220 to 260 bytes an edge; guessing low would mean a regrowth.
    const guess = Math.min(MAX_EDGES, Math.ceil(bytes.length / 192) + 16);
    this.out = new EdgeTableBuilder(guess, guess * 6);
  }

  /** The index in {@linkcode KINDS} of the plain key from `from` to `to`, or -1. */
  kindOf(from: number, to: number): number {
    const b = this.bytes;
    const length = to - from;
    for (let k = 0; k < KIND_BYTES.length; k++) {
      const name = KIND_BYTES[k];
      if (name.length !== length || name[0] !== b[from]) continue;
      let same = true;
      for (let i = 1; i < length; i++) {
        if (name[i] !== b[from + i]) {
          same = false;
          break;
        }
      }
      if (same) return k;
    }
    return -1;
  }

  /** Which edge key the plain key from `from` to `to` is. */
  edgeKey(from: number, to: number): number {
    const b = this.bytes;
    const c = b[from];
    switch (to - from) {
      case 1:
        return c === LOWER_X ? KEY_X : c === LOWER_Z ? KEY_Z : c === LOWER_Y ? KEY_Y : KEY_UNKNOWN;
      case 2: {
        const d = b[from + 1];
        if (c === LOWER_H) return d === LOWER_X ? KEY_HX : d === LOWER_Z ? KEY_HZ : KEY_UNKNOWN;
        return c === LOWER_T && d === LOWER_W ? KEY_TW : KEY_UNKNOWN;
      }
      case 3:
        return c === LOWER_R && b[from + 1] === LOWER_U && b[from + 2] === LOWER_N
          ? KEY_RUN
          : KEY_UNKNOWN;
      case 4:
        if (
          c === LOWER_S && b[from + 1] === LOWER_I && b[from + 2] === LOWER_D &&
          b[from + 3] === LOWER_E
        ) return KEY_SIDE;
        if (
          c === LOWER_K && b[from + 1] === LOWER_I && b[from + 2] === LOWER_N &&
          b[from + 3] === LOWER_D
        ) return KEY_KIND;
        return KEY_UNKNOWN;
      case 5:
        return c === LOWER_V && b[from + 1] === LOWER_O && b[from + 2] === LOWER_T &&
            b[from + 3] === LOWER_E && b[from + 4] === LOWER_S
          ? KEY_VOTES
          : KEY_UNKNOWN;
      default:
        return KEY_UNKNOWN;
    }
  }

  /** Reads the edge list (cursor on `[`) into the builder. */
  edges(): void {
    this.pos++;
    if (this.ws() === CLOSE_BRACKET) {
      this.pos++;
      return;
    }
    let count = 0;
    for (;;) {
      if (++count > MAX_EDGES) throw Decline.it;
      if (this.ws() !== OPEN_BRACE) throw Decline.it;
      this.edge();
      const c = this.ws();
      this.pos++;
      if (c === CLOSE_BRACKET) return;
      if (c !== COMMA) throw Decline.it;
    }
  }

  /** Reads one edge (cursor on `{`) with the rules of edge_rules.ts, and adds it. */
  edge(): void {
    const b = this.bytes;
    this.pos++;
    this.votes = 0;
    let seen = 0;
    let x = 0;
    let z = 0;
    let y = NaN;
    let hx = 0;
    let hz = 0;
    let side = 0;
    let run = 0;
    let tw = NaN;
    if (this.ws() === CLOSE_BRACE) throw Decline.it;
    for (;;) {
      if (this.ws() !== QUOTE) throw Decline.it;
      const from = this.pos + 1;
      const to = this.plainKey();
      const key = this.edgeKey(from, to);
      this.expect(COLON);
      this.ws();
      if (key === KEY_UNKNOWN) {
        // The schema drops unknown keys; their values need only be valid JSON.
        this.skipValue();
      } else {
        if ((seen & key) !== 0) throw Decline.it;
        seen |= key;
        switch (key) {
          case KEY_X:
            x = this.numberValue();
            if (!isCoord(x)) throw Decline.it;
            break;
          case KEY_Z:
            z = this.numberValue();
            if (!isCoord(z)) throw Decline.it;
            break;
          case KEY_Y:
            if (!this.isNull()) {
              y = this.numberValue();
              if (!isCoord(y)) throw Decline.it;
            }
            break;
          case KEY_HX:
            hx = this.numberValue();
            if (!isUnit(hx)) throw Decline.it;
            break;
          case KEY_HZ:
            hz = this.numberValue();
            if (!isUnit(hz)) throw Decline.it;
            break;
          case KEY_TW:
            if (!this.isNull()) {
              tw = this.numberValue();
              if (!isTrackWidth(tw)) throw Decline.it;
            }
            break;
          case KEY_RUN:
            run = this.numberValue();
            if (!isRunCounter(run)) throw Decline.it;
            break;
          case KEY_SIDE: {
            const p = this.pos;
            const s = b[p + 1];
            if (b[p] !== QUOTE || (s !== UPPER_L && s !== UPPER_R) || b[p + 2] !== QUOTE) {
              throw Decline.it;
            }
            side = s === UPPER_R ? 1 : 0;
            this.pos = p + 3;
            break;
          }
          case KEY_KIND: {
            if (b[this.pos] !== QUOTE) throw Decline.it;
            const start = this.pos + 1;
            if (this.kindOf(start, this.plainKey()) < 0) throw Decline.it;
            break;
          }
          default:
            if (b[this.pos] !== OPEN_BRACE) throw Decline.it;
            this.voteMap();
        }
      }
      const c = this.ws();
      this.pos++;
      if (c === CLOSE_BRACE) break;
      if (c !== COMMA) throw Decline.it;
    }
    if ((seen & KEY_REQUIRED) !== KEY_REQUIRED) throw Decline.it;
    const out = this.out;
    out.addCell(x, z, y, hx, hz, side, run, tw);
    for (let v = 0; v < this.votes; v++) {
      out.addVote(this.voteKind[v], this.voteSource[v], this.voteCount[v], this.voteRun[v]);
    }
  }

  /** Reads an edge's `votes` (cursor on `{`): kind -> source map, at least one kind. */
  voteMap(): void {
    this.pos++;
    if (this.ws() === CLOSE_BRACE) throw Decline.it;
    let kinds = 0;
    for (;;) {
      if (this.ws() !== QUOTE) throw Decline.it;
      const from = this.pos + 1;
      const kind = this.kindOf(from, this.plainKey());
      if (kind < 0 || (kinds & (1 << kind)) !== 0) throw Decline.it;
      kinds |= 1 << kind;
      this.expect(COLON);
      if (this.ws() !== OPEN_BRACE) throw Decline.it;
      this.sourceMap(kind);
      const c = this.ws();
      this.pos++;
      if (c === CLOSE_BRACE) return;
      if (c !== COMMA) throw Decline.it;
    }
  }

  /** Reads one kind's source -> [count, last_run] map (cursor on `{`), at least one source. */
  sourceMap(kind: number): void {
    this.pos++;
    if (this.ws() === CLOSE_BRACE) throw Decline.it;
    const token = ++this.mapToken;
    for (;;) {
      if (this.ws() !== QUOTE) throw Decline.it;
      const source = this.sourceKey();
      if (this.sourceSeen[source] === token) throw Decline.it;
      this.sourceSeen[source] = token;
      this.expect(COLON);
      this.expect(OPEN_BRACKET);
      this.ws();
      const count = this.numberValue();
      this.expect(COMMA);
      this.ws();
      const lastRun = this.numberValue();
      this.expect(CLOSE_BRACKET);
      if (!isVote(count, lastRun)) throw Decline.it;
      this.pushVote(kind, source, count, lastRun);
      const c = this.ws();
      this.pos++;
      if (c === CLOSE_BRACE) return;
      if (c !== COMMA) throw Decline.it;
    }
  }

  /** Buffers a vote entry of the edge being read. */
  pushVote(kind: number, source: number, count: number, lastRun: number): void {
    const v = this.votes;
    if (v === this.voteKind.length) {
      const kinds = new Uint8Array(v * 2);
      const sources = new Uint32Array(v * 2);
      const counts = new Float64Array(v * 2);
      const runs = new Float64Array(v * 2);
      kinds.set(this.voteKind);
      sources.set(this.voteSource);
      counts.set(this.voteCount);
      runs.set(this.voteRun);
      this.voteKind = kinds;
      this.voteSource = sources;
      this.voteCount = counts;
      this.voteRun = runs;
    }
    this.voteKind[v] = kind;
    this.voteSource[v] = source;
    this.voteCount[v] = count;
    this.voteRun[v] = lastRun;
    this.votes = v + 1;
  }

  /**
   * Reads a source id key (cursor on its opening quote), which must match
   * SOURCE_ID_PATTERN (6 to 32 of 0-9a-f), and returns the builder's index
   * of it. An id seen before is found by a hash of its bytes, checked
   * against the bytes where it first appeared, so no string is made.
   */
  sourceKey(): number {
    const b = this.bytes;
    const from = this.pos + 1;
    let p = from;
    let hash = 0;
    let c = b[p];
    while (c !== QUOTE) {
      if (!((c >= ZERO && c <= NINE) || (c >= LOWER_A && c <= LOWER_F))) throw Decline.it;
      hash = (Math.imul(hash, 31) + c) | 0;
      c = b[++p];
    }
    const length = p - from;
    if (length < 6 || length > 32) throw Decline.it;
    this.pos = p + 1;
    const cached = this.recent[hash & 255];
    if (cached >= 0 && this.sameSource(cached, from, length)) return cached;
    const known = this.byHash.get(hash);
    if (known !== undefined && this.sameSource(known, from, length)) {
      this.recent[hash & 255] = known;
      return known;
    }
    let id = "";
    for (let i = from; i < p; i++) id += String.fromCharCode(b[i]);
    let index = this.byId.get(id);
    if (index === undefined) {
      index = this.out.source(id);
      this.byId.set(id, index);
      if (known === undefined) this.byHash.set(hash, index);
      this.remember(index, from, length);
    }
    this.recent[hash & 255] = index;
    return index;
  }

  /** True when source `index` was first read from the same bytes as `length` bytes at `from`. */
  sameSource(index: number, from: number, length: number): boolean {
    if (this.sourceLength[index] !== length) return false;
    const b = this.bytes;
    const at = this.sourceAt[index];
    for (let i = 0; i < length; i++) if (b[at + i] !== b[from + i]) return false;
    return true;
  }

  /** Notes where source `index`'s id first appeared, growing the per-source columns. */
  remember(index: number, from: number, length: number): void {
    if (index >= this.sourceAt.length) {
      const size = this.sourceAt.length * 2;
      const at = new Int32Array(size);
      const lengths = new Uint8Array(size);
      const seen = new Int32Array(size);
      at.set(this.sourceAt);
      lengths.set(this.sourceLength);
      seen.set(this.sourceSeen);
      this.sourceAt = at;
      this.sourceLength = lengths;
      this.sourceSeen = seen;
    }
    this.sourceAt[index] = from;
    this.sourceLength[index] = length;
  }

  /** Reads the whole document; the bundle, or Decline thrown. */
  document(): BundleTable {
    const b = this.bytes;
    if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) throw Decline.it;
    if (this.ws() !== OPEN_BRACE) throw Decline.it;
    this.pos++;
    const keys = new Set<string>();
    const rest: Record<string, unknown> = {};
    let edgesSeen = false;
    if (this.ws() !== CLOSE_BRACE) {
      for (;;) {
        if (this.ws() !== QUOTE) throw Decline.it;
        const from = this.pos + 1;
        const to = this.plainKey();
        // No member has a long name; a long one is left to JSON.parse (see json_scan.ts).
        if (to - from > MAX_LITERAL_BYTES) throw Decline.it;
        let key = "";
        for (let i = from; i < to; i++) key += String.fromCharCode(b[i]);
        // JSON.parse keeps the last of duplicate keys; not worth modelling.
        if (keys.has(key)) throw Decline.it;
        keys.add(key);
        this.expect(COLON);
        const c = this.ws();
        if (key === "edges") {
          if (c !== OPEN_BRACKET) throw Decline.it;
          this.edges();
          edgesSeen = true;
        } else {
          const start = this.pos;
          this.skipValue();
          if (MEMBERS.has(key)) rest[key] = parseSlice(b.subarray(start, this.pos));
        }
        const d = this.ws();
        this.pos++;
        if (d === CLOSE_BRACE) break;
        if (d !== COMMA) throw Decline.it;
      }
    } else {
      this.pos++;
    }
    this.expectEnd();
    if (!edgesSeen || rest.version !== 4) throw Decline.it;
    const table = this.out.finish();
    try {
      return validateMembersV4(rest, table);
    } catch (err) {
      if (err instanceof ImportRejected) throw Decline.it;
      throw err;
    }
  }
}

/** A member's value, already checked by the skip scanner, as `JSON.parse` makes it. */
function parseSlice(slice: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(slice));
  } catch {
    throw Decline.it;
  }
}

/**
 * The bundle the UTF-8 JSON text `bytes` holds, read without an object per
 * edge, or null when this reader declines it.
 *
 * Whenever it returns a table, that table is exactly what
 * `validateBundleTable(JSON.parse(new TextDecoder("utf-8", { fatal: true })
 * .decode(bytes)))` returns: same members, same columns. It returns null
 * whenever that would throw (bad UTF-8, bad JSON, a broken rule, a version
 * other than 4), and also for shapes it does not model, which the slow
 * path then judges: a byte order mark, a key with an escape or a non-ASCII
 * character, a duplicate key, an edge value spelled other than plainly
 * (an escaped side or kind), nesting deeper than 1,024 in a skipped value,
 * or an enumerable key on Object.prototype. It throws only on a bug.
 */
export function readBundleBytes(bytes: Uint8Array): BundleTable | null {
  if (!prototypeClean()) return null;
  try {
    return new Reader(bytes).document();
  } catch (err) {
    if (err === Decline.it) return null;
    throw err;
  }
}
