/**
 * Large values in Deno KV: compressed, split into chunks under the 64 KiB
 * value limit, written in commits under the 800 KiB commit limit. A blob is
 * invisible until the caller flips a head record that names it, so a crash
 * mid-write leaves only unreferenced chunks, which {@linkcode deleteBlob}
 * sweeps.
 *
 * @module
 */
import { gunzipSync, gzipSync } from "node:zlib";

/** Bytes per chunk: under the 64 KiB value limit with room for the key. */
export const CHUNK_BYTES = 60_000;

/** Chunks per commit: 10 x 60 KB stays under the 800 KiB commit limit. */
const CHUNKS_PER_COMMIT = 10;

/** What a head record needs to find a blob again. */
export interface BlobRef {
  /** Number of chunks written. */
  chunks: number;
  /** Compressed size in bytes. */
  bytes: number;
}

/** Compresses `data` and writes it as chunks `[...prefix, 0..n-1]`. */
export async function writeBlob(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  data: Uint8Array,
): Promise<BlobRef> {
  const packed = gzipSync(data, { level: 6 });
  const chunks = Math.max(1, Math.ceil(packed.byteLength / CHUNK_BYTES));
  for (let first = 0; first < chunks; first += CHUNKS_PER_COMMIT) {
    const op = kv.atomic();
    for (let i = first; i < Math.min(chunks, first + CHUNKS_PER_COMMIT); i++) {
      op.set([...prefix, i], packed.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES));
    }
    await commitOrThrow(op);
  }
  return { chunks, bytes: packed.byteLength };
}

/**
 * Reads back a blob written by {@linkcode writeBlob}. Throws when a chunk is
 * missing, so a caller never decodes a truncated value.
 */
export async function readBlob(kv: Deno.Kv, prefix: Deno.KvKey, ref: BlobRef): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const entry of kv.list<Uint8Array>({ prefix }, { batchSize: 100 })) {
    const index = entry.key[entry.key.length - 1];
    if (typeof index !== "number" || index >= ref.chunks) continue;
    if (index !== parts.length) {
      throw new Error(`blob ${String(prefix)} is missing chunk ${parts.length}`);
    }
    parts.push(entry.value);
    size += entry.value.byteLength;
  }
  if (parts.length !== ref.chunks || size !== ref.bytes) {
    throw new Error(`blob ${String(prefix)} is incomplete: ${parts.length}/${ref.chunks} chunks`);
  }
  const packed = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    packed.set(part, at);
    at += part.byteLength;
  }
  return new Uint8Array(gunzipSync(packed));
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
