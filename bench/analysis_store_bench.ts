/**
 * Bests and lap lists over a store of 10,000 laps.
 *
 * Target (issue 14): the bests of every circuit and car over 10,000 stored
 * laps <= 50 ms, from an index in KV, never a scan of samples. The store is
 * a database file in a temporary directory (as a logger keeps it), filled
 * through `saveLap` and `updateSession` so the index is what their commits
 * wrote: 1,000 sessions of 10 laps over 25 circuits and 4 cars (100 bests),
 * one lap in 20 incomplete, one session in 23 excluded from bests. Figures
 * are printed (median of 30 runs after 5 warm-up runs) before the
 * Deno.bench table; so are the lap list (`GET /api/laps`, which reads every
 * lap's row) and the time a lap's write took with the index kept.
 *
 * Filling 10,000 laps into a store on disk takes minutes on two cores (each
 * write is a commit), so the default run fills 2,000 (200 sessions: still
 * every circuit and car); BENCH_LONG=1 fills the 10,000 the target names.
 *
 * @module
 */
import { join } from "node:path";
import { createApp } from "../src/app/create_app.ts";
import { saveLap } from "../src/storage/laps.ts";
import { openStore } from "../src/storage/kv.ts";
import { updateSession } from "../src/storage/sessions.ts";
import { lineSamples, testLap, testSession } from "../tests/_stored_laps.ts";
import { medianMsAsync } from "./_median.ts";
import { LONG } from "./_long.ts";

const BESTS_TARGET_MS = 50;
const CIRCUITS = 25;
const CARS = 4;
const SESSIONS = LONG ? 1000 : 200;
const LAPS_PER_SESSION = 10;
const RUNS = 30;
const WARMUP = 5;
/** Sessions filled at once. */
const PARALLEL = 8;

const dir = await Deno.makeTempDir({ prefix: "analysis-store-bench-" });
const kv = await openStore(dir);
const app = await createApp({ kv });

const samples = lineSamples(8);
let writes = 0;
let writeMs = 0;
const fillStart = performance.now();
for (let first = 0; first < SESSIONS; first += PARALLEL) {
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, SESSIONS - first) }, async (_, j) => {
      const k = first + j;
      const car = 1 + (k % CARS);
      const s = await testSession(kv, `Circuit ${Math.floor(k / CARS) % CIRCUITS}`, car);
      for (let n = 0; n < LAPS_PER_SESSION; n++) {
        const lap = testLap(samples, {
          car_id: car,
          number: n + 1,
          time_ms: 60_000 + ((k * 7919 + n * 104_729) % 30_000),
          complete: (k * LAPS_PER_SESSION + n) % 20 !== 0,
        });
        const t = performance.now();
        await saveLap(kv, s.id, lap);
        writeMs += performance.now() - t;
        writes++;
      }
      if (k % 23 === 5) await updateSession(kv, s.id, (x) => ({ ...x, bests_excluded: true }));
    }),
  );
}
const fillS = (performance.now() - fillStart) / 1000;

/** Median ms of RUNS awaited calls after WARMUP untimed ones. */
const median = (fn: () => Promise<unknown>) => medianMsAsync(fn, RUNS, WARMUP);

const bests = await app.sessions.bests();
if (bests.length !== CIRCUITS * CARS) throw new Error(`${bests.length} bests`);
const counted = bests.reduce((n, b) => n + b.laps_behind + 1, 0);
const listed = await app.sessions.listAcross({ order: "time", limit: 100 });
if (listed.length !== 100) throw new Error(`${listed.length} laps listed`);

const bestsMs = await median(() => app.sessions.bests());
const listMs = await median(() => app.sessions.listAcross({ order: "time", limit: 100 }));
const circuitMs = await median(() => app.sessions.listAcross({ track: "Circuit 7" }));
console.log(
  `filled ${writes} laps in ${SESSIONS} sessions in ${fillS.toFixed(1)} s ` +
    `(a lap's write with the index: ${(writeMs / writes).toFixed(2)} ms mean, ${PARALLEL} at once)`,
);
console.log(
  `bests over ${writes} stored laps (${bests.length} circuit and car pairs, ${counted} laps ` +
    `counting): ${bestsMs.toFixed(2)} ms (target <= ${BESTS_TARGET_MS} ms over 10,000, ${
      LONG ? (bestsMs <= BESTS_TARGET_MS ? "ok" : "OVER TARGET") : "BENCH_LONG=1 fills 10,000"
    })`,
);
console.log(
  `lap list over ${writes} laps, fastest 100: ${listMs.toFixed(1)} ms; ` +
    `one circuit's laps: ${circuitMs.toFixed(1)} ms`,
);

Deno.bench(`bests over ${writes} stored laps`, async () => {
  await app.sessions.bests();
});

Deno.bench(`lap list over ${writes} stored laps, fastest 100`, async () => {
  await app.sessions.listAcross({ order: "time", limit: 100 });
});

globalThis.addEventListener("unload", () => {
  kv.close();
  Deno.removeSync(join(dir), { recursive: true });
});
