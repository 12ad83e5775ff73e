/**
 * Large synthetic bundles for the storage, app and server tests, the crash
 * tests (tests/hardening/crash_bundle_import_test.ts) and the benchmark.
 * The crash tests' child process is tests/hardening/_crash_bundle_child.ts.
 *
 * @module
 */
import { type Kind, KINDS } from "../src/core/bundle/types.ts";
import { seededRandom } from "./_random.ts";

function round(value: number, dp: number): number {
  const f = 10 ** dp;
  return Math.round(value * f) / f;
}

/** How to generate a bundle. */
export interface SyntheticBundleOptions {
  /** Number of distinct cells (edges). */
  cells: number;
  /** Source ids voting in this document; each cell gets votes from 1 to all of them. */
  sources: string[];
  /** Highest run of every source; votes use runs 1..runs. */
  runs: number;
  /** PRNG seed: equal seeds give equal documents. */
  seed: number;
  /** meta.track. */
  track?: string;
  /** Shift of every x within its cell, 0 to 0.25 (keeps the cell, changes first-seen x). */
  dx?: number;
  /** First cell index; cells `first .. first + cells - 1` are laid. */
  first?: number;
}

/**
 * A raw v4 document of `cells` distinct cells laid row by row on the 1 m
 * grid (250 cells a row, both sides), with survey-like values: x, z and y
 * to 3 dp, headings to 5 dp, tw to 3 dp, and per cell 1 to 3 kinds voted by
 * 1 to all sources with valid [count, last_run] entries. Cell `i` is the
 * same metre in every document, whatever the seed, so documents with
 * different seeds overlap exactly on their common cell indexes.
 */
export function syntheticBundle(opts: SyntheticBundleOptions): Record<string, unknown> {
  const random = seededRandom(opts.seed);
  const first = opts.first ?? 0;
  const dx = opts.dx ?? 0;
  const edges: Record<string, unknown>[] = [];
  for (let i = first; i < first + opts.cells; i++) {
    const k = Math.floor(i / 2);
    const votes: Partial<Record<Kind, Record<string, [number, number]>>> = {};
    const kinds = 1 + Math.floor(random() * 3);
    for (let j = 0; j < kinds; j++) {
      const kind = KINDS[Math.floor(random() * KINDS.length)];
      const bySource = votes[kind] ?? (votes[kind] = {});
      for (const source of opts.sources) {
        if (source !== opts.sources[0] && random() < 0.4) continue;
        const lastRun = 1 + Math.floor(random() * opts.runs);
        bySource[source] = [1 + Math.floor(random() * lastRun), lastRun];
      }
    }
    const heading = random() * 2 * Math.PI;
    edges.push({
      x: round((k % 250) + 0.05 + dx + random() * 0.15, 3),
      z: round(Math.floor(k / 250) * 2 + (i % 2) + random() * 0.3, 3),
      y: round(20 + random() * 30, 3),
      hx: round(Math.cos(heading), 5),
      hz: round(Math.sin(heading), 5),
      side: i % 2 === 0 ? "L" : "R",
      kind: "auto",
      votes,
      run: 1 + Math.floor(random() * opts.runs),
      tw: round(1.5 + random() * 0.4, 3),
    });
  }
  const sourceRuns: Record<string, number> = {};
  for (const source of opts.sources) sourceRuns[source] = opts.runs;
  return {
    format: "sim-datalogger-track-bundle",
    version: 4,
    meta: {
      track: opts.track ?? "Crash Test Ring",
      runs: opts.runs * opts.sources.length,
      source_runs: sourceRuns,
      updated_at: "2026-01-01T00:00:00.000Z",
      official: null,
    },
    edges,
    finish_crossings: [{ x: 0.5, z: 0.5, hx: 1, hz: 0, lap: 2 }],
    corners: [],
    sections: [],
  };
}
