/**
 * Track bundles in Deno KV (DESIGN.md "Storage"). A bundle is one document,
 * stored compressed in chunks under a generation number,
 * `["bundle_chunk", slug, generation, i]`; the head `["bundle", slug]` names
 * the generation and carries the figures a list shows. A write lays every
 * chunk of a fresh generation first and then flips the head in one commit
 * checked against the head it started from, so a reader never sees a
 * half-written bundle and a crash leaves the previous generation in place.
 * While a generation is being written a marker `["bundle_pending", slug,
 * generation]` stands; the flip requires it and removes it, and sweeps
 * delete it before any chunk, which keeps sweeping safe beside writers.
 *
 * A generation is written as an edge table (`encoding: "edge-table-1"` in
 * the head, table_codec.ts): the bundle's columns as they lie in memory,
 * gzip level 1, with the SHA-256 of the compressed chunks in the head. A
 * read checks the chunks against it, and the decoder checks every rule
 * again (kinds are re-derived from the votes, never stored), so a damaged
 * store surfaces as {@linkcode BundleCorrupt}, never as bad data. Reading
 * a 50,000-edge generation costs a few milliseconds, where parsing its
 * 13 MB of JSON cost some 70. Generations written before the table
 * encoding (no `encoding` in the head) are gzip'd JSON; they are read and
 * validated in full as any imported document is (json_generation.ts), and
 * rewritten as tables once, when the store opens (bundle_migration.ts).
 *
 * @module
 */
import { Conflict } from "../core/errors.ts";
import { BundleCorrupt } from "./bundle_corrupt.ts";
import type { BundleTable } from "../core/bundle/edge_table.ts";
import { bundleStats } from "../core/bundle/stats.ts";
import {
  decodeBundleTable,
  encodeBundleTable,
  TABLE_ENCODING,
  TableCorrupt,
} from "../core/bundle/table_codec.ts";
import { docOf, inCellOrder, withEdges } from "../core/bundle/table_convert.ts";
import type { BundleV4, Official } from "../core/bundle/types.ts";
import {
  type BlobRef,
  type CheckedBlob,
  deleteBlob,
  readBlobChecked,
  withLockRetry,
  writeBlob,
} from "./blob.ts";
import { nextId } from "./ids.ts";
import { trackNameFault } from "../core/track_name.ts";
import { decodeJsonGeneration } from "./json_generation.ts";

/** What the head of a bundle records: where its document is, and what a list shows. */
export interface BundleHead {
  slug: string;
  /** meta.track of the stored document. */
  track: string;
  /** The generation whose chunks hold the document; increases with every write. */
  generation: number;
  /** The chunks of that generation, with the SHA-256 a read checks them against. */
  chunks: BlobRef;
  /**
   * How the generation is encoded: `edge-table-1` (table_codec.ts); absent
   * in heads written before it, whose generations are JSON.
   */
  encoding?: typeof TABLE_ENCODING;
  /** Uncompressed size of the stored document, bytes (JSON when `encoding` is absent). */
  json_bytes: number;
  /** Cells (edges). */
  edges: number;
  /** meta.runs. */
  runs: number;
  /** Installations with a run counter. */
  sources: number;
  updated_at: string;
  official: Official | null;
  /** Cells with a known elevation. */
  elevation_points: number;
  /** Cells whose kind is wall, runoff or edge. */
  manual_points: number;
  finish_crossings: number;
  corners: number;
  sections: number;
}

/** A stored bundle as read: its head and its document, checked as the module doc says. */
export interface StoredBundle {
  head: BundleHead;
  doc: BundleV4;
}

/** A stored bundle as read, its edges as a table: what merges and edits work on. */
export interface StoredTable {
  head: BundleHead;
  bundle: BundleTable;
}

/** What a change to a bundle returns: the bundle to store and anything for the caller. */
export interface BundleChange<R> {
  bundle: BundleTable;
  result: R;
}

/** The outcome of {@linkcode updateBundle}. */
export interface BundleUpdate<R> {
  /** The head now in place. */
  head: BundleHead;
  /** What the change returned on the attempt that was committed. */
  result: R;
  /** Attempts made: 1 without contention. */
  attempts: number;
}

