/**
 * Deterministic bad datagrams for the UDP abuse tests.
 *
 * @module
 */
import { createRng } from "../src/core/synthetic/random.ts";

const VALID_SIZES = new Set([296, 316, 344, 368]);

/**
 * `count` datagrams from `seed`, in thirds by index: random bytes of a valid
 * packet size (i % 3 = 0, failing the magic check), shorter than any packet
 * (i % 3 = 1), and longer sizes that match no format (i % 3 = 2).
 */
export function garbageDatagrams(seed: number, count: number): Uint8Array[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, (_, i) => {
    let size: number;
    if (i % 3 === 0) size = [296, 316, 344, 368][i % 4];
    else if (i % 3 === 1) size = 1 + Math.floor(rng.next() * 295);
    else {
      do size = 369 + Math.floor(rng.next() * 1000); while (VALID_SIZES.has(size));
    }
    const bytes = new Uint8Array(size);
    for (let b = 0; b < size; b++) bytes[b] = Math.floor(rng.next() * 256);
    return bytes;
  });
}
