/**
 * fast-check arbitraries for track bundles.
 *
 * Documents are snapshots of one shared "world": a set of sources and cells,
 * and for every cell a history of (kind, source, run) observations. A
 * snapshot sees each source up to some run, so two snapshots never disagree
 * about a source's past: a later last_run always carries a larger count.
 * That is what real exchanges produce, and what the merge laws assume.
 *
 * Also a few small hand-written documents for example tests.
 *
 * @module
 */
import fc from "fast-check";
import { KINDS } from "../../../src/core/bundle/types.ts";
import type { Kind, Side } from "../../../src/core/bundle/types.ts";

/** Highest run ordinal the world's histories use. */
export const MAX_WORLD_RUN = 8;

/** One observation: `source` saw `kind` in this cell on its run `run`. */
export interface Observation {
  kind: Kind;
  source: string;
  run: number;
}

/** A cell of the world: its grid position, side and everything ever observed there. */
export interface WorldCell {
  ix: number;
  iz: number;
  side: Side;
  observations: Observation[];
}

/** The shared history every generated document is a snapshot of. */
export interface World {
  sources: string[];
  cells: WorldCell[];
}

/** A source id: 6 to 32 lowercase hex characters. */
export const sourceIdArb: fc.Arbitrary<string> = fc.string({
  unit: fc.constantFrom(..."0123456789abcdef"),
  minLength: 6,
  maxLength: 32,
});

const sideArb = fc.constantFrom<Side>("L", "R");
const kindArb = fc.constantFrom<Kind>(...KINDS);

/** A world of 1 to 3 sources and 1 to `maxCells` distinct cells, each observed at least once. */
export function worldArb(maxCells = 25): fc.Arbitrary<World> {
  return fc.record({
    sources: fc.uniqueArray(sourceIdArb, { minLength: 1, maxLength: 3 }),
    cells: fc.uniqueArray(
      fc.record({
        ix: fc.integer({ min: -30, max: 30 }),
        iz: fc.integer({ min: -30, max: 30 }),
        side: sideArb,
      }),
      { minLength: 1, maxLength: maxCells, selector: (c) => `${c.ix},${c.iz},${c.side}` },
    ),
  }).chain((w) =>
    fc.array(
      fc.array(
        fc.record({
          kind: kindArb,
          source: fc.constantFrom(...w.sources),
          run: fc.integer({ min: 1, max: MAX_WORLD_RUN }),
        }),
        { minLength: 1, maxLength: 6 },
      ),
      { minLength: w.cells.length, maxLength: w.cells.length },
    ).map((observations) => ({
      sources: w.sources,
      cells: w.cells.map((c, i) => ({ ...c, observations: observations[i] })),
    }))
  );
}

/** The [count, last_run] a source holds for a kind in a cell, seen up to run `upTo`. */
export function entryAt(
  cell: WorldCell,
  kind: Kind,
  source: string,
  upTo: number,
): [number, number] | null {
  const runs = new Set<number>();
  for (const o of cell.observations) {
    if (o.kind === kind && o.source === source && o.run <= upTo) runs.add(o.run);
  }
  if (runs.size === 0) return null;
  return [runs.size, Math.max(...runs)];
}

const fraction = fc.double({ min: -0.45, max: 0.45, noNaN: true });
const unitArb = fc.double({ min: -1, max: 1, noNaN: true });
const pointArb = fc.record({
  x: fc.double({ min: -1000, max: 1000, noNaN: true }),
  z: fc.double({ min: -1000, max: 1000, noNaN: true }),
});