/** Options of {@linkcode updateBundle}. */
export interface UpdateOptions {
  /** Most attempts before giving up with {@linkcode Conflict} (default 50). */
  maxAttempts?: number;
  /**
   * Told of a best-effort cleanup that failed (`what` says which). Nothing
   * is wrong with the stored bundle then: the start-up sweep removes what
   * was left. Storage writes nothing to the console, so the caller logs it.
   */
  onCleanupFailure?: (what: string, err: unknown) => void;
}

export { BundleCorrupt };

const HEAD = "bundle";
const CHUNK = "bundle_chunk";
const PENDING = "bundle_pending";
const GENERATION_COUNTER = "bundle_generation";
const DEFAULT_ATTEMPTS = 50;
/**
 * gzip level of bundle chunks: level 1 is the fastest, and a bundle is
 * rewritten on every import and save (docs/performance.md).
 */
const GZIP_LEVEL = 1;

/** Re-reads of a head whose chunks were swept by a concurrent write before giving up. */
const READ_ATTEMPTS = 10;

/**
 * The last change queued per store handle and slug. Changes in one process
 * take turns, so the optimistic check in {@linkcode updateBundle} only
 * races writers elsewhere (another process, a removal). Without turns,
 * every concurrent import of one circuit re-read, re-merged and rewrote the
 * bundle once per writer that committed before it, and a steady stream of
 * imports could run one of them out of attempts: a 409 for a valid import.
 */
const turns = new WeakMap<Deno.Kv, Map<string, Promise<void>>>();

/** Runs `fn` once every change of `slug` queued before it on `kv` has settled. */
function inTurn<T>(kv: Deno.Kv, slug: string, fn: () => Promise<T>): Promise<T> {
  let bySlug = turns.get(kv);
  if (!bySlug) turns.set(kv, bySlug = new Map());
  const queue = bySlug;
  const mine = (queue.get(slug) ?? Promise.resolve()).then(fn);
  const settled = mine.then(() => {}, () => {});
  queue.set(slug, settled);
  // The last in line leaves no entry behind, so the map holds only slugs being written.
  void settled.then(() => {
    if (queue.get(slug) === settled) queue.delete(slug);
  });
  return mine;
}

/** The head key of `slug`. */
export const bundleHeadKey = (slug: string): Deno.KvKey => [HEAD, slug];

/** The key prefix of one generation's chunks. */
export const bundleChunkPrefix = (slug: string, generation: number): Deno.KvKey => [
  CHUNK,
  slug,
  generation,
];

/**
 * The key marking a generation as being written. A head may be flipped to a
 * generation only while its marker is still in place, so a sweep that
 * deletes the marker first can never race a writer into naming deleted chunks.
 */
export const bundlePendingKey = (slug: string, generation: number): Deno.KvKey => [
  PENDING,
  slug,
  generation,
];

/** A stored record a reading left out, and why (for a listing to report). */
export interface UnreadableRecord {
  /** The record's name: a bundle's slug as its key holds it. */
  slug: string;
  /** What is wrong with it, in words. */
  reason: string;
}

/**
 * What is wrong with `value` as the head stored under `slug`, or null when
 * nothing is: its fields' types, its slug, and its track by the one
 * circuit-name rule, which a head stored by an older release may break
 * (a `?track=` override once went in unchecked).
 */
export function headFault(value: unknown, slug: unknown): string | null {
  if (typeof slug !== "string") return "its key is not a bundle slug";
  if (value === null || typeof value !== "object") return "its head is not an object";
  const h = value as Partial<Record<keyof BundleHead, unknown>>;
  if (h.slug !== slug) return "its head names another slug";
  if (typeof h.track !== "string") return "its head has no track name";
  const fault = trackNameFault(h.track);
  if (fault !== null) return `its track name ${fault}`;
  if (!Number.isSafeInteger(h.generation)) return "its head has no generation";
  if (h.chunks === null || typeof h.chunks !== "object") return "its head names no chunks";
  for (const field of ["edges", "runs", "sources", "json_bytes"] as const) {
    if (typeof h[field] !== "number") return `its head's ${field} is not a number`;
  }
  if (typeof h.updated_at !== "string") return "its head's updated_at is not a string";
  return null;
}

/**
 * The head of `slug`, or null when no bundle is stored under it.
 *
 * @throws {BundleCorrupt} when what is stored there is no head (see {@linkcode headFault}).
 */
