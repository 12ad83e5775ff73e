/**
 * Large values in Deno KV: compressed, split into chunks under the 64 KiB
 * value limit, written in commits under the 800 KiB commit limit. A blob is
 * invisible until the caller flips a head record that names it, so a crash
 * mid-write leaves only unreferenced chunks, which {@linkcode deleteBlob}
 * sweeps. A writer may ask for a checksum of the chunks, so that a reader
 * can tell they are exactly what was written.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";

/** Bytes per chunk: under the 64 KiB value limit with room for the key. */
export const CHUNK_BYTES = 60_000;

/** Chunks per commit: 10 x 60 KB stays under the 800 KiB commit limit. */
const CHUNKS_PER_COMMIT = 10;

/** gzip level of {@linkcode writeBlob} unless told otherwise. */
export const DEFAULT_GZIP_LEVEL = 6;

/** What a head record needs to find a blob again. */
export interface BlobRef {
  /** Number of chunks written. */
  chunks: number;
  /** Compressed size in bytes. */
  bytes: number;
  /**
   * SHA-256 (hex) of the compressed bytes, when the writer asked for one:
   * a reader can tell the chunks are exactly what was written.
   */
  sha256?: string;
}

/** Options of {@linkcode writeBlob}. */
export interface WriteBlobOptions {
  /** gzip level, 1 (fastest) to 9 (smallest); default {@linkcode DEFAULT_GZIP_LEVEL}. */
  level?: number;
  /** Record the SHA-256 of the compressed bytes in the returned ref. */
  checksum?: boolean;
}

/**
 * Compresses `data` and writes it as chunks `[...prefix, 0..n-1]`. Given
 * pieces rather than one buffer, it compresses each piece as a gzip member
 * of its own as it comes (members back to back are one gzip stream, which
 * {@linkcode readBlob} reads back as the pieces joined), so neither the
 * whole input nor the whole output is held at once. One buffer is one
 * member, byte for byte what a single gzip gives.
 */
