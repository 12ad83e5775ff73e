/**
 * Hub tokens: random secrets (node:crypto), stored only as salted scrypt
 * hashes and compared in constant time. A token is found by its public id,
 * the first 16 hex digits of its SHA-256, so checking a request costs one
 * indexed lookup and one scrypt, never a scrypt per driver.
 *
 * @module
 */
import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/** What a new token is stored as. */
export interface TokenRecord {
  token_id: string;
  token_salt: Uint8Array;
  token_hash: Uint8Array;
}

/**
 * scrypt's cost: a token holds 256 random bits, so no guessing is helped by
 * a slow hash; a low cost keeps every request's check near a millisecond.
 */
const SCRYPT = { N: 1 << 10, r: 8, p: 1 } as const;

/** Bytes of a stored hash and of a salt. */
const HASH_BYTES = 32;

/** Shortest token an admin may give: 16 characters, no fewer bits than a password worth the name. */
export const MIN_TOKEN_CHARS = 16;

/** A new random token: `hub_` and 43 base64url characters (256 bits). */
export function newToken(): string {
  return `hub_${randomBytes(32).toString("base64url")}`;
}

/** The public id of `token`: the first 16 hex digits of its SHA-256. */
export function tokenId(token: string): string {
  return createHash("sha256").update(token).digest("hex").slice(0, 16);
}

function hashOf(token: string, salt: Uint8Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) =>
    scrypt(token, salt, HASH_BYTES, SCRYPT, (err, key) => err ? reject(err) : resolve(key))
  );
}

/** What `token` is stored as: its id, a fresh random salt and its scrypt hash. */
export async function tokenRecord(token: string): Promise<TokenRecord> {
  const salt = randomBytes(16);
  return { token_id: tokenId(token), token_salt: salt, token_hash: await hashOf(token, salt) };
}

/** Whether `token` is the one `record` was made from (constant time in the hash). */
export async function tokenMatches(
  token: string,
  record: Pick<TokenRecord, "token_salt" | "token_hash">,
): Promise<boolean> {
  const given = await hashOf(token, record.token_salt);
  return given.byteLength === record.token_hash.byteLength &&
    timingSafeEqual(given, record.token_hash);
}
