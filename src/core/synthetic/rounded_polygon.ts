/**
 * A closed polygon with every corner replaced by a circular arc: straights
 * joined by constant-radius bends, the skeleton of a road circuit.
 *
 * @module
 */
import type { Polyline } from "./polyline.ts";

/**
 * Rounds each vertex k of the closed polygon (`px`, `pz`) with an arc of
 * radius `radii[k]` tangent to both adjacent edges, and samples the result at
 * most `step` metres apart. Returns null when two arcs would overlap on an
 * edge (the radii do not fit the polygon).
 */
export function roundCorners(
  px: readonly number[],
  pz: readonly number[],
  radii: readonly number[],
  step: number,
): Polyline | null {
  const n = px.length;
  const ax: number[] = [];
  const az: number[] = [];
  const bx: number[] = [];
  const bz: number[] = [];
  const cx: number[] = [];
  const cz: number[] = [];
  const sweep: number[] = [];
  const tangent: number[] = [];
  for (let k = 0; k < n; k++) {
    const p = (k - 1 + n) % n;
    const q = (k + 1) % n;
    let ix = px[k] - px[p];
    let iz = pz[k] - pz[p];
    let ox = px[q] - px[k];
    let oz = pz[q] - pz[k];
    const li = Math.hypot(ix, iz);
    const lo = Math.hypot(ox, oz);
    if (li === 0 || lo === 0) return null;
    ix /= li;
    iz /= li;
    ox /= lo;
    oz /= lo;
    const angle = Math.abs(Math.atan2(ix * oz - iz * ox, ix * ox + iz * oz));
    const t = radii[k] * Math.tan(angle / 2);
    tangent.push(t);
    ax.push(px[k] - ix * t);
    az.push(pz[k] - iz * t);
    bx.push(px[k] + ox * t);
    bz.push(pz[k] + oz * t);
    // The arc centre lies on the inside of the corner, one radius from A across the travel direction.
    const ux = ox - ix;
    const uz = oz - iz;
    const ul = Math.hypot(ux, uz);
    if (ul < 1e-9) {
      cx.push(ax[k]);
      cz.push(az[k]);
    } else {
      const dot = ux / ul * -iz + uz / ul * ix;
      const sx = dot >= 0 ? -iz : iz;
      const sz = dot >= 0 ? ix : -ix;
      cx.push(ax[k] + sx * radii[k]);
      cz.push(az[k] + sz * radii[k]);
    }
    sweep.push(angle);
  }
  for (let k = 0; k < n; k++) {
    const q = (k + 1) % n;
    const edge = Math.hypot(px[q] - px[k], pz[q] - pz[k]);
    if (tangent[k] + tangent[q] > edge) return null;
  }
  const x: number[] = [];
  const z: number[] = [];
  for (let k = 0; k < n; k++) {
    const r = radii[k];
    if (sweep[k] > 1e-9) {
      const e1x = (ax[k] - cx[k]) / r;
      const e1z = (az[k] - cz[k]) / r;
      const p = (k - 1 + n) % n;
      const il = Math.hypot(px[k] - px[p], pz[k] - pz[p]);
      const e2x = (px[k] - px[p]) / il;
      const e2z = (pz[k] - pz[p]) / il;
      const parts = Math.max(1, Math.ceil(r * sweep[k] / step));
      for (let j = 0; j < parts; j++) {
        const phi = sweep[k] * j / parts;
        x.push(cx[k] + r * (Math.cos(phi) * e1x + Math.sin(phi) * e2x));
        z.push(cz[k] + r * (Math.cos(phi) * e1z + Math.sin(phi) * e2z));
      }
    }
    const q = (k + 1) % n;
    const sx = bx[k];
    const sz = bz[k];
    const len = Math.hypot(ax[q] - sx, az[q] - sz);
    const parts = Math.max(1, Math.ceil(len / step));
    for (let j = 0; j < parts; j++) {
      x.push(sx + (ax[q] - sx) * j / parts);
      z.push(sz + (az[q] - sz) * j / parts);
    }
  }
  return { x: Float64Array.from(x), z: Float64Array.from(z) };
}
