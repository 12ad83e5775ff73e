/**
 * Track signatures in Deno KV, under `["signature", id]` (ids from the
 * `signature` counter, so listing by key is creation order).
 *
 * @module
 */
import type { SignatureShape } from "../core/identify/signature.ts";
import { withLockRetry } from "./blob.ts";
import { nextId } from "./ids.ts";

/** A stored signature: the five numbers, the circuit's name, and where it came from. */
export interface TrackSignature extends SignatureShape {
  /** Signature identifier, unique in the store. */
  id: number;
  /** The circuit name a match gives a session. */
  name: string;
  /** ISO 8601 UTC time the signature was made. */
  created_at: string;
  /** Who made it: a driver naming a lap. */
  provenance: "user";
  /** The lap it was computed from (it may since have been deleted). */
  lap_id: number;
  /** The session of that lap. */
  session_id: number;
  /**
   * The lap's driving line, thinned (flat x, z pairs; see
   * core/identify/signature_path.ts): it carries the direction the lap was
   * driven. Absent on signatures stored before it was kept.
   */
  path?: number[];
}

/** What a new signature needs. */
export type NewSignature = Omit<TrackSignature, "id">;

/** Key of a signature record. */
export const signatureKey = (id: number): Deno.KvKey => ["signature", id];

/** Stores a new signature and returns it with its id. */
export async function createSignature(kv: Deno.Kv, init: NewSignature): Promise<TrackSignature> {
  const id = await nextId(kv, "signature");
  const signature: TrackSignature = { id, ...init };
  await withLockRetry(() => kv.set(signatureKey(id), signature));
  return signature;
}

/** The signature with `id`, or null. */
export async function getSignature(kv: Deno.Kv, id: number): Promise<TrackSignature | null> {
  return (await kv.get<TrackSignature>(signatureKey(id))).value;
}

/** Every signature, oldest first (the order matching consults them in). */
export async function listSignatures(kv: Deno.Kv): Promise<TrackSignature[]> {
  const out: TrackSignature[] = [];
  for await (const e of kv.list<TrackSignature>({ prefix: ["signature"] })) out.push(e.value);
  return out;
}

/** True when at least one signature is stored. */
export async function hasSignatures(kv: Deno.Kv): Promise<boolean> {
  for await (const _ of kv.list({ prefix: ["signature"] }, { limit: 1 })) return true;
  return false;
}

/**
 * Deletes signature `id`. True when it existed; touches nothing else (no
 * session or lap data).
 */
export async function deleteSignature(kv: Deno.Kv, id: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const current = await kv.get(signatureKey(id));
    if (current.versionstamp === null) return false;
    const res = await withLockRetry(() =>
      kv.atomic().check(current).delete(signatureKey(id)).commit()
    );
    if (res.ok) return true;
  }
  throw new Error(`signature ${id} is too contended to delete`);
}
