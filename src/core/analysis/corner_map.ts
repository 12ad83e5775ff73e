/**
 * A circuit's corner map: its corners as world positions (apex, entry and
 * exit), made once from one path of the circuit (the configuration's
 * reference line, or the circuit's best complete lap) and located on every
 * lap by position, as authored corners are (SPEC 2.1.5). So the same turn
 * has the same number on every lap, session and car.
 *
 * When the catalogue gives the configuration's turn count, the bends are
 * chosen so the map has that many corners (GT7 counts some chicanes as one
 * and some sweepers as none): every bend the path makes is a candidate,
 * then, until the count is reached, the cheapest of two moves is made:
 * merging two neighbours that turn the same way with little straight
 * between them, or dropping the weakest bend (a kink). A bend's strength is
 * how far it turns times how tight it is.
 *
 * @module
 */
import type { Corner, Side } from "../bundle/types.ts";
import { type Bend, DETECT_DEFAULTS, type DetectOptions, findBends } from "./corners_detect.ts";
import { type PathOptions, type PathProfile, pathProfile } from "./path_profile.ts";

/**
 * Version of the corner map's rules. A map stored or cached with another
 * version was made by other rules and is made again.
 */
export const CORNER_MAP_VERSION = 2;

/**
 * The candidate bends of a path whose turn count is known: any stretch
 * turning one way at a radius under 1,000 m that reaches 700 m and turns
 * 4 degrees, split at a double apex whose halves turn 8 degrees each.
 */
export const CANDIDATE_BENDS: Readonly<DetectOptions> = Object.freeze({
  enterCurvature: 1 / 700,
  exitCurvature: 1 / 1000,
  minTurnDeg: 4,
  splitRatio: 0.85,
  splitMinTurnDeg: 8,
});

/**
 * When a path makes fewer candidate bends than its count (an oval of wide
 * sweepers), the candidates are looked for again with every curvature
 * threshold divided by each of these in turn, until there are enough.
 */
export const RELAX_FACTORS: readonly number[] = [1, 2, 4];

/**
 * Merging two neighbours that turn the same way costs the lesser one's
 * strength times the straight between their apexes (plus
 * {@linkcode MERGE_FLOOR_M}) over this, metres: with this much straight
 * between them a merge costs as much as dropping the lesser bend.
 */
export const MERGE_GAP_M = 120;

/**
 * Added to the straight between two neighbours when pricing their merge,
 * metres: even two halves of one long bend keep a price, so halves of a
 * gentle sweeper merge before two halves of a tight double apex.
 */
export const MERGE_FLOOR_M = 20;

/** Path where the radius opens past this counts as straight between two bends, metres. */
export const STRAIGHT_RADIUS_M = 400;

/** Neighbours further apart than this are never merged, metres. */
export const MAX_MERGE_GAP_M = 250;

/**
 * Two opposite bends with at most {@linkcode JOG_GAP_M} between them whose
 * path never strays more than this from the straight line across them are
 * a jog, not a chicane: a step in a recording (where its ends were joined)
 * or a lane change, metres.
 */
export const JOG_M = 6;

/** See {@linkcode JOG_M}, metres. */
export const JOG_GAP_M = 15;

/** A circuit's corners and what they were made from. */
export interface CornerMap {
  /** {@linkcode CORNER_MAP_VERSION} of the rules that made it. */
  version: number;
  /** Length of the path the map was made from, metres. */
  length_m: number;
  /** True when that path closes on itself: a lap may then start anywhere around it. */
  loop: boolean;
  /**
   * Each corner's apex, metres along the map's path from its start (the
   * line), parallel to `corners` and rising: what says where on the loop a
   * lap cut elsewhere starts (see loop_start.ts).
   */
  along_m: number[];
  /**
   * The corners in track order from the line, numbered 1.. and named
   * "Turn n", each with its apex (where the bend has made half its turn),
   * and its entry and exit unless the bend runs across the line (then the
   * default window stands in).
   */
  corners: Corner[];
}

/** How strong a bend is: degrees turned times the square root of its tightest curvature per 100 m. */
export function bendStrength(p: PathProfile, b: Bend): number {
  return Math.abs(b.turnDeg) * Math.sqrt(Math.abs(p.curvature[b.apex]) * 100);
}

