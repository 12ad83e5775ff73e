/**
 * Reading request bodies with a size limit enforced while streaming, so an
 * oversized or endless (chunked) upload is refused without being buffered.
 *
 * @module
 */
import { BadRequest, TooLarge } from "../core/errors.ts";
import { jsonBody } from "../core/json_body.ts";

/** Largest accepted body for document imports: 64 MiB. */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

/** The announced size when it is a usable hint (a whole number within the limit), else null. */
function declaredSize(declared: string | null, limit: number): number | null {
  if (declared === null || !/^\d+$/.test(declared)) return null;
  const size = Number(declared);
  return size <= limit ? size : null;
}

/**
 * Every byte of `body`, refusing once more than `limit` arrive. Each chunk
 * is copied into one growing buffer as it arrives and let go, so a big
 * upload is held about once rather than as chunks plus their joined copy;
 * an announced size sizes the buffer up front (a wrong one only costs a
 * regrowth, the bytes are what arrived).
 */
async function readLimited(
  body: ReadableStream<Uint8Array>,
  limit: number,
  hint: number | null,
): Promise<Uint8Array> {
  // The announced size is the client's word: reserve at most 1 MiB on it before bytes arrive.
  let buffer = new Uint8Array(Math.min(hint ?? 64 * 1024, 1 << 20));
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      await reader.cancel();
      throw new TooLarge(`body is over the ${limit}-byte limit`);
    }
    if (size + value.byteLength > buffer.byteLength) {
      const grown = new Uint8Array(
        Math.min(limit, Math.max(size + value.byteLength, buffer.byteLength * 2)),
      );
      grown.set(buffer.subarray(0, size));
      buffer = grown;
    }
    buffer.set(value, size);
    size += value.byteLength;
  }
  return buffer.subarray(0, size);
}

/**
 * Every byte of `req`'s body, refusing with {@linkcode TooLarge} as soon as
 * more than `limit` bytes are announced or received, and with
 * {@linkcode BadRequest} for an empty body.
 */
export async function readBody(req: Request, limit: number): Promise<Uint8Array> {
  const declared = req.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
    throw new TooLarge(`body of ${declared} bytes is over the ${limit}-byte limit`);
  }
  if (!req.body) throw new BadRequest("request body is empty");
  const bytes = await readLimited(req.body, limit, declaredSize(declared, limit));
  if (bytes.byteLength === 0) throw new BadRequest("request body is empty");
  return bytes;
}

/**
 * Reads `req`'s body as JSON: {@linkcode readBody}, then
 * {@linkcode jsonBody}'s refusals for text that is not UTF-8 or not JSON.
 */
export async function readJsonBody(req: Request, limit: number): Promise<unknown> {
  return jsonBody(await readBody(req, limit));
}
