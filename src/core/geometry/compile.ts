/**
 * A track bundle compiled into geometry (SPEC.md 2.2, REFERENCE.md 3): each
 * side's cells ordered into chains and stitched, the sides assembled into
 * borders, gaps and coverage, the road paired across, and the finish line
 * and wall ticks added.
 *
 * @module
 */
import { slugify } from "../bundle/slug.ts";
import type { BundleTable, EdgeTable } from "../bundle/edge_table.ts";
import type { BundleV4, Edge, Side } from "../bundle/types.ts";
import { KINDS } from "../bundle/types.ts";
import { chainSide } from "./chain.ts";
import { centerlineAndRoad } from "./centerline.ts";
import { finishLine, type WallCell, wallTicks } from "./finish.ts";
import { assembleSide, type BorderPoint, type SideAssembly } from "./side.ts";
import { stitch } from "./stitch.ts";
import { COMPILED_FORMAT, COMPILED_VERSION, type CompiledTrack } from "./types.ts";

/** What a compile records besides the bundle. */
export interface CompileOptions {
  /** The compile time, ISO 8601 UTC. */
  compiledAt: string;
  /** The application's version, at most 32 characters. */
  appVersion: string;
  /** The stored generation and uncompressed stored size of the bundle; [0, 0] when not from the store. */
  identity?: [generation: number, storedBytes: number];
}

/** Both sides of a bundle assembled, before they become a document. */
export interface AssembledSides {
  L: SideAssembly;
  R: SideAssembly;
}

/** A bundle to compile: its edges as objects or as a table. */
export type CompileInput = BundleV4 | BundleTable;

function isTable(edges: readonly Edge[] | EdgeTable): edges is EdgeTable {
  return !Array.isArray(edges);
}

/** The points of one side's cells, in document order. */
function sidePoints(doc: CompileInput, side: Side): BorderPoint[] {
  const out: BorderPoint[] = [];
  const edges = doc.edges;
  if (isTable(edges)) {
    const code = side === "R" ? 1 : 0;
    for (let i = 0; i < edges.length; i++) {
      if (edges.side[i] !== code) continue;
      const y = edges.y[i];
      out.push({
        x: edges.x[i],
        z: edges.z[i],
        y: Number.isNaN(y) ? null : y,
        hx: edges.hx[i],
        hz: edges.hz[i],
        kind: KINDS[edges.kind[i]],
      });
    }
    return out;
  }
  for (const e of edges) {
    if (e.side === side) out.push({ x: e.x, z: e.z, y: e.y, hx: e.hx, hz: e.hz, kind: e.kind });
  }
  return out;
}

/** The wall cells of `edges`, in document order, as wall ticks read them. */
function wallCells(edges: readonly Edge[] | EdgeTable): WallCell[] {
  if (!isTable(edges)) return edges.filter((e) => e.kind === "wall");
  const wall = KINDS.indexOf("wall");
  const out: WallCell[] = [];
  for (let i = 0; i < edges.length; i++) {
    if (edges.kind[i] !== wall) continue;
    out.push({ x: edges.x[i], z: edges.z[i], hx: edges.hx[i], hz: edges.hz[i], kind: "wall" });
  }
  return out;
}

/** One side's cells chained, stitched and assembled. Cells of the other side never take part. */
export function assembleBundleSide(doc: CompileInput, side: Side): SideAssembly {
  const points = sidePoints(doc, side);
  const chains = chainSide(points).map((chain) => chain.map((i) => points[i]));
  return assembleSide(stitch(chains));
}

/**
 * The compiled geometry of `doc`. A pure function of the bundle and the
 * options: compiling one bundle twice gives documents equal in every field
 * but `compiled_at` (and that too when the options are equal).
 */
export function compileBundle(doc: CompileInput, opts: CompileOptions): CompiledTrack {
  const L = assembleBundleSide(doc, "L");
  const R = assembleBundleSide(doc, "R");
  const road = centerlineAndRoad(L.runs, R.runs);
  return {
    format: COMPILED_FORMAT,
    version: COMPILED_VERSION,
    track: doc.meta.track,
    slug: slugify(doc.meta.track),
    compiled_at: opts.compiledAt,
    source: {
      points: doc.edges.length,
      runs: doc.meta.runs,
      sources: Object.keys(doc.meta.source_runs).length,
      bundle_updated_at: doc.meta.updated_at,
      app_version: opts.appVersion.slice(0, 32),
    },
    borders: { L: L.borders, R: R.borders },
    border_kinds: { L: L.kinds, R: R.kinds },
    gaps: { L: L.gaps, R: R.gaps },
    walls: wallTicks(wallCells(doc.edges)),
    centerline: road.centerline,
    road: road.road,
    finish: finishLine(doc.finish_crossings),
    coverage: { L: L.coverage, R: R.coverage, road_pct: road.road_pct },
    corners: doc.corners.map((c) => ({ n: c.n, name: c.name, x: c.apex.x, z: c.apex.z })),
    _bundle_identity: opts.identity ?? [0, 0],
  };
}