export async function writeBlob(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  data: Uint8Array | Iterable<Uint8Array>,
  opts: WriteBlobOptions = {},
): Promise<BlobRef> {
  const level = opts.level ?? DEFAULT_GZIP_LEVEL;
  const hash = opts.checksum === true ? createHash("sha256") : null;
  const pieces = data instanceof Uint8Array ? [data] : data;
  let bytes = 0;
  let chunks = 0;
  let chunk = new Uint8Array(CHUNK_BYTES);
  let filled = 0;
  let op = kv.atomic();
  let batched = 0;
  /** Files the chunk being filled (or an empty first one); commits every 10, and at the end. */
  const flush = async (last: boolean) => {
    if (filled > 0 || (last && chunks === 0)) {
      op.set([...prefix, chunks++], filled === CHUNK_BYTES ? chunk : chunk.slice(0, filled));
      batched++;
      chunk = new Uint8Array(CHUNK_BYTES);
      filled = 0;
    }
    if (batched === CHUNKS_PER_COMMIT || (last && batched > 0)) {
      await commitOrThrow(op);
      op = kv.atomic();
      batched = 0;
    }
  };
  for (const piece of pieces) {
    const packed = gzipSync(piece, { level });
    hash?.update(packed);
    bytes += packed.byteLength;
    for (let at = 0; at < packed.byteLength;) {
      const n = Math.min(CHUNK_BYTES - filled, packed.byteLength - at);
      chunk.set(packed.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (filled === CHUNK_BYTES) await flush(false);
    }
  }
  await flush(true);
  const ref: BlobRef = { chunks, bytes };
  if (hash !== null) ref.sha256 = hash.digest("hex");
  return ref;
}

/** A blob as read back, and whether it is provably what was written. */
export interface CheckedBlob {
  data: Uint8Array;
  /**
   * True only when the ref carries a checksum and the compressed bytes
   * match it; false when it carries none or they differ.
   */
  intact: boolean;
}

/**
 * Reads back a blob written by {@linkcode writeBlob}, checking the chunks
 * against the ref's checksum when it has one. A mismatch is reported, not
 * thrown, so the caller can fall back to checking the content itself; a
 * missing chunk or undecodable data still throws. The data is a view that
 * need not start at offset 0 of its buffer.
 */
export async function readBlobChecked(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  ref: BlobRef,
): Promise<CheckedBlob> {
  const packed = await readPacked(kv, prefix, ref);
  const intact = ref.sha256 !== undefined &&
    createHash("sha256").update(packed).digest("hex") === ref.sha256;
  return { data: plain(gunzipSync(packed)), intact };
}

/**
 * Reads back a blob written by {@linkcode writeBlob}. Throws when a chunk is
 * missing, so a caller never decodes a truncated value.
 */
export async function readBlob(kv: Deno.Kv, prefix: Deno.KvKey, ref: BlobRef): Promise<Uint8Array> {
  // A fresh buffer of exactly the data, as callers may view its whole ArrayBuffer.
  return new Uint8Array(gunzipSync(await readPacked(kv, prefix, ref)));
}

/** Calls `fn` with each chunk of a blob in order; throws unless every chunk is present. */
async function eachChunk(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  ref: BlobRef,
  fn: (part: Uint8Array) => void,
): Promise<void> {
  let count = 0;
  let size = 0;
  for await (const entry of kv.list<Uint8Array>({ prefix }, { batchSize: 100 })) {
    const index = entry.key[entry.key.length - 1];
    if (typeof index !== "number" || index >= ref.chunks) continue;
    if (index !== count) {
      throw new Error(`blob ${String(prefix)} is missing chunk ${count}`);
    }
    fn(entry.value);
    count++;
    size += entry.value.byteLength;
  }
  if (count !== ref.chunks || size !== ref.bytes) {
    throw new Error(`blob ${String(prefix)} is incomplete: ${count}/${ref.chunks} chunks`);
  }
}

/** The compressed bytes of a blob, every chunk present. */
async function readPacked(kv: Deno.Kv, prefix: Deno.KvKey, ref: BlobRef): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  await eachChunk(kv, prefix, ref, (part) => parts.push(part));
  const packed = new Uint8Array(ref.bytes);
  let at = 0;
  for (const part of parts) {
    packed.set(part, at);
    at += part.byteLength;
  }
  return packed;
}

/**
 * A plain Uint8Array view of a Node Buffer's bytes, without copying them
 * (13 MB for a big bundle); it may not start at offset 0 of its ArrayBuffer.
 */
function plain(buffer: Uint8Array): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** Deletes every chunk under `prefix`. Idempotent. */
export async function deleteBlob(kv: Deno.Kv, prefix: Deno.KvKey): Promise<void> {
  let op = kv.atomic();
  let pending = 0;
  for await (const entry of kv.list({ prefix }, { batchSize: 100 })) {
    op.delete(entry.key);
    if (++pending === 500) {
      await commitOrThrow(op);
      op = kv.atomic();
      pending = 0;
    }
  }
  if (pending > 0) await commitOrThrow(op);
}

/** Encodes a JSON value as UTF-8 bytes for {@linkcode writeBlob}. */
export function jsonBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value));
}

/** Decodes bytes written by {@linkcode jsonBytes}. */
export function parseJsonBytes<T>(bytes: Uint8Array): T {
  return JSON.parse(new TextDecoder().decode(bytes)) as T;
}

/**
 * Commits `op`, retrying while the database is locked by a concurrent writer.
 * Throws when the commit's checks fail, since an unchecked batch never should.
 */
export async function commitOrThrow(op: Deno.AtomicOperation): Promise<void> {
  const result = await withLockRetry(() => op.commit());
  if (!result.ok) throw new Error("KV commit failed its checks");
}

/**
 * Runs `fn`, retrying with backoff while SQLite reports "database is locked".
 * Any other error, or the last failure, propagates.
 */
export async function withLockRetry<T>(fn: () => Promise<T>, attempts = 20): Promise<T> {
  for (let attempt = 1;; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const locked = err instanceof Error && /database is locked|busy/i.test(err.message);
      if (!locked || attempt >= attempts) throw err;
      await new Promise((r) => setTimeout(r, Math.min(200, 5 * 2 ** attempt)));
    }
  }
}
