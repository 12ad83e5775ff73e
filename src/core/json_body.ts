/**
 * The JSON document in a request body's bytes, with the errors a client is
 * shown. One place, so that every route refuses a bad body in the same words.
 *
 * @module
 */
import { BadRequest } from "./errors.ts";

/**
 * The value of the UTF-8 JSON text in `bytes` (a byte-order mark is skipped,
 * as a decoder does).
 *
 * @throws {BadRequest} "body is not valid UTF-8", or "body is not valid JSON: ..."
 */
export function jsonBody(bytes: Uint8Array): unknown {
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