const DEG = 180 / Math.PI;

function merged(p: PathProfile, a: Bend, b: Bend): Bend {
  const apex = Math.abs(p.curvature[a.apex]) >= Math.abs(p.curvature[b.apex]) ? a.apex : b.apex;
  return {
    start: a.start,
    end: b.end,
    apex,
    sign: a.sign,
    turnDeg: (p.heading[b.end] - p.heading[a.start]) * DEG,
  };
}

/** Largest distance of the profile's points from the chord between indexes `a` and `b`. */
function stray(p: PathProfile, a: number, b: number): number {
  const ex = p.x[b] - p.x[a];
  const ez = p.z[b] - p.z[a];
  const len = Math.hypot(ex, ez);
  let most = 0;
  for (let i = a; i <= b; i++) {
    const dx = p.x[i] - p.x[a];
    const dz = p.z[i] - p.z[a];
    const d = len > 0 ? Math.abs(dx * ez - dz * ex) / len : Math.hypot(dx, dz);
    if (d > most) most = d;
  }
  return most;
}

/** Metres between profile indexes `a` < `b` where the path is straight (see STRAIGHT_RADIUS_M). */
function straightBetween(p: PathProfile, a: number, b: number): number {
  let count = 0;
  for (let i = a; i <= b; i++) if (Math.abs(p.curvature[i]) * STRAIGHT_RADIUS_M < 1) count++;
  return count * (p.length / p.dist.length);
}

