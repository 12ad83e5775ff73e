/**
 * The road between the borders (REFERENCE.md 3.6): the left border is
 * resampled every 4 m; each sample is paired with the nearest point of the
 * right border lying across the road on the right; the midpoints make the
 * centerline, the distances its width, and consecutive pairs the road quads.
 *
 * One addition to the reference: when the evidence carries headings, the
 * right border is only looked for on the right of the direction of travel,
 * so a neighbouring stretch of road closer than the road is wide (8 m of
 * grass beside a 14 m road) is never taken for the other side.
 *
 * @module
 */
import { lerpY, roundTo } from "./planar.ts";
import { rightOf } from "../gt7/handedness.ts";
import type { SurveyedRun } from "./side.ts";
import { SpatialHash } from "./spatial_hash.ts";
import type { CenterVertex, Quad } from "./types.ts";

/** Spacing of left-border samples, metres. */
export const SAMPLE_SPACING_M = 4.0;
/** Grid of the right-border index, metres. */
export const PAIR_GRID_M = 8;
/** Narrowest road a pair may span, metres. */
export const MIN_ROAD_WIDTH_M = 3.0;
/** Widest road a pair may span, metres. */
export const MAX_ROAD_WIDTH_M = 40.0;
/** Least |cosine| between the pair and the left border's normal. */
export const MIN_ACROSS = 0.7;
/** Farthest apart two left samples of one quad may lie, metres. */
export const MAX_QUAD_SPAN_M = 8;

/** A left-border sample: position, elevation, unit tangent, and which way is forward. */
interface Sample {
  x: number;
  z: number;
  y: number | null;
  tx: number;
  tz: number;
  way: -1 | 0 | 1;
}

/** The samples of each run, in order (runs are separated by breaks). */
export function resampleRuns(runs: readonly SurveyedRun[]): Sample[][] {
  const out: Sample[][] = [];
  for (const run of runs) {
    const pts = run.points;
    const samples: Sample[] = [];
    let next = 0;
    let walked = 0;
    for (let i = 1; i < pts.length; i++) {
      const a = pts[i - 1];
      const b = pts[i];
      const len = Math.hypot(b.x - a.x, b.z - a.z);
      if (len === 0) continue;
      const tx = (b.x - a.x) / len;
      const tz = (b.z - a.z) / len;
      while (next <= walked + len) {
        const t = (next - walked) / len;
        samples.push({
          x: a.x + (b.x - a.x) * t,
          z: a.z + (b.z - a.z) * t,
          y: lerpY(a.y, b.y, t),
          tx,
          tz,
          way: run.way,
        });
        next += SAMPLE_SPACING_M;
      }
      walked += len;
    }
    out.push(samples);
  }
  return out;
}

interface RightSegment {
  ax: number;
  az: number;
  ay: number | null;
  bx: number;
  bz: number;
  by: number | null;
}

/** A right-border point found for a sample, `d` metres away, on segment `id`. */
interface Found {
  x: number;
  z: number;
  y: number | null;
  d: number;
  id: number;
}

/** The nearest point of the indexed right border to a sample, on its right when known. */
class RightIndex {
  readonly #segments: RightSegment[] = [];
  readonly #grid = new SpatialHash(PAIR_GRID_M);

  /** Half the longest indexed segment: how far a segment reaches beyond its filed midpoint. */
  #halfSpan = 0;

  constructor(runs: readonly SurveyedRun[]) {
    for (const run of runs) {
      for (let i = 1; i < run.points.length; i++) {
        const a = run.points[i - 1];
        const b = run.points[i];
        this.#grid.add(this.#segments.length, (a.x + b.x) / 2, (a.z + b.z) / 2);
        this.#halfSpan = Math.max(this.#halfSpan, Math.hypot(b.x - a.x, b.z - a.z) / 2);
        this.#segments.push({ ax: a.x, az: a.z, ay: a.y, bx: b.x, bz: b.z, by: b.y });
      }
    }
  }

