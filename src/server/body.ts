/**
 * Reading request bodies with a size limit enforced while streaming, so an
 * oversized or endless (chunked) upload is refused without being buffered.
 *
 * @module
 */
import { BadRequest, TooLarge } from "../core/errors.ts";

/** Largest accepted body for document imports: 64 MiB. */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

/**
 * Reads `req`'s body as JSON, refusing with {@linkcode TooLarge} as soon as
 * more than `limit` bytes are announced or received, and with
 * {@linkcode BadRequest} for an empty body or invalid JSON.
 */
export async function readJsonBody(req: Request, limit: number): Promise<unknown> {
  const declared = req.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
    throw new TooLarge(`body of ${declared} bytes is over the ${limit}-byte limit`);
  }
  if (!req.body) throw new BadRequest("request body is empty");
  const parts: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new TooLarge(`body is over the ${limit}-byte limit`);
    }
    parts.push(value);
  }
  if (size === 0) throw new BadRequest("request body is empty");
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.byteLength;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new BadRequest("body is not valid UTF-8");
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new BadRequest(`body is not valid JSON: ${(err as Error).message}`);
  }
}
