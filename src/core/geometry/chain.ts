/**
 * Ordering one side's border cells into chains (REFERENCE.md 3.1): each
 * unvisited cell, taken in (x, z) order, seeds a walk forward along its own
 * heading and backward against it; every step goes to the unvisited cell
 * within 5 m that lies ahead and runs along the same line, preferring near
 * and straight-ahead cells.
 *
 * One addition to the reference: unvisited cells lying beside a step (within
 * 1.5 m of it, not ahead of where it lands) are absorbed into the walk
 * without becoming chain points. Repeated passes lay parallel traces a
 * fraction of a metre apart; without this they would become parallel
 * chains, counted twice in coverage and left unstitched.
 *
 * @module
 */
import { SpatialHash } from "./spatial_hash.ts";

/** What the walk needs of a cell: where it is and which way the car was going. */
export interface ChainCell {
  x: number;
  z: number;
  hx: number;
  hz: number;
}

/** How far one step may reach, metres. */
export const STEP_REACH_M = 5.0;
/** Least cosine between the walk direction and the step (the candidate lies ahead). */
export const MIN_FORWARDNESS = 0.35;
/** Least |cosine| between the walk direction and the candidate's heading (either way round). */
export const MIN_TANGENCY = 0.5;
/** Chains with fewer cells are noise and dropped. */
export const MIN_CHAIN_CELLS = 5;
/**
 * Cells this close beside a step (and not ahead of its end) are the same
 * border evidenced again on another pass, metres; the step absorbs them.
 */
export const ABSORB_LATERAL_M = 2.5;
/** How far behind the step's start absorbed cells may lie, metres. */
export const ABSORB_BEHIND_M = 1.0;

/** A heading shorter than this carries no direction (old documents default it to 0). */
const NO_HEADING = 1e-6;

/**
 * The chains of `cells`, as lists of indexes into `cells`, each in walking
 * order. Every cell lands in at most one chain; chains of fewer than 5 cells
 * are dropped. The result depends only on the cells' values and order.
 */
export function chainSide(cells: readonly ChainCell[]): number[][] {
  const n = cells.length;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => cells[a].x - cells[b].x || cells[a].z - cells[b].z || a - b);
  const grid = new SpatialHash(STEP_REACH_M);
  for (const i of order) grid.add(i, cells[i].x, cells[i].z);
  const visited = new Uint8Array(n);
  const chains: number[][] = [];
  for (const seed of order) {
    if (visited[seed]) continue;
    visited[seed] = 1;
    const c = cells[seed];
    const len = Math.hypot(c.hx, c.hz);
    const [dx, dz] = len > NO_HEADING ? [c.hx / len, c.hz / len] : [1, 0];
    const ahead = walk(cells, grid, visited, seed, dx, dz);
    const behind = walk(cells, grid, visited, seed, -dx, -dz);
    if (ahead.length + behind.length + 1 < MIN_CHAIN_CELLS) continue;
    behind.reverse();
    behind.push(seed);
    for (const i of ahead) behind.push(i);
    chains.push(behind);
  }
  return chains;
}

function walk(
  cells: readonly ChainCell[],
  grid: SpatialHash,
  visited: Uint8Array,
  start: number,
  dx: number,
  dz: number,
): number[] {
  const out: number[] = [];
  let cur = start;
  for (;;) {
    const from = cells[cur];
    let best = -1;
    let bestScore = Infinity;
    let bestUx = 0;
    let bestUz = 0;
    grid.near(from.x, from.z, (c) => {
      if (visited[c]) return;
      const cell = cells[c];
      const ex = cell.x - from.x;
      const ez = cell.z - from.z;
      const d = Math.hypot(ex, ez);
      if (d > STEP_REACH_M) return;
      // Two cells on one spot: step onto it without turning.
      const ux = d > 0 ? ex / d : dx;
      const uz = d > 0 ? ez / d : dz;
      const fwd = ux * dx + uz * dz;
      if (fwd < MIN_FORWARDNESS) return;
      const h = Math.hypot(cell.hx, cell.hz);
      // Evidence from either driving direction runs along the border; a cell without heading cannot object.
      if (h > NO_HEADING && Math.abs((cell.hx * dx + cell.hz * dz) / h) < MIN_TANGENCY) return;
      const score = d / Math.max(fwd, 0.05);
      if (score < bestScore) {
        bestScore = score;
        best = c;
        bestUx = ux;
        bestUz = uz;
      }
    });
    if (best < 0) return out;
    visited[best] = 1;
    out.push(best);
    absorb(cells, grid, visited, from, cells[best], bestUx, bestUz);
    const nx = 0.5 * dx + 0.5 * bestUx;
    const nz = 0.5 * dz + 0.5 * bestUz;
    const norm = Math.hypot(nx, nz);
    if (norm > 0) {
      dx = nx / norm;
      dz = nz / norm;
    }
    cur = best;
  }
}

/** Marks as visited the unvisited cells beside the step from `from` to `to` along (ux, uz). */
function absorb(
  cells: readonly ChainCell[],
  grid: SpatialHash,
  visited: Uint8Array,
  from: ChainCell,
  to: ChainCell,
  ux: number,
  uz: number,
): void {
  const reach = (to.x - from.x) * ux + (to.z - from.z) * uz;
  grid.near(from.x, from.z, (c) => {
    if (visited[c]) return;
    const ex = cells[c].x - from.x;
    const ez = cells[c].z - from.z;
    const along = ex * ux + ez * uz;
    if (along < -ABSORB_BEHIND_M || along > reach) return;
    if (Math.abs(ex * uz - ez * ux) <= ABSORB_LATERAL_M) visited[c] = 1;
  });
}
