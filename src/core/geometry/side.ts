/**
 * One side of the circuit assembled from its chains (REFERENCE.md 3.3-3.5):
 * which chain is the main one, whether it closes into a loop, which links
 * are surveyed and which bridge a gap, the side's coverage, its drawn
 * border polylines and its gap segments.
 *
 * @module
 */
import { endDirection, startDirection } from "./stitch.ts";
import { type GroundPoint, roundTo } from "./planar.ts";
import { simplify } from "./simplify.ts";
import type { Kind } from "../bundle/types.ts";
import type { BorderVertex, KindStretch, MarkedKind, Segment, SideCoverage } from "./types.ts";

/** A border point as the compiler carries it: position, elevation, heading. */
export interface BorderPoint extends GroundPoint {
  hx: number;
  hz: number;
  /** The cell's resolved kind. */
  kind: Kind;
}

/** Links longer than this bridge a gap in the evidence, metres (SURVEYED_MAX_SPACING). */
export const SURVEYED_MAX_SPACING_M = 6.0;
/** Farthest the main chain's ends may lie apart for the side to close, metres. */
export const MAX_CLOSURE_M = 40;
/** Fewest points a closed main chain has. */
export const MIN_CLOSED_POINTS = 20;
/** Least continuation cosine between the main chain's two ends for the side to close. */
export const MIN_CLOSURE_CONTINUATION = 0.2;

/**
 * A stretch of border whose every link is surveyed, in chain order. `way`
 * is +1 when the order follows the direction the evidence was driven in,
 * -1 against it, 0 when the evidence carries no heading.
 */
export interface SurveyedRun {
  points: BorderPoint[];
  way: -1 | 0 | 1;
}

/** One side, assembled. */
export interface SideAssembly {
  /** The chains, longest (in metres) first; the first is the main chain. */
  chains: BorderPoint[][];
  closed: boolean;
  coverage: SideCoverage;
  /** Maximal surveyed stretches: the closed main chain's surveyed seam lies inside one. */
  runs: SurveyedRun[];
  /** The runs as drawn: 2 dp vertices, simplified at 0.5 m. */
  borders: BorderVertex[][];
  /** Stretches of the runs whose cells are marked wall, runoff or edge. */
  kinds: KindStretch[];
  /** Links bridged without evidence, 1 dp, including a closure longer than 6 m. */
  gaps: Segment[];
}

function marked(kind: Kind): MarkedKind | null {
  return kind === "wall" || kind === "runoff" || kind === "edge" ? kind : null;
}

/**
 * The stretches of `points` between cells of one manual kind: a link is
 * drawn in a kind when both its ends carry it.
 */
function kindStretches(points: readonly BorderPoint[]): KindStretch[] {
  const out: KindStretch[] = [];
  let i = 0;
  while (i < points.length) {
    const kind = marked(points[i].kind);
    let j = i;
    while (j + 1 < points.length && kind !== null && points[j + 1].kind === kind) j++;
    if (kind !== null && j > i) {
      out.push({
        kind,
        line: simplify(points.slice(i, j + 1)).map((p) => [roundTo(p.x, 2), roundTo(p.z, 2)]),
      });
    }
    i = j + 1;
  }
  return out;
}

function pathLength(chain: readonly BorderPoint[]): number {
  let total = 0;
  for (let i = 1; i < chain.length; i++) {
    total += Math.hypot(chain[i].x - chain[i - 1].x, chain[i].z - chain[i - 1].z);
  }
  return total;
}

function isClosed(main: readonly BorderPoint[] | undefined): boolean {
  if (main === undefined || main.length < MIN_CLOSED_POINTS) return false;
  const a = main[main.length - 1];
  const b = main[0];
  if (Math.hypot(b.x - a.x, b.z - a.z) > MAX_CLOSURE_M) return false;
  const [ex, ez] = endDirection(main);
  const [sx, sz] = startDirection(main);
  return -(ex * sx + ez * sz) >= MIN_CLOSURE_CONTINUATION;
}

