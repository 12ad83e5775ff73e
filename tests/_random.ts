/**
 * The seeded generator of the test helpers (mulberry32 on the seed as given),
 * so generated bundles and kill plans are reproducible. Unlike the synthetic
 * drive's `createRng`, it does not mix the seed first: the tests' expected
 * figures were taken from this exact sequence.
 *
 * @module
 */

/** Numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
