/**
 * Where a compiled track sits on a drawing: the world rectangle a map shows
 * and how world metres become drawing units. World x runs right and world z
 * runs down, which keeps the driver's left on the left of the drawn
 * direction of travel (the car's left is (fz, -fx)).
 *
 * @module
 */
import type { CompiledTrack } from "./types.ts";

/** Extra polylines a map draws besides the document, as [x, z] world metres. */
export type ExtraLines = readonly (readonly (readonly [number, number])[])[];

/** The world rectangle of a map and its scale. */
export interface MapFrame {
  /** World x at the left edge, metres. */
  minX: number;
  /** World z at the top edge, metres. */
  minZ: number;
  /** World width shown, metres. */
  spanX: number;
  /** World depth shown, metres. */
  spanZ: number;
}

/** Every drawn point of a compiled track, as [x, z] pairs. */
function* drawnPoints(doc: CompiledTrack, extra: ExtraLines): Generator<[number, number]> {
  for (const line of extra) for (const p of line) yield [p[0], p[1]];
  for (const side of [doc.borders.L, doc.borders.R]) {
    for (const line of side) for (const v of line) yield [v[0], v[1]];
  }
  for (const q of doc.road) for (let k = 0; k < 8; k += 2) yield [q[k], q[k + 1]];
  for (const g of [...doc.gaps.L, ...doc.gaps.R]) {
    yield [g[0], g[1]];
    yield [g[2], g[3]];
  }
  if (doc.finish) {
    yield [doc.finish[0], doc.finish[1]];
    yield [doc.finish[2], doc.finish[3]];
  }
  for (const c of doc.corners) yield [c.x, c.z];
}

/**
 * The rectangle holding everything drawn, grown by `margin` (a share of the
 * larger span, default 5 %, at least 10 m) on every side, and widened to the
 * `aspect` (width / height) asked for when one is given. The `extra` lines
 * (a driven line) are held too. A track with nothing drawn gets a 100 m
 * square around the origin.
 */
export function mapFrame(
  doc: CompiledTrack,
  aspect?: number,
  margin = 0.05,
  extra: ExtraLines = [],
): MapFrame {
  let minX = Infinity;
  let minZ = Infinity;
  let maxX = -Infinity;
  let maxZ = -Infinity;
  for (const [x, z] of drawnPoints(doc, extra)) {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  if (minX === Infinity) return { minX: -50, minZ: -50, spanX: 100, spanZ: 100 };
  const pad = Math.max(10, margin * Math.max(maxX - minX, maxZ - minZ));
  let spanX = maxX - minX + 2 * pad;
  let spanZ = maxZ - minZ + 2 * pad;
  let x0 = minX - pad;
  let z0 = minZ - pad;
  if (aspect !== undefined && aspect > 0) {
    if (spanX / spanZ < aspect) {
      const grown = spanZ * aspect;
      x0 -= (grown - spanX) / 2;
      spanX = grown;
    } else {
      const grown = spanX / aspect;
      z0 -= (grown - spanZ) / 2;
      spanZ = grown;
    }
  }
  return { minX: x0, minZ: z0, spanX, spanZ };
}