function wayOf(points: readonly BorderPoint[]): -1 | 0 | 1 {
  let sum = 0;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    sum += (b.x - a.x) * (a.hx + b.hx) + (b.z - a.z) * (a.hz + b.hz);
  }
  return sum > 0 ? 1 : sum < 0 ? -1 : 0;
}

function segment(a: BorderPoint, b: BorderPoint): Segment {
  return [roundTo(a.x, 1), roundTo(a.z, 1), roundTo(b.x, 1), roundTo(b.z, 1)];
}

/**
 * Splits one chain into its surveyed stretches. On a loop (`loop`), the
 * closing link counts like any other, and a surveyed seam is bridged by
 * starting the walk just after the first gap.
 */
function splitChain(chain: BorderPoint[], loop: boolean): BorderPoint[][] {
  const n = chain.length;
  const long = (i: number, j: number) =>
    Math.hypot(chain[j].x - chain[i].x, chain[j].z - chain[i].z) > SURVEYED_MAX_SPACING_M;
  const links = loop ? n : n - 1;
  let start = 0;
  if (loop) {
    let firstGap = -1;
    for (let i = 0; i < links && firstGap < 0; i++) if (long(i, (i + 1) % n)) firstGap = i;
    if (firstGap < 0) return [[...chain, chain[0]]];
    start = (firstGap + 1) % n;
  }
  const runs: BorderPoint[][] = [];
  let run: BorderPoint[] = [chain[start]];
  for (let k = 0; k < links; k++) {
    const i = (start + k) % n;
    const j = (i + 1) % n;
    if (long(i, j)) {
      runs.push(run);
      run = [chain[j]];
    } else {
      run.push(chain[j]);
    }
  }
  // On a loop the walk ends back at its start, which the next run would repeat.
  if (!loop) runs.push(run);
  return runs;
}

/**
 * Assembles a side from its (stitched) chains. Coverage sums every link of
 * every chain, plus the closing link of a closed main chain, into surveyed
 * metres (links of at most 6 m) and gap metres (longer ones).
 */
export function assembleSide(input: readonly BorderPoint[][]): SideAssembly {
  const chains = input.map((c) => ({ c, len: pathLength(c) }))
    .sort((a, b) => b.len - a.len)
    .map((e) => e.c);
  const closed = isClosed(chains[0]);
  let surveyed = 0;
  let gap = 0;
  const gaps: Segment[] = [];
  const runs: SurveyedRun[] = [];
  chains.forEach((chain, index) => {
    const loop = index === 0 && closed;
    const links = loop ? chain.length : chain.length - 1;
    for (let i = 0; i < links; i++) {
      const a = chain[i];
      const b = chain[(i + 1) % chain.length];
      const d = Math.hypot(b.x - a.x, b.z - a.z);
      if (d > SURVEYED_MAX_SPACING_M) {
        gap += d;
        gaps.push(segment(a, b));
      } else {
        surveyed += d;
      }
    }
    for (const points of splitChain(chain, loop)) runs.push({ points, way: wayOf(points) });
  });
  const total = surveyed + gap;
  const borders = runs
    .filter((r) => r.points.length >= 2)
    .map((r) =>
      simplify(r.points).map((p): BorderVertex => [
        roundTo(p.x, 2),
        roundTo(p.z, 2),
        p.y === null ? null : roundTo(p.y, 2),
      ])
    );
  return {
    chains,
    closed,
    coverage: {
      surveyed_m: roundTo(surveyed, 1),
      gap_m: roundTo(gap, 1),
      pct: total > 0 ? roundTo((100 * surveyed) / total, 1) : 0,
      closed,
    },
    runs,
    borders,
    kinds: runs.flatMap((r) => kindStretches(r.points)),
    gaps,
  };
}
