/**
 * The survey view's track map: the braille drawing of a compiled track, with
 * the survey's driven line beneath its borders (so a partial survey still
 * shows the circuit it went round), drawn once per compile and size, with
 * the car's marker laid over it.
 * Placing the marker is a few multiplications, so following the car costs
 * next to nothing per frame; the borders are redrawn only when the compiled
 * geometry or the map's size changes.
 *
 * @module
 */
import { CAR_MARKER, renderBrailleMap } from "./braille_map.ts";
import type { ExtraLines } from "../core/geometry/map_frame.ts";
import type { CompiledTrack } from "../core/geometry/types.ts";

/** A cell of the map, by column and row from the top left. */
export interface MapCell {
  col: number;
  row: number;
}

/** A drawn map without the car, and how world metres land on its cells. */
export interface BaseMap {
  cols: number;
  rows: number;
  lines: readonly string[];
  /** The world point at the map's top-left dot, and dots per metre. */
  minX: number;
  minZ: number;
  scale: number;
}

/**
 * Draws `doc` into `cols` x `rows` cells without a car, with the `driven`
 * line (world metres) as a lighter layer where the borders leave room.
 */
export function baseMap(
  doc: CompiledTrack,
  cols: number,
  rows: number,
  driven: ExtraLines = [],
): BaseMap {
  const c = Math.max(1, Math.floor(cols));
  const r = Math.max(1, Math.floor(rows));
  const { lines, frame } = renderBrailleMap(doc, { cols: c, rows: r, driven });
  return {
    cols: c,
    rows: r,
    lines,
    minX: frame.minX,
    minZ: frame.minZ,
    scale: 2 * c / frame.spanX,
  };
}

/** The cell the car at world (`x`, `z`) falls in, or null when it is off the map. */
export function carCell(map: BaseMap, x: number, z: number): MapCell | null {
  if (!Number.isFinite(x) || !Number.isFinite(z)) return null;
  const col = Math.floor((x - map.minX) * map.scale / 2);
  const row = Math.floor((z - map.minZ) * map.scale / 4);
  return col >= 0 && row >= 0 && col < map.cols && row < map.rows ? { col, row } : null;
}

/** The map's lines with {@linkcode CAR_MARKER} at `car` (unchanged without one). */
export function withCar(map: BaseMap, car: MapCell | null): string[] {
  if (car === null) return [...map.lines];
  return map.lines.map((line, row) => {
    if (row !== car.row) return line;
    const chars = [...line];
    chars[car.col] = CAR_MARKER;
    return chars.join("");
  });
}