export async function getBundleHead(kv: Deno.Kv, slug: string): Promise<BundleHead | null> {
  const entry = await kv.get<BundleHead>(bundleHeadKey(slug));
  if (entry.versionstamp === null) return null;
  const fault = headFault(entry.value, slug);
  if (fault !== null) throw new BundleCorrupt(slug, fault);
  return entry.value;
}

/**
 * Every readable head, in slug order, and every unreadable one (see
 * {@linkcode headFault}) with why. Reads no documents.
 */
export async function scanBundleHeads(
  kv: Deno.Kv,
): Promise<{ heads: BundleHead[]; unreadable: UnreadableRecord[] }> {
  const heads: BundleHead[] = [];
  const unreadable: UnreadableRecord[] = [];
  for await (const e of kv.list<BundleHead>({ prefix: [HEAD] })) {
    if (e.key.length !== 2) continue;
    const fault = headFault(e.value, e.key[1]);
    if (fault === null) heads.push(e.value);
    else unreadable.push({ slug: String(e.key[1]), reason: fault });
  }
  return { heads, unreadable };
}

/**
 * Every readable head, in slug order (see {@linkcode scanBundleHeads}, which
 * also says which it left out). Reads no documents.
 */
export async function listBundleHeads(kv: Deno.Kv): Promise<BundleHead[]> {
  return (await scanBundleHeads(kv)).heads;
}

/**
 * Reads the bundle the head `entry` names. Null when the chunks are gone
 * because a concurrent write flipped the head and swept them meanwhile.
 */
async function readGeneration(
  kv: Deno.Kv,
  entry: Deno.KvEntry<BundleHead>,
): Promise<BundleTable | null> {
  const head = entry.value;
  let blob: CheckedBlob;
  try {
    blob = await readBlobChecked(kv, bundleChunkPrefix(head.slug, head.generation), head.chunks);
  } catch (err) {
    const now = await kv.get<BundleHead>(bundleHeadKey(head.slug));
    if (now.versionstamp !== entry.versionstamp) return null;
    throw new BundleCorrupt(head.slug, (err as Error).message, { cause: err });
  }
  if (head.encoding === undefined) {
    return decodeJsonGeneration(head.slug, blob.data, blob.intact);
  }
  if (head.encoding !== TABLE_ENCODING) {
    throw new BundleCorrupt(head.slug, `unknown encoding ${JSON.stringify(head.encoding)}`);
  }
  if (!blob.intact) throw new BundleCorrupt(head.slug, "its chunks do not match their checksum");
  try {
    return decodeBundleTable(blob.data);
  } catch (err) {
    if (err instanceof TableCorrupt) {
      throw new BundleCorrupt(head.slug, err.message, { cause: err });
    }
    throw err;
  }
}

/** The head entry and bundle of `slug` as one consistent pair, or null when none is stored. */
async function readEntry(
  kv: Deno.Kv,
  slug: string,
): Promise<{ entry: Deno.KvEntryMaybe<BundleHead>; stored: StoredTable | null }> {
  for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
    const entry = await kv.get<BundleHead>(bundleHeadKey(slug));
    if (entry.versionstamp === null) return { entry, stored: null };
    const fault = headFault(entry.value, slug);
    if (fault !== null) throw new BundleCorrupt(slug, fault);
    const bundle = await readGeneration(kv, entry as Deno.KvEntry<BundleHead>);
    if (bundle !== null) return { entry, stored: { head: entry.value!, bundle } };
  }
  throw new Conflict(`bundle "${slug}" is changing too fast to be read; try again`);
}

/**
 * The bundle stored under `slug` with its edges as a table, or null. It is
 * always one whole generation: never a mix, never a half-written one.
 *
 * @throws {BundleCorrupt} when the stored bundle cannot be decoded or breaks a rule.
 */
export async function readBundleTable(kv: Deno.Kv, slug: string): Promise<StoredTable | null> {
  return (await readEntry(kv, slug)).stored;
}

/**
 * The bundle stored under `slug` as a document of edge objects, or null;
 * see {@linkcode readBundleTable}. The objects are fresh, the caller's own.
 *
 * @throws {BundleCorrupt} when the stored bundle cannot be decoded or breaks a rule.
 */
export async function readBundle(kv: Deno.Kv, slug: string): Promise<StoredBundle | null> {
  const stored = await readBundleTable(kv, slug);
  return stored && { head: stored.head, doc: docOf(stored.bundle) };
}