/** How one snapshot sees the world; everything a document varies in besides the history. */
const snapshotArb = (world: World) =>
  fc.record({
    track: fc.constantFrom("Lago Maggiore", "Test Ring", "Nürburgring"),
    seen: fc.array(fc.integer({ min: 0, max: MAX_WORLD_RUN }), {
      minLength: world.sources.length,
      maxLength: world.sources.length,
    }),
    listRuns: fc.array(fc.boolean(), {
      minLength: world.sources.length,
      maxLength: world.sources.length,
    }),
    cells: fc.array(
      fc.record({
        present: fc.boolean(),
        dx: fraction,
        dz: fraction,
        y: fc.option(fc.double({ min: -100, max: 500, noNaN: true }), { nil: null }),
        hx: unitArb,
        hz: unitArb,
        tw: fc.option(fc.double({ min: 0.8, max: 2.4, noNaN: true }), { nil: null }),
        run: fc.integer({ min: 0, max: MAX_WORLD_RUN }),
        staleKind: kindArb,
      }),
      { minLength: world.cells.length, maxLength: world.cells.length },
    ),
    finish: fc.array(
      fc.record({ at: pointArb, lap: fc.integer({ min: 0, max: 50 }) }),
      { maxLength: 6 },
    ),
    corners: fc.array(
      fc.record({
        name: fc.string({ maxLength: 10 }),
        direction: fc.constantFrom<"L" | "R" | "" | null>("L", "R", "", null),
        apex: pointArb,
      }),
      { maxLength: 3 },
    ),
    sections: fc.array(
      fc.record({ name: fc.string({ maxLength: 10 }), start: pointArb, end: pointArb }),
      {
        maxLength: 2,
      },
    ),
    official: fc.option(
      fc.record({
        track: fc.constantFrom("Lago Maggiore"),
        turns: fc.integer({ min: 0, max: 30 }),
      }),
      { nil: null },
    ),
  });

/** A raw v4 document (plain JSON) that is one snapshot of `world`. */
export function v4DocArb(world: World): fc.Arbitrary<Record<string, unknown>> {
  return snapshotArb(world).map((s) => {
    const edges: Record<string, unknown>[] = [];
    world.cells.forEach((cell, i) => {
      const c = s.cells[i];
      if (!c.present) return;
      const votes: Record<string, Record<string, [number, number]>> = {};
      for (const kind of KINDS) {
        world.sources.forEach((source, k) => {
          const entry = entryAt(cell, kind, source, s.seen[k]);
          if (entry !== null) (votes[kind] ??= {})[source] = entry;
        });
      }
      if (Object.keys(votes).length === 0) return;
      edges.push({
        x: cell.ix + c.dx,
        z: cell.iz + c.dz,
        y: c.y,
        hx: c.hx,
        hz: c.hz,
        side: cell.side,
        kind: c.staleKind,
        votes,
        run: c.run,
        tw: c.tw,
      });
    });
    const sourceRuns: Record<string, number> = {};
    world.sources.forEach((source, k) => {
      if (s.listRuns[k]) sourceRuns[source] = s.seen[k];
    });
    return {
      format: "sim-datalogger-track-bundle",
      version: 4,
      meta: {
        track: s.track,
        runs: 0,
        source_runs: sourceRuns,
        updated_at: "2024-01-01T00:00:00.000000+00:00",
        official: s.official,
      },
      edges,
      finish_crossings: s.finish.map((f) => ({ x: f.at.x, z: f.at.z, hx: 0, hz: 1, lap: f.lap })),
      corners: s.corners,
      sections: s.sections,
    };
  });
}

/** A world and `n` raw v4 documents that are snapshots of it. */
export function v4DocsArb(n: number, maxCells = 25) {
  return worldArb(maxCells).chain((world) =>
    fc.tuple(...Array.from({ length: n }, () => v4DocArb(world)))
  );
}

/** A raw v1 document: records keyed by (cell, side, kind), several kinds may share a cell. */
export const v1DocArb: fc.Arbitrary<Record<string, unknown>> = fc.record({
  runs: fc.integer({ min: 0, max: 50 }),
  records: fc.array(
    fc.record({
      ix: fc.integer({ min: -10, max: 10 }),
      iz: fc.integer({ min: -10, max: 10 }),
      dx: fraction,
      dz: fraction,
      hx: unitArb,
      hz: unitArb,
      side: sideArb,
      kind: kindArb,
    }),
    { maxLength: 30 },
  ),
}).map((d) => ({
  format: "sim-datalogger-track-bundle",
  version: 1,
  meta: { track: "Old Ring", runs: d.runs, updated_at: "2023-05-01T00:00:00" },
  edges: d.records.map((r) => ({
    x: r.ix + r.dx,
    z: r.iz + r.dz,
    hx: r.hx,
    hz: r.hz,
    side: r.side,
    kind: r.kind,
  })),
  finish_crossings: [],
}));

