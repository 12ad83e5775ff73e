/**
 * The live view's small track map: the circuit's compiled geometry when its
 * bundle is a complete map (a border closes into a loop: see
 * {@linkcode isCompleteMap}), else the driven line of the best lap; drawn
 * once per source and size, with the car's marker laid over it per sample
 * (a few multiplications).
 *
 * @module
 */
import type { CompiledTrack } from "../core/geometry/types.ts";
import { renderLineMap } from "./braille_line_map.ts";
import { type BaseMap, baseMap, carCell, withCar } from "./survey_map.ts";

/**
 * True when `doc` draws the whole circuit: at least one of its borders
 * closes into a loop, so it goes round the lap and the car is always beside
 * it. An open border is a stretch of unknown share of the lap (a left-wall
 * mark of a few hundred cells is a few hundred metres), drawn alone it is a
 * scrap with the car off it; the best lap's driven line is the better map
 * until the survey closes a side.
 */
export function isCompleteMap(doc: Pick<CompiledTrack, "coverage">): boolean {
  return doc.coverage.L.closed || doc.coverage.R.closed;
}

/** What the map is drawn from. */
export type MapSource =
  | { kind: "geometry"; key: string; doc: CompiledTrack }
  | { kind: "line"; key: string; xs: ArrayLike<number>; zs: ArrayLike<number> };

/** A drawn map with the car on it. */
export interface LiveMapView {
  /** `geometry` (the bundle's borders) or `line` (the best lap's path). */
  kind: MapSource["kind"];
  lines: string[];
}

/** Draws the map of one source at a size, remembering the last drawing. */
export class LiveMap {
  #source: MapSource | null = null;
  #drawn: { key: string; cols: number; rows: number; map: BaseMap } | null = null;

  /** The source drawn from now on (null: no map). */
  set source(source: MapSource | null) {
    this.#source = source;
  }

  /** The source drawn now, or null. */
  get source(): MapSource | null {
    return this.#source;
  }

  /**
   * The map in `cols` x `rows` cells with the car at world (`x`, `z`), or
   * null without a source (or a size too small to draw).
   */
  view(cols: number, rows: number, car: { x: number; z: number } | null): LiveMapView | null {
    const source = this.#source;
    if (!source || cols < 4 || rows < 2) return null;
    const d = this.#drawn;
    let map: BaseMap;
    if (d && d.key === source.key && d.cols === cols && d.rows === rows) {
      map = d.map;
    } else {
      map = source.kind === "geometry"
        ? baseMap(source.doc, cols, rows)
        : renderLineMap(source.xs, source.zs, cols, rows);
      this.#drawn = { key: source.key, cols, rows, map };
    }
    const cell = car ? carCell(map, car.x, car.z) : null;
    return { kind: source.kind, lines: withCar(map, cell) };
  }
}