function headOf(
  slug: string,
  generation: number,
  chunks: BlobRef,
  json: number,
  doc: BundleTable,
): BundleHead {
  const stats = bundleStats(doc);
  return {
    slug,
    track: doc.meta.track,
    generation,
    chunks,
    encoding: TABLE_ENCODING,
    json_bytes: json,
    edges: stats.points,
    runs: doc.meta.runs,
    sources: stats.sources,
    updated_at: doc.meta.updated_at,
    official: doc.meta.official && { ...doc.meta.official },
    elevation_points: stats.elevation_points,
    manual_points: stats.manual_points,
    finish_crossings: stats.finish_crossings,
    corners: stats.corners,
    sections: stats.sections,
  };
}

/** Best-effort cleanup: a failure here leaves orphans for the start-up sweep, never bad data. */
async function quietly(
  opts: UpdateOptions,
  what: string,
  fn: () => Promise<unknown>,
): Promise<void> {
  try {
    await fn();
  } catch (err) {
    opts.onCleanupFailure?.(what, err);
  }
}

/**
 * Changes the bundle under `slug`: reads the current one (or null), calls
 * `change` with it, writes the returned bundle as a new generation, and
 * flips the head in one commit checked against the head that was read.
 * Changes made through one store handle take turns per slug, in call
 * order, so among themselves each lands on its first attempt. When a writer
 * elsewhere (another process) got there first, the new generation is
 * deleted and the whole step repeats on the newer bundle, so concurrent
 * changes serialise and the end state is that of running them one after
 * another (in the order their commits landed). Generations older than the
 * new one are swept after the flip, before the next change's turn.
 *
 * `change` may run more than once and must not have side effects; whatever
 * it throws propagates with nothing written.
 *
 * @throws {Conflict} after `maxAttempts` races lost to writers elsewhere.
 * @throws {BundleCorrupt} when the current bundle cannot be read back.
 */
export function updateBundle<R>(
  kv: Deno.Kv,
  slug: string,
  change: (current: StoredTable | null) => BundleChange<R> | Promise<BundleChange<R>>,
  opts: UpdateOptions = {},
): Promise<BundleUpdate<R>> {
  return inTurn(kv, slug, () => writeChange(kv, slug, change, opts));
}

/**
 * The head entry as read and what `change` made of its bundle. A helper of
 * its own so that the bundle read goes out of scope here: it is not held
 * through the encoding and writing that follow.
 */
async function changed<R>(
  kv: Deno.Kv,
  slug: string,
  change: (current: StoredTable | null) => BundleChange<R> | Promise<BundleChange<R>>,
): Promise<{ entry: Deno.KvEntryMaybe<BundleHead> } & BundleChange<R>> {
  const { entry, stored } = await readEntry(kv, slug);
  const { bundle, result } = await change(stored);
  return { entry, bundle, result };
}

async function writeChange<R>(
  kv: Deno.Kv,
  slug: string,
  change: (current: StoredTable | null) => BundleChange<R> | Promise<BundleChange<R>>,
  opts: UpdateOptions,
): Promise<BundleUpdate<R>> {
  const maxAttempts = opts.maxAttempts ?? DEFAULT_ATTEMPTS;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const { entry, bundle, result } = await changed(kv, slug, change);
    // Stored in cell order, so equal bundles are stored (and exported) alike.
    const written = withEdges(bundle, inCellOrder(bundle.edges));
    let jsonBytes = 0;
    // A fresh number per attempt: two writers never share a generation's keys.
    const generation = await nextId(kv, GENERATION_COUNTER);
    const pending = bundlePendingKey(slug, generation);
    let marker: Deno.KvCommitResult;
    let chunks: BlobRef;
    try {
      marker = await withLockRetry(() => kv.set(pending, new Date().toISOString()));
      // The columns go out as they lie in memory, never copied into one buffer.
      const pieces = function* () {
        for (const piece of encodeBundleTable(written)) {
          jsonBytes += piece.byteLength;
          yield piece;
        }
      };
      chunks = await writeBlob(kv, bundleChunkPrefix(slug, generation), pieces(), {
        level: GZIP_LEVEL,
        checksum: true,
      });
    } catch (err) {
      await quietly(
        opts,
        "removing a failed generation",
        () => dropGeneration(kv, slug, generation),
      );
      throw err;
    }
    const head = headOf(slug, generation, chunks, jsonBytes, written);
    const committed = await withLockRetry(() =>
      kv.atomic()
        .check(entry)
        .check({ key: pending, versionstamp: marker.versionstamp })
        .set(bundleHeadKey(slug), head)
        .delete(pending)
        .commit()
    );
    if (committed.ok) {
      await quietly(opts, "sweeping old generations", () => sweepGenerations(kv, slug, generation));
      return { head, result, attempts: attempt };
    }
    await quietly(
      opts,
      "removing a superseded generation",
      () => dropGeneration(kv, slug, generation),
    );
  }
  throw new Conflict(
    `bundle "${slug}" changed ${maxAttempts} times while this change was being written; try again`,
  );
}

