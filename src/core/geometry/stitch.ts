/**
 * Joining chains that continue one another across a short stretch without
 * evidence (REFERENCE.md 3.2). The farther apart the two ends, the straighter
 * the continuation must be.
 *
 * @module
 */
import { SpatialHash } from "./spatial_hash.ts";

/** A point of a chain on the ground plane. */
export interface Planar {
  x: number;
  z: number;
}

/** Longest stretch two chains may be joined across, metres. */
export const MAX_STITCH_M = 40;
/** Cells an end direction is averaged over. */
export const END_DIRECTION_CELLS = 6;

/**
 * The least continuation cosine for a join across `gap` metres: 0.75 beyond
 * 25 m, 0.60 beyond 8 m, 0.20 up to 8 m.
 */
export function minContinuation(gap: number): number {
  if (gap > 25) return 0.75;
  if (gap > 8) return 0.6;
  return 0.2;
}

/**
 * The unit direction out of the end of `chain` (from the point up to 6
 * before the last, to the last); [0, 0] for a single point.
 */
export function endDirection(chain: readonly Planar[]): [number, number] {
  const n = chain.length;
  const k = Math.min(END_DIRECTION_CELLS, n - 1);
  if (k <= 0) return [0, 0];
  const dx = chain[n - 1].x - chain[n - 1 - k].x;
  const dz = chain[n - 1].z - chain[n - 1 - k].z;
  const len = Math.hypot(dx, dz);
  return len > 0 ? [dx / len, dz / len] : [0, 0];
}

/** The unit direction out of the start of `chain` (pointing away from the chain). */
export function startDirection(chain: readonly Planar[]): [number, number] {
  const n = chain.length;
  const k = Math.min(END_DIRECTION_CELLS, n - 1);
  if (k <= 0) return [0, 0];
  const dx = chain[0].x - chain[k].x;
  const dz = chain[0].z - chain[k].z;
  const len = Math.hypot(dx, dz);
  return len > 0 ? [dx / len, dz / len] : [0, 0];
}

/**
 * True when `next` (read backwards when `reversed`) may follow the end of
 * `chain`: its first point lies within 40 m, their directions continue each
 * other at least as straight as the gap demands, and (beyond 0.5 m) it
 * starts ahead of the end, not behind it.
 */
export function continues(
  chain: readonly Planar[],
  next: readonly Planar[],
  reversed = false,
): boolean {
  const a = chain[chain.length - 1];
  const b = reversed ? next[next.length - 1] : next[0];
  const gx = b.x - a.x;
  const gz = b.z - a.z;
  const gap = Math.hypot(gx, gz);
  if (gap > MAX_STITCH_M) return false;
  const [ax, az] = endDirection(chain);
  // Read backwards, a chain's start direction is its forward end direction.
  const [bx, bz] = reversed ? endDirection(next) : startDirection(next);
  if (-(ax * bx + az * bz) < minContinuation(gap)) return false;
  return gap <= 0.5 || gx * ax + gz * az >= 0;
}

/**
 * The chains after every possible join: repeatedly, taking chains longest
 * first (by point count), the nearest chain that continues a chain's end,
 * either way round, is appended to it. Deterministic for a given input order.
 */
export function stitch<T extends Planar>(input: readonly (readonly T[])[]): T[][] {
  const chains = input.map((c) => [...c]);
  for (let changed = true; changed;) {
    changed = false;
    // Array sort is stable, so equal lengths keep their previous order.
    chains.sort((a, b) => b.length - a.length);
    // Both ends of every chain, filed by position: id 2j is chain j's start, 2j + 1 its end.
    const ends = new SpatialHash(MAX_STITCH_M);
    chains.forEach((c, j) => {
      ends.add(2 * j, c[0].x, c[0].z);
      ends.add(2 * j + 1, c[c.length - 1].x, c[c.length - 1].z);
    });
    for (let i = 0; i < chains.length && !changed; i++) {
      const head = chains[i];
      const end = head[head.length - 1];
      let best = -1;
      let bestReversed = false;
      let bestGap = Infinity;
      ends.near(end.x, end.z, (id) => {
        const j = id >> 1;
        if (j === i) return;
        const other = chains[j];
        const reversed = (id & 1) === 1;
        const first = reversed ? other[other.length - 1] : other[0];
        const gap = Math.hypot(first.x - end.x, first.z - end.z);
        if (gap > MAX_STITCH_M) return;
        if (gap > bestGap || (gap === bestGap && id > 2 * best + (bestReversed ? 1 : 0))) return;
        if (!continues(head, other, reversed)) return;
        best = j;
        bestReversed = reversed;
        bestGap = gap;
      });
      if (best < 0) continue;
      const tail = bestReversed ? [...chains[best]].reverse() : chains[best];
      for (const p of tail) head.push(p);
      chains.splice(best, 1);
      changed = true;
    }
  }
  return chains;
}
