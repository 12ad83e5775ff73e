/**
 * The cache of compiled geometry in Deno KV, keyed by (slug, bundle
 * generation). Derived data: safe to delete at any time, never exported.
 * A document is stored compressed in chunks under a write number of its
 * own, `["compiled_chunk", slug, write, i]`, and becomes visible when the
 * head `["compiled", slug]` is flipped to name it, so a reader never sees a
 * half-written document. The head also carries the coverage figures, so a
 * bundle list reads no document.
 *
 * @module
 */
import type { CompiledTrack, Coverage } from "../core/geometry/types.ts";
import { parseCompiled } from "../core/geometry/schema.ts";
import {
  type BlobRef,
  deleteBlob,
  jsonBytes,
  parseJsonBytes,
  readBlob,
  withLockRetry,
  writeBlob,
} from "./blob.ts";
import { nextId } from "./ids.ts";

/** What the head of a cached document records. */
export interface CompiledHead {
  slug: string;
  /** The bundle generation the document was compiled from. */
  generation: number;
  /** The write whose chunks hold the document. */
  write: number;
  chunks: BlobRef;
  coverage: Coverage;
  compiled_at: string;
}

const HEAD = "compiled";
const CHUNK = "compiled_chunk";

const headKey = (slug: string): Deno.KvKey => [HEAD, slug];
const chunkPrefix = (slug: string, write: number): Deno.KvKey => [CHUNK, slug, write];

/** The head of the cached document of `slug`, or null. */
export async function getCompiledHead(kv: Deno.Kv, slug: string): Promise<CompiledHead | null> {
  return (await kv.get<CompiledHead>(headKey(slug))).value;
}

/**
 * The cached document of `slug` compiled from `generation`, or null when the
 * cache holds none for that generation or what it holds cannot be read back
 * (a cache miss, never an error).
 */
export async function readCompiled(
  kv: Deno.Kv,
  slug: string,
  generation: number,
): Promise<CompiledTrack | null> {
  const head = await getCompiledHead(kv, slug);
  if (head === null || head.generation !== generation) return null;
  try {
    const bytes = await readBlob(kv, chunkPrefix(slug, head.write), head.chunks);
    return parseCompiled(parseJsonBytes(bytes));
  } catch {
    return null;
  }
}

/**
 * Stores `doc`, compiled from bundle generation `generation`, unless the
 * cache already holds a newer generation. The previous document's chunks
 * are deleted after the flip. True when stored.
 */
export async function writeCompiled(
  kv: Deno.Kv,
  slug: string,
  generation: number,
  doc: CompiledTrack,
): Promise<boolean> {
  const write = await nextId(kv, "compiled_write");
  const chunks = await writeBlob(kv, chunkPrefix(slug, write), jsonBytes(doc));
  const head: CompiledHead = {
    slug,
    generation,
    write,
    chunks,
    coverage: doc.coverage,
    compiled_at: doc.compiled_at,
  };
  for (let attempt = 0; attempt < 20; attempt++) {
    const current = await kv.get<CompiledHead>(headKey(slug));
    if (current.value !== null && current.value.generation > generation) break;
    const ok = await withLockRetry(() =>
      kv.atomic().check(current).set(headKey(slug), head).commit()
    );
    if (ok.ok) {
      if (current.value !== null) await deleteBlob(kv, chunkPrefix(slug, current.value.write));
      return true;
    }
  }
  await deleteBlob(kv, chunkPrefix(slug, write));
  return false;
}

/** Deletes the cached document of `slug` and every chunk filed under it. Idempotent. */
export async function deleteCompiled(kv: Deno.Kv, slug: string): Promise<void> {
  await withLockRetry(() => kv.delete(headKey(slug)));
  await deleteBlob(kv, [CHUNK, slug]);
}