/** `bends` without the jogs among them (see {@linkcode JOG_M}). */
export function withoutJogs(p: PathProfile, bends: readonly Bend[]): Bend[] {
  const step = p.length / p.dist.length;
  const out: Bend[] = [];
  for (let i = 0; i < bends.length; i++) {
    const a = bends[i];
    const b = bends[i + 1];
    if (
      b !== undefined && b.sign !== a.sign && (b.start - a.end) * step <= JOG_GAP_M &&
      stray(p, a.start, b.end) < JOG_M
    ) {
      i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/**
 * The bends of `p` chosen for a map of `target` corners (see the module);
 * with a null target, the bends {@linkcode findBends} finds with the
 * detection defaults (overridden by `detect`). Fewer than `target` only when the path has fewer
 * candidate bends.
 */
export function chooseBends(
  p: PathProfile,
  target: number | null,
  detect: Partial<DetectOptions> = {},
): Bend[] {
  if (target === null) return withoutJogs(p, findBends(p, { ...DETECT_DEFAULTS, ...detect }));
  let bends: Bend[] = [];
  for (const f of RELAX_FACTORS) {
    bends = withoutJogs(
      p,
      findBends(p, {
        ...CANDIDATE_BENDS,
        enterCurvature: CANDIDATE_BENDS.enterCurvature / f,
        exitCurvature: CANDIDATE_BENDS.exitCurvature / f,
      }),
    );
    if (bends.length >= target) break;
  }
  const strength = bends.map((b) => bendStrength(p, b));
  const step = p.length / p.dist.length;
  while (bends.length > Math.max(0, target)) {
    let cost = Infinity;
    let at = -1;
    let merge = false;
    for (let i = 0; i < bends.length; i++) {
      if (strength[i] < cost) {
        cost = strength[i];
        at = i;
        merge = false;
      }
      const j = i + 1;
      if (j >= bends.length || bends[j].sign !== bends[i].sign) continue;
      if ((bends[j].start - bends[i].end) * step > MAX_MERGE_GAP_M) continue;
      const c = Math.min(strength[i], strength[j]) *
        (straightBetween(p, bends[i].apex, bends[j].apex) + MERGE_FLOOR_M) / MERGE_GAP_M;
      if (c < cost) {
        cost = c;
        at = i;
        merge = true;
      }
    }
    if (merge) {
      const m = merged(p, bends[at], bends[at + 1]);
      bends.splice(at, 2, m);
      strength.splice(at, 2, bendStrength(p, m));
    } else {
      bends.splice(at, 1);
      strength.splice(at, 1);
    }
  }
  return bends;
}

/**
 * The corner map of the path through `x`, `z` (driving order; `loop` when
 * it closes on itself), with `turns` corners when the catalogue gives the
 * count (null: detected with the defaults, or `detect`), the path profiled
 * with `path`'s options. Corners are numbered from the
 * path's start, which is the start line. Throws an Error when the path has
 * fewer than two distinct finite positions.
 */
export function cornerMapOfPath(
  x: ArrayLike<number>,
  z: ArrayLike<number>,
  loop: boolean,
  turns: number | null,
  detect: Partial<DetectOptions> = {},
  path: PathOptions = {},
): CornerMap {
  const p = pathProfile(x, z, loop, path);
  const n = p.dist.length;
  // Path distance of profile index i, measured from the start line.
  const sOf = (i: number) => p.dist[i];
  const at = (i: number) => ({ x: round2(p.x[i]), z: round2(p.z[i]) });
  const bends = chooseBends(p, turns, detect)
    .map((b) => ({ b: { ...b, apex: halfTurn(p, b) }, apex: sOf(halfTurn(p, b)) }))
    .sort((a, b) => a.apex - b.apex);
  const corners: Corner[] = bends.map(({ b, apex }, k) => ({
    n: k + 1,
    name: `Turn ${k + 1}`,
    direction: (b.sign > 0 ? "L" : "R") as Side,
    apex: at(b.apex),
    // A bend across the line keeps only the end on the apex's side of it.
    entry: sOf(b.start) <= apex ? at(b.start) : null,
    exit: sOf(b.end) >= apex && b.end < n ? at(b.end) : null,
    note: "",
  }));
  return {
    version: CORNER_MAP_VERSION,
    length_m: round2(p.length),
    loop,
    along_m: bends.map(({ apex }) => round2(apex)),
    corners,
  };
}

/**
 * The apex the map keeps: where the bend has made half its turn. Unlike
 * the tightest point, it sits mid-bend on a bend of even radius, and moves
 * little with noise in the curvature.
 */
function halfTurn(p: PathProfile, b: Bend): number {
  const h0 = p.heading[b.start];
  const half = Math.abs(p.heading[b.end] - h0) / 2;
  for (let i = b.start; i <= b.end; i++) if (Math.abs(p.heading[i] - h0) >= half) return i;
  return b.apex;
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}

/**
 * A hash of a path's positions (FNV-1a over their 64-bit floats), hex: a
 * stored map records the hash of the lap it was made from, so a map whose
 * lap has changed or gone is never trusted.
 */
export function pathHash(x: ArrayLike<number>, z: ArrayLike<number>): string {
  const n = Math.min(x.length, z.length);
  const buf = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    buf[2 * i] = x[i];
    buf[2 * i + 1] = z[i];
  }
  const bytes = new Uint8Array(buf.buffer);
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193);
  }
  return `${n.toString(16)}-${(h >>> 0).toString(16).padStart(8, "0")}`;
}

/** True when `v` is a well-formed corner map of this version's rules. */
export function isCornerMap(v: unknown): v is CornerMap {
  if (typeof v !== "object" || v === null) return false;
  const m = v as Record<string, unknown>;
  const point = (p: unknown) =>
    typeof p === "object" && p !== null &&
    Number.isFinite((p as Record<string, unknown>).x) &&
    Number.isFinite((p as Record<string, unknown>).z);
  return m.version === CORNER_MAP_VERSION && typeof m.length_m === "number" &&
    typeof m.loop === "boolean" && Array.isArray(m.corners) && Array.isArray(m.along_m) &&
    m.along_m.length === m.corners.length &&
    m.along_m.every((d: unknown) => typeof d === "number" && Number.isFinite(d)) &&
    m.corners.every((c: unknown, i: number) => {
      if (typeof c !== "object" || c === null) return false;
      const k = c as Record<string, unknown>;
      return k.n === i + 1 && typeof k.name === "string" && (k.direction === "L" ||
        k.direction === "R") &&
        point(k.apex) && (k.entry === null || point(k.entry)) &&
        (k.exit === null || point(k.exit)) && k.note === "";
    });
}
