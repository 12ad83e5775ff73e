/**
 * Test helpers: bundles whose border cells are laid along known curves, so a
 * compile can be checked against the truth. Cells go every metre along each
 * border and are deduplicated with the bundle's own 1 m cell rounding (the
 * first point laid in a cell keeps it), as a survey lays them.
 *
 * @module
 */
import { cellKey } from "../../../src/core/bundle/cell.ts";
import type { BundleV4, Edge, FinishCrossing, Side } from "../../../src/core/bundle/types.ts";
import type { Circuit } from "../../../src/core/synthetic/circuit.ts";

/** The source id every generated vote is attributed to. */
export const SOURCE = "abc123def456";

/** A point of a closed centre line: position, elevation, unit tangent, road width. */
export interface CentrePoint {
  x: number;
  z: number;
  y: number;
  tx: number;
  tz: number;
  width: number;
}

/** A stretch of border to leave out, in metres along that border from its first point. */
export interface Hole {
  side: Side;
  from: number;
  to: number;
}

/** Options of {@linkcode borderCells}. */
export interface LayOptions {
  /** Stretches left unsurveyed. */
  holes?: Hole[];
  /** When given, only these stretches (metres along each border) are laid. */
  keep?: { from: number; to: number }[];
  /** Kind voted on every cell (default straddle). */
  kind?: Edge["kind"];
  /** Elevation of the cells; default the centre line's y. */
  y?: (side: Side, p: CentrePoint) => number | null;
}

/**
 * Cells every metre along both borders of the closed centre line `centre`
 * (dense samples in driving order). The left border lies at leftOf(t) =
 * (tz, -tx) times half the width, the right border opposite; every cell's
 * heading is the direction of travel.
 */
export function borderCells(centre: readonly CentrePoint[], opts: LayOptions = {}): Edge[] {
  const edges: Edge[] = [];
  const seen = new Set<number>();
  for (const side of ["L", "R"] as const) {
    const sign = side === "L" ? 1 : -1;
    const pts = centre.map((p) => ({
      p,
      x: p.x + sign * p.tz * p.width / 2,
      z: p.z - sign * p.tx * p.width / 2,
    }));
    let walked = 0;
    let next = 0;
    for (let i = 0; i < pts.length; i++) {
      const a = pts[i];
      const b = pts[(i + 1) % pts.length];
      const len = Math.hypot(b.x - a.x, b.z - a.z);
      while (next <= walked + len) {
        const t = len > 0 ? (next - walked) / len : 0;
        const at = next;
        next += 1;
        if (opts.holes?.some((h) => h.side === side && at >= h.from && at < h.to)) continue;
        if (opts.keep && !opts.keep.some((k) => at >= k.from && at < k.to)) continue;
        const x = round(a.x + (b.x - a.x) * t, 3);
        const z = round(a.z + (b.z - a.z) * t, 3);
        const key = cellKey(x, z, side);
        if (seen.has(key)) continue;
        seen.add(key);
        const kind = opts.kind ?? "straddle";
        edges.push({
          x,
          z,
          y: opts.y ? opts.y(side, a.p) : round(a.p.y, 3),
          hx: round(a.p.tx, 5),
          hz: round(a.p.tz, 5),
          side,
          kind,
          votes: { [kind]: { [SOURCE]: [1, 1] } },
          run: 1,
          tw: 1.6,
        });
      }
      walked += len;
    }
  }
  return edges;
}

function round(v: number, dp: number): number {
  const f = 10 ** dp;
  return Math.round(v * f) / f;
}

/** A dense centre line of an ellipse with semi-axes rx, rz, driven with increasing angle. */
export function ovalCentre(rx: number, rz: number, width: number, y = 0): CentrePoint[] {
  const n = Math.ceil((2 * Math.PI * Math.max(rx, rz)) / 0.25);
  const out: CentrePoint[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    const tx = -rx * Math.sin(a);
    const tz = rz * Math.cos(a);
    const len = Math.hypot(tx, tz);
    out.push({ x: rx * Math.cos(a), z: rz * Math.sin(a), y, tx: tx / len, tz: tz / len, width });
  }
  return out;
}

/** A dense centre line (every 0.25 m) of a synthetic circuit. */
export function circuitCentre(circuit: Circuit): CentrePoint[] {
  const out: CentrePoint[] = [];
  for (let s = 0; s < circuit.length; s += 0.25) {
    const p = circuit.pointAt(s);
    out.push({ x: p.x, z: p.z, y: p.y, tx: p.tx, tz: p.tz, width: p.width });
  }
  return out;
}

/** A v4 bundle holding `edges` (and optionally finish crossings and corners). */
export function bundleOf(
  edges: Edge[],
  extra: { track?: string; finish?: FinishCrossing[]; corners?: BundleV4["corners"] } = {},
): BundleV4 {
  return {
    format: "sim-datalogger-track-bundle",
    version: 4,
    meta: {
      track: extra.track ?? "Test Circuit",
      runs: 1,
      source_runs: { [SOURCE]: 1 },
      updated_at: "2026-11-21T12:00:00.000Z",
      official: null,
    },
    edges,
    finish_crossings: extra.finish ?? [],
    corners: extra.corners ?? [],
    sections: [],
  };
}
