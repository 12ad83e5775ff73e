/**
 * Finding where a lap passed given world positions (SPEC 2.1.5: anchors are
 * world positions because distance depends on the line driven). A list of
 * anchors in track order is resolved together, so a lap that passes close
 * to one place twice (a hairpin's two legs, a crossover) takes the pass
 * that keeps the anchors in order.
 *
 * @module
 */
import type { Point } from "../bundle/types.ts";
import type { LapTrace } from "./lap_trace.ts";

/** Farthest a lap may pass from an anchor and still be said to pass it, metres. */
export const ANCHOR_TOLERANCE_M = 30;

/**
 * Where the lap's positions have a hole (two consecutive samples further
 * apart than the tolerance: lost packets), an anchor the lap would
 * have passed in the hole is placed across it: when the anchor lies within
 * this many times the hole's straight length, summed from its two ends
 * (an ellipse around the hole), at the share of the hole's distance its
 * ends' distances give. Such a pass counts as missing the anchor by the
 * tolerance, so a real pass is always preferred.
 */
export const HOLE_ELLIPSE = 2;

/** One pass of the lap near an anchor. */
interface Pass {
  /** Lap distance of the closest point, metres. */
  at: number;
  /** How far from the anchor the lap passed, metres. */
  miss: number;
}

/**
 * A lap staying near an anchor passes it again only after moving this much
 * farther away and coming back (a hairpin's two legs), metres.
 */
const REPASS_M = 5;

/**
 * The passes of the lap within `tolerance` of `p`, each at a closest point
 * (projected onto the segments either side of the closest sample). One
 * stretch inside the circle holds several passes when the lap turned away
 * and back by {@linkcode REPASS_M} or more in between.
 */
function passesNear(trace: LapTrace, p: Point, tolerance: number): Pass[] {
  const x = trace.samples.pos_x;
  const z = trace.samples.pos_z;
  const n = x.length;
  const out: Pass[] = [];
  let seekingMin = true;
  let best = -1;
  let low = Infinity;
  let high = -Infinity;
  const tol2 = tolerance * tolerance;
  for (let i = 0; i <= n; i++) {
    const dx = i < n ? x[i] - p.x : Infinity;
    const dz = i < n ? z[i] - p.z : 0;
    const d2 = dx * dx + dz * dz;
    if (!(d2 <= tol2)) {
      if (seekingMin && best >= 0) out.push(refine(trace, p, best));
      seekingMin = true;
      best = -1;
      low = Infinity;
      continue;
    }
    const d = Math.sqrt(d2);
    if (seekingMin) {
      if (d < low) {
        low = d;
        best = i;
      } else if (d > low + REPASS_M) {
        out.push(refine(trace, p, best));
        seekingMin = false;
        high = d;
      }
    } else if (d > high) {
      high = d;
    } else if (d < high - REPASS_M) {
      seekingMin = true;
      low = d;
      best = i;
    }
  }
  return out;
}

/** The closest point to `p` on the segments either side of sample `i`. */
function refine(trace: LapTrace, p: Point, i: number): Pass {
  const x = trace.samples.pos_x;
  const z = trace.samples.pos_z;
  const d = trace.dist; // trace index k is sample k - 1
  let at = d[i + 1];
  let miss = Math.hypot(x[i] - p.x, z[i] - p.z);
  for (const j of [i - 1, i + 1]) {
    if (j < 0 || j >= x.length) continue;
    const [a, b] = j < i ? [j, i] : [i, j];
    const ex = x[b] - x[a];
    const ez = z[b] - z[a];
    const len2 = ex * ex + ez * ez;
    if (len2 === 0) continue;
    const f = Math.min(1, Math.max(0, ((p.x - x[a]) * ex + (p.z - z[a]) * ez) / len2));
    const m = Math.hypot(x[a] + ex * f - p.x, z[a] + ez * f - p.z);
    if (m < miss) {
      miss = m;
      at = d[a + 1] + (d[b + 1] - d[a + 1]) * f;
    }
  }
  return { at, miss };
}