/** A raw v2 or v3 document: one record per (cell, side), votes without sources. */
export const legacyDocArb: fc.Arbitrary<Record<string, unknown>> = fc.record({
  version: fc.constantFrom(2, 3),
  runs: fc.integer({ min: 0, max: 50 }),
  cells: fc.uniqueArray(
    fc.record({
      ix: fc.integer({ min: -10, max: 10 }),
      iz: fc.integer({ min: -10, max: 10 }),
      side: sideArb,
      votes: fc.dictionary(
        kindArb,
        fc.tuple(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 20 })),
        {
          minKeys: 1,
          maxKeys: 3,
        },
      ),
      y: fc.option(fc.double({ min: -100, max: 500, noNaN: true }), { nil: null }),
      run: fc.integer({ min: 0, max: 20 }),
      tw: fc.option(fc.double({ min: 0.8, max: 2.4, noNaN: true }), { nil: null }),
      kind: fc.constantFrom("wall", "runoff", "edge", "auto", "straddle", "grass"),
    }),
    { maxLength: 30, selector: (c) => `${c.ix},${c.iz},${c.side}` },
  ),
}).map((d) => ({
  format: "sim-datalogger-track-bundle",
  version: d.version,
  meta: { track: "Middle Ring", runs: d.runs, updated_at: "2023-09-01T00:00:00" },
  edges: d.cells.map((c) => ({
    x: c.ix + 0.25,
    z: c.iz - 0.25,
    ...(d.version === 3 ? { y: c.y } : {}),
    hx: 0,
    hz: 1,
    side: c.side,
    kind: c.kind,
    votes: c.votes,
    run: c.run,
    tw: c.tw,
  })),
  finish_crossings: [{ x: 1.5, z: 2.5, hx: 0, hz: 1, lap: 2 }],
}));

// Hand-written documents for example tests.

/** The format constant, spelled out so tests do not trust the constant under test. */
export const FORMAT = "sim-datalogger-track-bundle";

/** A source id for "this installation". */
export const ME = "a1b2c3d4e5f6";
/** A source id for another installation. */
export const FRIEND = "f0e1d2c3b4a5";

/** A raw v4 document of `cells` cells along x at z = 0, side L, auto votes by `source` at `run`. */
export function v4Doc(
  cells: number,
  opts: { source?: string; run?: number; count?: number; track?: string } = {},
): Record<string, unknown> {
  const source = opts.source ?? ME;
  const run = opts.run ?? 4;
  const count = opts.count ?? run;
  return {
    format: FORMAT,
    version: 4,
    meta: {
      track: opts.track ?? "Test Ring",
      runs: run,
      source_runs: { [source]: run },
      updated_at: "2024-01-01T00:00:00.000000+00:00",
      official: null,
    },
    edges: Array.from({ length: cells }, (_, i) => ({
      x: i * 1.0,
      z: 0.0,
      y: 12.5,
      hx: 1.0,
      hz: 0.0,
      side: "L",
      kind: "auto",
      votes: { auto: { [source]: [count, run] } },
      run: 1,
      tw: 1.6,
    })),
    finish_crossings: [],
    corners: [],
    sections: [],
  };
}

/** A raw v2 (or v3) document of `cells` cells along x, the last one moved by `lastX`. */
export function legacyDoc(
  cells: number,
  opts: { version?: 2 | 3; lastX?: number; runs?: number } = {},
): Record<string, unknown> {
  return {
    format: FORMAT,
    version: opts.version ?? 2,
    meta: { track: "Old Ring", runs: opts.runs ?? 3, updated_at: "2023-01-01T00:00:00" },
    edges: Array.from({ length: cells }, (_, i) => ({
      x: i === cells - 1 && opts.lastX !== undefined ? opts.lastX : i * 1.0,
      z: 5.0,
      ...(opts.version === 3 ? { y: 3.25 } : {}),
      hx: 0.0,
      hz: 1.0,
      side: "R",
      kind: "auto",
      votes: { auto: [2, 3] },
      run: 1,
      tw: null,
    })),
    finish_crossings: [{ x: 0.0, z: 5.0, hx: 0.0, hz: 1.0, lap: 2.0 }],
  };
}

/** A deep copy of a raw document, to edit one field of. */
export function clone<T>(value: T): T {
  return structuredClone(value);
}
