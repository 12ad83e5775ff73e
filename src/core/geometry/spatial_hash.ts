/**
 * A uniform grid over the ground plane that lists the items near a point.
 * Items of one grid cell keep their insertion order, so lookups are
 * deterministic.
 *
 * @module
 */

const OFFSET = 2 ** 21;
const SPAN = 2 ** 22;

/** A grid of `size`-metre cells holding integer item ids. */
export class SpatialHash {
  readonly #size: number;
  readonly #cells = new Map<number, number[]>();

  /** Creates an empty grid of `size`-metre cells. */
  constructor(size: number) {
    this.#size = size;
  }

  #key(ix: number, iz: number): number {
    return (ix + OFFSET) * SPAN + iz + OFFSET;
  }

  /** Files `id` under the cell containing (x, z). */
  add(id: number, x: number, z: number): void {
    const key = this.#key(Math.floor(x / this.#size), Math.floor(z / this.#size));
    const list = this.#cells.get(key);
    if (list === undefined) this.#cells.set(key, [id]);
    else list.push(id);
  }

  /**
   * Calls `visit` for every id filed in the 3 x 3 block of cells around
   * (x, z): every item within `size` metres of the point is among them.
   */
  near(x: number, z: number, visit: (id: number) => void): void {
    const cx = Math.floor(x / this.#size);
    const cz = Math.floor(z / this.#size);
    for (let ix = cx - 1; ix <= cx + 1; ix++) {
      for (let iz = cz - 1; iz <= cz + 1; iz++) {
        const list = this.#cells.get(this.#key(ix, iz));
        if (list === undefined) continue;
        for (let k = 0; k < list.length; k++) visit(list[k]);
      }
    }
  }

  /**
   * Calls `visit` for every id filed in the cells at Chebyshev distance
   * exactly `r` from the cell containing (x, z) (r = 0: that cell alone).
   * Every item filed at a point within r * size metres of (x, z) lies in
   * rings 0..r.
   */
  ring(x: number, z: number, r: number, visit: (id: number) => void): void {
    const cx = Math.floor(x / this.#size);
    const cz = Math.floor(z / this.#size);
    for (let ix = cx - r; ix <= cx + r; ix++) {
      const edge = ix === cx - r || ix === cx + r;
      for (let iz = cz - r; iz <= cz + r; iz += edge || r === 0 ? 1 : 2 * r) {
        const list = this.#cells.get(this.#key(ix, iz));
        if (list === undefined) continue;
        for (let k = 0; k < list.length; k++) visit(list[k]);
      }
    }
  }
}