  nearest(s: Sample): Found | null {
    const [rx, rz] = s.way === 0 ? [0, 0] : rightOf(s.way * s.tx, s.way * s.tz);
    let best: Found | null = null;
    const visit = (id: number) => {
      const g = this.#segments[id];
      const dx = g.bx - g.ax;
      const dz = g.bz - g.az;
      const len2 = dx * dx + dz * dz;
      let t = len2 > 0 ? ((s.x - g.ax) * dx + (s.z - g.az) * dz) / len2 : 0;
      t = Math.max(0, Math.min(1, t));
      const px = g.ax + dx * t;
      const pz = g.az + dz * t;
      if (s.way !== 0 && (px - s.x) * rx + (pz - s.z) * rz <= 0) return;
      const d = Math.hypot(px - s.x, pz - s.z);
      if (best === null || d < best.d || (d === best.d && id < best.id)) {
        best = { x: px, z: pz, y: lerpY(g.ay, g.by, t), d, id };
      }
    };
    // Rings outward until nothing unvisited can be nearer than the best, or than the widest road.
    for (let r = 0;; r++) {
      this.#grid.ring(s.x, s.z, r, visit);
      const bound = r * PAIR_GRID_M - this.#halfSpan;
      if (bound > MAX_ROAD_WIDTH_M || (best !== null && bound >= (best as Found).d)) break;
    }
    return best;
  }
}

/** The centerline, road quads and how much of the left border found the right one across. */
export interface RoadGeometry {
  centerline: CenterVertex[][];
  road: Quad[];
  /** Left samples judged. */
  judged: number;
  /** Left samples paired with the right border. */
  paired: number;
  /** 100 * paired / judged, 1 dp; 0 when nothing was judged. */
  road_pct: number;
}

/**
 * Pairs the left runs with the right runs. A centerline run ends at an
 * unpaired sample or a break between left runs; runs of one vertex are
 * dropped. A quad joins two consecutive paired samples of one left run at
 * most 8 m apart.
 */
export function centerlineAndRoad(
  left: readonly SurveyedRun[],
  right: readonly SurveyedRun[],
): RoadGeometry {
  const index = new RightIndex(right);
  const centerline: CenterVertex[][] = [];
  const road: Quad[] = [];
  let judged = 0;
  let paired = 0;
  for (const samples of resampleRuns(left)) {
    let line: CenterVertex[] = [];
    let prev: { s: Sample; px: number; pz: number } | null = null;
    for (const s of samples) {
      judged++;
      const p = index.nearest(s);
      const ok = p !== null && p.d >= MIN_ROAD_WIDTH_M && p.d <= MAX_ROAD_WIDTH_M &&
        Math.abs(((p.x - s.x) * s.tz - (p.z - s.z) * s.tx) / p.d) >= MIN_ACROSS;
      if (!ok || p === null) {
        if (line.length >= 2) centerline.push(line);
        line = [];
        prev = null;
        continue;
      }
      paired++;
      const ys = [s.y, p.y].filter((y): y is number => y !== null);
      line.push([
        roundTo((s.x + p.x) / 2, 2),
        roundTo((s.z + p.z) / 2, 2),
        ys.length === 0 ? null : roundTo(ys.reduce((a, b) => a + b, 0) / ys.length, 2),
        roundTo(p.d, 1),
      ]);
      if (prev !== null && Math.hypot(s.x - prev.s.x, s.z - prev.s.z) <= MAX_QUAD_SPAN_M) {
        road.push([
          roundTo(prev.s.x, 1),
          roundTo(prev.s.z, 1),
          roundTo(s.x, 1),
          roundTo(s.z, 1),
          roundTo(p.x, 1),
          roundTo(p.z, 1),
          roundTo(prev.px, 1),
          roundTo(prev.pz, 1),
        ]);
      }
      prev = { s, px: p.x, pz: p.z };
    }
    if (line.length >= 2) centerline.push(line);
  }
  return {
    centerline,
    road,
    judged,
    paired,
    road_pct: judged > 0 ? roundTo((100 * paired) / judged, 1) : 0,
  };
}