/**
 * Deletes generation `generation` of `slug` (its marker and its chunks)
 * unless the head names it. The first commit checks the head as read and
 * removes the marker, so once it lands no writer can flip to this
 * generation any more; only then are the chunks deleted. Safe while other
 * writers run: one caught mid-write just has to try again. True when dropped.
 */
async function dropGeneration(kv: Deno.Kv, slug: string, generation: number): Promise<boolean> {
  for (let attempt = 0; attempt < DEFAULT_ATTEMPTS; attempt++) {
    const [head, marker] = await kv.getMany<[BundleHead, string]>([
      bundleHeadKey(slug),
      bundlePendingKey(slug, generation),
    ]);
    if (head.value?.generation === generation) return false;
    const op = kv.atomic().check(head).check(marker);
    if (marker.versionstamp !== null) op.delete(marker.key);
    if ((await withLockRetry(() => op.commit())).ok) {
      await deleteBlob(kv, bundleChunkPrefix(slug, generation));
      return true;
    }
  }
  throw new Conflict(`bundle "${slug}" is changing too fast to sweep generation ${generation}`);
}

/**
 * The generations that have chunks under `prefix` (`[CHUNK]` or
 * `[CHUNK, slug]`) as (slug, generation) pairs, in key order, reading one
 * chunk per generation.
 */
async function* generations(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
): AsyncGenerator<{ slug: string; generation: number }> {
  let start: Deno.KvKey | null = null;
  for (;;) {
    const selector: Deno.KvListSelector = start === null ? { prefix } : { prefix, start };
    let found: { slug: string; generation: number } | null = null;
    for await (const e of kv.list<Uint8Array>(selector, { limit: 1 })) {
      found = slugAndGeneration(e.key);
    }
    if (found === null) return;
    yield found;
    // Generations are integers, so generation + 1 is the first key past this one's chunks.
    start = [CHUNK, found.slug, found.generation + 1];
  }
}

function slugAndGeneration(key: Deno.KvKey): { slug: string; generation: number } {
  const slug = key[1];
  const generation = key[2];
  if (typeof slug !== "string" || typeof generation !== "number") {
    throw new Error(`unexpected bundle key ${JSON.stringify(key.map(String))}`);
  }
  return { slug, generation };
}

/** Drops every generation of `slug` older than `current` that still has chunks. */
async function sweepGenerations(kv: Deno.Kv, slug: string, current: number): Promise<void> {
  const old: number[] = [];
  for await (const g of generations(kv, [CHUNK, slug])) {
    if (g.generation >= current) break;
    old.push(g.generation);
  }
  for (const generation of old) await dropGeneration(kv, slug, generation);
}

/**
 * Deletes every generation no head names, chunks and markers: what a crash
 * between writing a generation and flipping the head (or before sweeping
 * the previous one) leaves behind. Returns how many generations were
 * dropped. Meant for start-up; safe even while another process writes
 * bundles to the same store (a write caught in progress is retried by its
 * writer, never left pointing at deleted chunks).
 */
export async function sweepOrphanBundleChunks(kv: Deno.Kv): Promise<number> {
  const candidates = new Map<string, { slug: string; generation: number }>();
  const add = (g: { slug: string; generation: number }) =>
    candidates.set(`${g.generation}/${g.slug}`, g);
  for await (const g of generations(kv, [CHUNK])) add(g);
  for await (const e of kv.list<string>({ prefix: [PENDING] })) add(slugAndGeneration(e.key));
  let dropped = 0;
  for (const g of candidates.values()) {
    if (await dropGeneration(kv, g.slug, g.generation)) dropped++;
  }
  return dropped;
}
