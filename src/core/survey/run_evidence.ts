/**
 * The evidence one survey run has gathered, one record per metre per side,
 * and the bundle it amounts to. A run votes at most once per kind per cell
 * however many samples land there (SPEC.md 2.1.3: a vote is one run of one
 * source, never one sample), so laying the same kind twice changes nothing.
 *
 * Records carry no run ordinal: the ordinal is only known once the circuit
 * is, and is applied when the run is turned into a bundle. That is what
 * lets evidence gathered before the circuit was named count for it.
 *
 * @module
 */
import { cellKey } from "../bundle/cell.ts";
import { resolveKind } from "../bundle/kind.ts";
import type { BundleTable } from "../bundle/edge_table.ts";
import { MAX_EDGES } from "../bundle/limits.ts";
import {
  BUNDLE_FORMAT,
  type BundleV4,
  type Edge,
  type FinishCrossing,
  type Kind,
  KINDS,
  type Side,
  type Votes,
} from "../bundle/types.ts";

/** One metre of one side of border, as this run evidenced it. */
export interface RunCell {
  /** First position evidenced here, 3 dp. */
  x: number;
  z: number;
  /** Elevation, 3 dp. */
  y: number;
  /** Unit heading when first evidenced, 5 dp. */
  hx: number;
  hz: number;
  side: Side;
  /** Axle track width in use when first evidenced, 3 dp. */
  tw: number;
  /** Bit set over {@linkcode KINDS} of the kinds this run saw here. */
  kinds: number;
}

const KIND_BIT: Readonly<Record<Kind, number>> = {
  wall: 1,
  runoff: 2,
  edge: 4,
  auto: 8,
  straddle: 16,
};

function round3(v: number): number {
  const r = Math.round(v * 1000) / 1000;
  return r === 0 ? 0 : r;
}

function round5(v: number): number {
  const r = Math.round(v * 100000) / 100000;
  return r === 0 ? 0 : r;
}

/** The cells of one run, keyed on the bundle's 1 m grid. */
export class RunEvidence {
  readonly #cells = new Map<number, RunCell>();
  #dropped = 0;

  /** Cells held. */
  get size(): number {
    return this.#cells.size;
  }

  /** New cells refused because 50,000 were already held. */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * Records that this run saw `kind` on `side` at (x, z). A new cell takes
   * this position, elevation, heading and width; a known cell only gains
   * the kind. Returns true when anything changed.
   */
  lay(
    kind: Kind,
    side: Side,
    x: number,
    z: number,
    y: number,
    hx: number,
    hz: number,
    tw: number,
  ): boolean {
    const key = cellKey(x, z, side);
    const bit = KIND_BIT[kind];
    const cell = this.#cells.get(key);
    if (cell !== undefined) {
      if ((cell.kinds & bit) !== 0) return false;
      cell.kinds |= bit;
      return true;
    }
    if (this.#cells.size >= MAX_EDGES) {
      this.#dropped++;
      return false;
    }
    this.#cells.set(key, {
      x: round3(x),
      z: round3(z),
      y: round3(y),
      hx: round5(hx),
      hz: round5(hz),
      side,
      tw: round3(tw),
      kinds: bit,
    });
    return true;
  }

  /** Copies of the cells, in the order they were first laid. */
  snapshot(): RunCell[] {
    return Array.from(this.#cells.values(), (c) => ({ ...c }));
  }

  /** Counts of cells per side. */
  countBySide(): { L: number; R: number } {
    let left = 0;
    for (const c of this.#cells.values()) if (c.side === "L") left++;
    return { L: left, R: this.#cells.size - left };
  }

  /** Forgets every cell. */
  clear(): void {
    this.#cells.clear();
    this.#dropped = 0;
  }
}

/** What a run's bundle is stamped with. */
export interface RunStamp {
  /** The circuit name, trimmed. */
  track: string;
  /** This installation's source id. */
  source: string;
  /** This run's ordinal on the circuit, at least 1. */
  ordinal: number;
  /** True when the run is over and counts in `source_runs` (a stop, not an autosave). */
  countRun: boolean;
  /** Write time, ISO 8601 UTC. */
  now: string;
}

/**
 * The bundle a run amounts to: each cell with one vote per kind seen,
 * `[1, ordinal]` under `source`, laid at run `ordinal`; the run's finish
 * crossings; `source_runs` of `ordinal` when the run counts, else one less.
 * Merged into the stored bundle, it advances each vote once per run however
 * often it is merged.
 */
export function runBundle(
  cells: readonly RunCell[],
  crossings: readonly FinishCrossing[],
  stamp: RunStamp,
): BundleV4 {
  const edges: Edge[] = cells.map((c) => {
    const votes: Votes = {};
    for (const kind of KINDS) {
      if ((c.kinds & KIND_BIT[kind]) !== 0) votes[kind] = { [stamp.source]: [1, stamp.ordinal] };
    }
    return {
      x: c.x,
      z: c.z,
      y: c.y,
      hx: c.hx,
      hz: c.hz,
      side: c.side,
      kind: resolveKind(votes),
      votes,
      run: stamp.ordinal,
      tw: c.tw,
    };
  });
  const runs = stamp.countRun ? stamp.ordinal : stamp.ordinal - 1;
  return {
    format: BUNDLE_FORMAT,
    version: 4,
    meta: {
      track: stamp.track,
      runs,
      source_runs: { [stamp.source]: runs },
      updated_at: stamp.now,
      official: null,
    },
    edges,
    finish_crossings: crossings.map((c) => ({ ...c })),
    corners: [],
    sections: [],
  };
}

/**
 * The ordinal of this installation's next run on a circuit: one more than
 * the higher of its run counter and the latest run any of its votes carry,
 * so a run that was autosaved but never stopped (a crash) is never reused.
 * 1 for a circuit without a bundle.
 */
export function nextOrdinal(doc: BundleTable | null, source: string): number {
  if (doc === null) return 1;
  let mark = doc.meta.source_runs[source] ?? 0;
  const at = doc.edges.sources.indexOf(source);
  const { voteSource, voteRun } = doc.edges;
  for (let v = 0; at >= 0 && v < voteSource.length; v++) {
    if (voteSource[v] === at && voteRun[v] > mark) mark = voteRun[v];
  }
  return mark + 1;
}
