/**
 * A small seeded pseudo-random generator, so that every synthetic circuit and
 * drive is a pure function of an integer seed (Math.random is never used).
 *
 * @module
 */

/** A deterministic stream of pseudo-random numbers. */
export interface Rng {
  /** The next number in [0, 1). */
  next(): number;
  /** The next number in [min, max). */
  range(min: number, max: number): number;
  /** The next integer in [0, n) for a positive integer n. */
  int(n: number): number;
}

/**
 * Mixes a seed with a salt into a new 32-bit seed. Equal inputs give equal
 * outputs; nearby salts give unrelated seeds, so one seed can derive many
 * independent streams (one per retry, per lap, per purpose).
 */
export function deriveSeed(seed: number, salt: number): number {
  let h = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(salt | 0, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Creates a generator (mulberry32) from an integer seed. The same seed always
 * yields the same sequence; only the low 32 bits of the seed matter.
 */
export function createRng(seed: number): Rng {
  let state = deriveSeed(seed, 0x5eed);
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    range: (min, max) => min + (max - min) * next(),
    int: (n) => Math.floor(next() * n),
  };
}
