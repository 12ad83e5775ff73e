/**
 * Byte helpers the tests share.
 *
 * @module
 */

/** `parts` joined into one new buffer, in order. */
export function concatBytes(parts: Iterable<Uint8Array>): Uint8Array {
  const list = [...parts];
  const out = new Uint8Array(list.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of list) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