/** Index of the first sample of each hole of the lap (see {@linkcode HOLE_ELLIPSE}). */
function holesOf(trace: LapTrace, tolerance: number): number[] {
  const x = trace.samples.pos_x;
  const z = trace.samples.pos_z;
  const out: number[] = [];
  const gap2 = tolerance * tolerance;
  for (let i = 0; i + 1 < x.length; i++) {
    const dx = x[i + 1] - x[i];
    const dz = z[i + 1] - z[i];
    if (dx * dx + dz * dz > gap2) out.push(i);
  }
  return out;
}

/** The passes of `p` across the lap's holes `holes` (see {@linkcode HOLE_ELLIPSE}). */
function passesAcross(trace: LapTrace, p: Point, holes: readonly number[], tolerance: number) {
  const x = trace.samples.pos_x;
  const z = trace.samples.pos_z;
  const d = trace.dist; // trace index k is sample k - 1
  const out: Pass[] = [];
  for (const i of holes) {
    const a = Math.hypot(p.x - x[i], p.z - z[i]);
    const b = Math.hypot(p.x - x[i + 1], p.z - z[i + 1]);
    const span = Math.hypot(x[i + 1] - x[i], z[i + 1] - z[i]);
    if (a + b > HOLE_ELLIPSE * span) continue;
    out.push({ at: d[i + 1] + (d[i + 2] - d[i + 1]) * (a / (a + b)), miss: tolerance });
  }
  return out;
}

/**
 * Lap distances of `anchors` (in track order), non-decreasing along the
 * list; null for an anchor the lap never passed within `tolerance` or
 * could not pass in order. Among the orderly choices it takes the one whose
 * passes lie closest to their anchors, leaving out as few anchors as it can.
 * An anchor in a hole of the lap's positions is placed across the hole
 * (see {@linkcode HOLE_ELLIPSE}). A null anchor stays null.
 */
export function resolveAnchors(
  trace: LapTrace,
  anchors: readonly (Point | null)[],
  tolerance = ANCHOR_TOLERANCE_M,
): (number | null)[] {
  const m = anchors.length;
  const holes = holesOf(trace, tolerance);
  const passes = anchors.map((a) => {
    if (!a) return [];
    const near = passesNear(trace, a, tolerance);
    if (holes.length === 0) return near;
    return [...near, ...passesAcross(trace, a, holes, tolerance)].sort((p, q) => p.at - q.at);
  });
  // Leaving an anchor out costs more than any pass could, so the fewest are left out.
  const skip = 2 * tolerance;
  // best[j][c]: least cost of anchors 0..j with anchor j at pass c; from[j][c] the previous choice.
  const best: number[][] = [];
  const from: ([number, number] | null)[][] = [];
  for (let j = 0; j < m; j++) {
    best.push([]);
    from.push([]);
    for (const [c, pass] of passes[j].entries()) {
      let cost = skip * j; // every earlier anchor left out
      let prev: [number, number] | null = null;
      for (let k = 0; k < j; k++) {
        for (const [e, other] of passes[k].entries()) {
          if (other.at > pass.at) continue;
          const via = best[k][e] + skip * (j - k - 1);
          if (via < cost) {
            cost = via;
            prev = [k, e];
          }
        }
      }
      best[j][c] = cost + pass.miss;
      from[j][c] = prev;
    }
  }
  let total = skip * m;
  let end: [number, number] | null = null;
  for (let j = 0; j < m; j++) {
    for (let c = 0; c < best[j].length; c++) {
      const cost = best[j][c] + skip * (m - j - 1);
      if (cost < total) {
        total = cost;
        end = [j, c];
      }
    }
  }
  const out: (number | null)[] = new Array(m).fill(null);
  for (let at = end; at; at = from[at[0]][at[1]]) out[at[0]] = passes[at[0]][at[1]].at;
  return out;
}
