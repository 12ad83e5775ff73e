/**
 * Track identification speed.
 *
 * Targets (issue 7): identifying one lap against 200 stored bundles with
 * their fingerprints cached <= 5 ms; building the fingerprint of a
 * 50,000-edge bundle <= 50 ms. The 200 bundles are 20 synthetic circuits,
 * each laid down at 10 angles about the origin, so every bundle overlaps the
 * lap's area and none can be skipped by its bounding box (the worst case:
 * real GT7 circuits share one coordinate range too). The lap is a recorded
 * 60 Hz synthetic lap (5,647 samples). Figures are printed (median of 20
 * runs after a warm-up) before the Deno.bench table.
 *
 * @module
 */
import { tableBundleOf } from "../src/core/bundle/table_convert.ts";
import { createApp } from "../src/app/create_app.ts";
import type { BundleCandidate } from "../src/core/identify/bundle_match.ts";
import { buildFingerprint } from "../src/core/identify/fingerprint.ts";
import { identifyTrace } from "../src/core/identify/identify.ts";
import { generateCircuit } from "../src/core/synthetic/circuit.ts";
import type { BundleV4 } from "../src/core/bundle/types.ts";
import { updateBundle } from "../src/storage/bundles.ts";
import { borderPoints, syntheticLaps, TEST_SOURCE } from "../tests/core/identify/_laps.ts";
import { medianMs, medianMsAsync } from "./_median.ts";

const IDENTIFY_TARGET_MS = 5;
const BUILD_TARGET_MS = 50;
const RUNS = 20;

const lap = syntheticLaps(1)[0].samples;

type Point = { x: number; z: number; side: "L" | "R" };
const circuits: Point[][] = Array.from(
  { length: 20 },
  (_, i) => borderPoints(generateCircuit(i + 1)),
);

function rotated(points: Point[], angle: number, step = 1): Point[] {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const out: Point[] = [];
  for (let i = 0; i < points.length; i += step) {
    const p = points[i];
    out.push({ x: p.x * c - p.z * s, z: p.x * s + p.z * c, side: p.side });
  }
  return out;
}

// Bundle 0 is the lap's own circuit as laid; the rest are the others turned about the origin.
const layouts = Array.from(
  { length: 200 },
  (_, k) => ({ circuit: k % 20, angle: Math.floor(k / 20) * (2 * Math.PI / 10) }),
);
const candidates: BundleCandidate[] = layouts.map(({ circuit, angle }, k) => ({
  slug: `b${k}`,
  track: `Bundle ${k}`,
  fingerprint: buildFingerprint(rotated(circuits[circuit], angle)),
}));

/** Median ms of `runs` calls after one untimed call. */
const median = (fn: () => void, runs = RUNS) => medianMs(fn, runs, 1);
/** The same for awaited work. */
const medianAsync = (fn: () => Promise<unknown>, runs = RUNS) => medianMsAsync(fn, runs, 1);

// The core match: signatures (none) then all 200 fingerprints.
const found = identifyTrace(lap, [], candidates);
if (found?.name !== "Bundle 0") throw new Error(`the lap matched ${found?.name}, not Bundle 0`);
const matchMs = median(() => identifyTrace(lap, [], candidates));

// The same through the app: 200 bundles stored in KV, fingerprints cached.
const kv = await Deno.openKv(":memory:");
const app = await createApp({ kv });
for (const [k, { circuit, angle }] of layouts.entries()) {
  // Every 5th metre of border is enough to occupy the same 20 m cells, and quick to store.
  const edges = rotated(circuits[circuit], angle, 5).map((p) => ({
    x: p.x,
    z: p.z,
    y: null,
    hx: 0,
    hz: 0,
    side: p.side,
    kind: "auto" as const,
    votes: { auto: { [TEST_SOURCE]: [1, 1] as [number, number] } },
    run: 1,
    tw: null,
  }));
  const doc: BundleV4 = {
    format: "sim-datalogger-track-bundle",
    version: 4,
    meta: {
      track: `Bundle ${k}`,
      runs: 1,
      source_runs: { [TEST_SOURCE]: 1 },
      updated_at: "2026-11-21T12:00:00.000Z",
      official: null,
    },
    edges,
    finish_crossings: [],
    corners: [],
    sections: [],
  };
  await updateBundle(kv, `bundle-${k}`, () => ({ bundle: tableBundleOf(doc), result: null }));
}
const cache = app.tracks.fingerprints;
await cache.candidates();
const builds = cache.builds;
const viaApp = await app.tracks.identifyLap(lap);
if (viaApp?.name !== "Bundle 0") throw new Error(`the app matched ${viaApp?.name}`);
const appMs = await medianAsync(() => app.tracks.identifyLap(lap));
if (cache.builds !== builds) throw new Error("a cached lookup rebuilt fingerprints");

// Fingerprint build of a 50,000-edge bundle: 7 circuits' borders, 1 m apart.
const big = circuits.slice(0, 7).flat().slice(0, 50_000);
if (big.length !== 50_000) throw new Error(`only ${big.length} edges`);
const buildMs = median(() => buildFingerprint(big));
const bigCells = buildFingerprint(big).cells;

const verdict = (ms: number, target: number) => (ms <= target ? "ok" : "OVER TARGET");
console.log(
  `identify one lap (${lap.t.length} samples, 600 positions tested) against 200 fingerprints: ` +
    `${matchMs.toFixed(2)} ms (target <= ${IDENTIFY_TARGET_MS} ms, ${
      verdict(matchMs, IDENTIFY_TARGET_MS)
    })`,
);
console.log(
  `  the same through the app (signatures and 200 bundle heads read from KV, fingerprints cached): ` +
    `${appMs.toFixed(2)} ms (${verdict(appMs, IDENTIFY_TARGET_MS)})`,
);
console.log(
  `fingerprint build of a 50,000-edge bundle (${bigCells} cells of 20 m): ` +
    `${buildMs.toFixed(2)} ms (target <= ${BUILD_TARGET_MS} ms, ${
      verdict(buildMs, BUILD_TARGET_MS)
    })`,
);

Deno.bench("identify one lap against 200 cached fingerprints", () => {
  identifyTrace(lap, [], candidates);
});
Deno.bench("identify one lap through the app, 200 stored bundles, cache warm", async () => {
  await app.tracks.identifyLap(lap);
});
Deno.bench("fingerprint of a 50,000-edge bundle", () => {
  buildFingerprint(big);
});
