/**
 * The hub under load, a real `hub` process on PGlite in a temporary data
 * folder (or on the server DATABASE_URL names): first 100,000 generated
 * laps (20 circuits, 10 cars, 50 drivers) and the leaderboard and lap list
 * over them (target < 50 ms each); then 50 simulated loggers pushing 20
 * laps of 6,000 samples each at once (HUB_BENCH_LOGGERS, HUB_BENCH_LAPS;
 * fewer without BENCH_LONG=1), in HUB_BENCH_ROUNDS rounds of new laps: every
 * lap stored exactly once, throughput and p95 push time per round; the
 * hub's resident memory (VmRSS) and V8 heap (after its last full GC, from
 * the hub's own --trace-gc lines) before, after each round, and after a
 * pause, so a leak (growing round over round) shows apart from a high-water
 * mark (reached in the first round, then flat).
 *
 * @module
 */
import { join } from "node:path";
import { HubApp } from "../src/app/hub/hub_app.ts";
import { ADMIN_NAME } from "../src/app/hub/principal.ts";
import { REQUIRED_COLUMNS } from "../src/core/laps/columns.ts";
import { openHubStore } from "../src/storage/hub/open_store.ts";
import { openPostgres } from "../src/storage/hub/postgres_port.ts";
import { REBUILD_BESTS_SQL } from "../src/storage/hub/bests.ts";
import { benchLength } from "./_long.ts";

const LOGGERS = benchLength("HUB_BENCH_LOGGERS", 10, 50);
const LAPS = benchLength("HUB_BENCH_LAPS", 5, 20);
const GENERATED = benchLength("HUB_BENCH_GENERATED", 100_000, 100_000);
const ROUNDS = benchLength("HUB_BENCH_ROUNDS", 2, 3);
const SAMPLES = 6000;
/** Idle time after a round before memory is read again: past V8's memory reducer (a full GC some 8 s after allocation stops). */
const PAUSE_MS = 10_000;
const ADMIN_TOKEN = "bench-admin-token-0123456789";
const database = Deno.env.get("DATABASE_URL") ?? null;
const data = await Deno.makeTempDir({ prefix: "hub-bench-" });

/** A complete lap of `SAMPLES` ticks, its values set by `seed` so every lap's content differs. */
function lapFile(seed: number, round: number): string {
  const samples = Object.fromEntries(REQUIRED_COLUMNS.map((c, k) => [
    c,
    Array.from(
      { length: SAMPLES },
      (_, i) => c === "t" ? (i + 1) / 60 : Math.round((i * (k + 1) + seed) % 997) / 7,
    ),
  ]));
  return JSON.stringify({
    format: "sim-datalogger-lap",
    version: 2,
    lap: {
      number: 1,
      time_ms: 100_000 - (seed % 5),
      track_name: `Bench Ring ${round}`,
      car_id: 7,
      samples,
    },
  });
}

// The team, and the generated laps, written before the hub starts (PGlite has one process).
const db = await openHubStore({ database, dataDir: data });
const app = new HubApp({ db });
await app.ensureTeam(ADMIN_TOKEN);
const tokens: string[] = [];
for (let d = 0; d < 50; d++) {
  tokens.push((await app.addDriver({ name: ADMIN_NAME, admin: true }, `driver-${d}`)).token);
}
const t = performance.now();
await db.exec(`
  insert into hub_laps (driver, content_hash, circuit, track_name, car_id, time_ms, finished_at,
    complete, sector_ms, fields, samples)
  select 'driver-' || (i % 50), md5(i::text), 'circuit-' || (i % 20), 'Circuit ' || (i % 20),
    i % 10, 90000 + (i * 7919) % 20000,
    to_char(timestamp '2026-01-01' + i * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"'),
    i % 10 <> 0, jsonb_build_array(30000 + i % 500, 30000 + i % 700, 30000 + i % 300),
    '{}'::jsonb, '\\x00'::bytea
  from generate_series(1, ${GENERATED}) as i;
  ${REBUILD_BESTS_SQL}
  analyze hub_laps;
  analyze hub_bests;
`);
console.log(`${GENERATED} laps generated in ${((performance.now() - t) / 1000).toFixed(1)} s`);
await db.close();

const args = [
  "run",
  "-A",
  "--v8-flags=--trace-gc",
  join(import.meta.dirname!, "..", "main.ts"),
  "hub",
  "--port",
  "0",
];
args.push("--data", data, ...(database ? ["--database", database] : []));
const hub = new Deno.Command(Deno.execPath(), { args, stdout: "piped", stderr: "inherit" }).spawn();
const lines = hub.stdout.pipeThrough(new TextDecoderStream()).getReader();
let url = "";
let text = "";
while (!url) {
  const { value, done } = await lines.read();
  if (done) throw new Error(`the hub stopped before listening: ${text}`);
  text += value;
  url = /listening on (http:\/\/\S+)/.exec(text)?.[1] ?? "";
}
/** V8 heap used after the hub's latest full GC, MB (its --trace-gc "Mark-Compact a (b) -> c (d) MB"). */
let heapMb = NaN;
/** Full GCs the hub reported so far. */
let fullGcs = 0;
// The hub's output is read to its end: a full pipe would stall the hub's writes, and so the hub.
const drained = (async () => {
  for (;;) {
    const { value, done } = await lines.read();
    if (done) return;
    // A GC line may be cut across reads: only whole lines are read, the rest waits for the next read.
    const whole = (text + value).split("\n");
    text = whole.pop()!;
    for (const line of whole) {
      const m = /Mark-Compact.*?-> ([\d.]+) \(/.exec(line);
      if (m) [heapMb, fullGcs] = [Number(m[1]), fullGcs + 1];
    }
  }
})();

function rssMb(): number {
  const status = Deno.readTextFileSync(`/proc/${hub.pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** The hub's resident memory and V8 heap, one line. */
function memory(): string {
  return `RSS ${rssMb().toFixed(0)} MB, V8 heap after the last of ${fullGcs} full GCs ${
    heapMb.toFixed(0)
  } MB`;
}

async function get(path: string): Promise<unknown> {
  const res = await fetch(url + path, { headers: { authorization: `Bearer ${tokens[0]}` } });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return await res.json();
}

/** Median and worst of `runs` timed GETs of `path`, ms. */
async function timed(path: string, runs = 21): Promise<string> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await get(path);
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  return `median ${ms[runs >> 1].toFixed(1)} ms, worst ${ms[runs - 1].toFixed(1)} ms`;
}

// The queries alone, on a connection of the bench's own (a server only: PGlite has one process).
if (database) {
  const direct = new HubApp({ db: openPostgres(database) });
  const alone = async (what: string, fn: () => Promise<unknown>) => {
    const ms: number[] = [];
    for (let i = 0; i < 21; i++) {
      const start = performance.now();
      await fn();
      ms.push(performance.now() - start);
    }
    ms.sort((a, b) => a - b);
    console.log(
      `${what}, query alone: median ${ms[10].toFixed(1)} ms, worst ${ms[20].toFixed(1)} ms`,
    );
  };
  await alone("leaderboard", () => direct.leaderboard("circuit-3", null));
  await alone("leaderboard with a car", () => direct.leaderboard("circuit-3", 3));
  await alone("lap list at a circuit", () => direct.laps({ circuit: "circuit-3", limit: 100 }));
  await alone("lap list of a driver", () => direct.laps({ driver: "driver-7", limit: 100 }));
  await direct.db.close();
}
await get("/api/me");
console.log(
  `leaderboard over ${GENERATED} laps: ${await timed("/api/leaderboard?circuit=circuit-3")}`,
);
console.log(
  `leaderboard with a car: ${await timed("/api/leaderboard?circuit=circuit-3&car=3")}`,
);
console.log(`lap list (100 newest at a circuit): ${await timed("/api/laps?circuit=circuit-3")}`);
console.log(`lap list of a driver: ${await timed("/api/laps?driver=driver-7&limit=100")}`);

console.log(`hub memory before the pushes: ${memory()}`);
for (let round = 1; round <= ROUNDS; round++) await pushRound(round);
console.log(`leaderboard afterwards: ${await timed("/api/leaderboard?circuit=circuit-3")}`);
hub.kill("SIGTERM");
await hub.status;
await drained;
await Deno.remove(data, { recursive: true });

/** One round: every logger pushes its laps at once, each lap new; prints what was stored and the memory. */
async function pushRound(round: number): Promise<void> {
  const times: number[] = [];
  const start = performance.now();
  await Promise.all(Array.from({ length: LOGGERS }, async (_, d) => {
    for (let k = 0; k < LAPS; k++) {
      const body = lapFile(d * 1000 + k, round);
      const sent = performance.now();
      const res = await fetch(`${url}/api/laps`, {
        method: "POST",
        headers: { authorization: `Bearer ${tokens[d]}` },
        body,
      });
      await res.body?.cancel();
      if (res.status !== 201) throw new Error(`push ${round}/${d}/${k}: ${res.status}`);
      times.push(performance.now() - sent);
    }
  }));
  const seconds = (performance.now() - start) / 1000;
  times.sort((a, b) => a - b);
  const stored = await get(`/api/laps?circuit=bench-ring-${round}&limit=1000`) as {
    laps: unknown[];
  };
  console.log(
    `round ${round}: ${LOGGERS} loggers x ${LAPS} laps of ${SAMPLES} samples: ` +
      `${stored.laps.length} stored (expected ${LOGGERS * LAPS}), ` +
      `${(LOGGERS * LAPS / seconds).toFixed(1)} laps/s, ` +
      `p95 push ${times[Math.floor(times.length * 0.95)].toFixed(0)} ms`,
  );
  console.log(`round ${round}: hub memory right after: ${memory()}`);
  await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  console.log(`round ${round}: hub memory after ${PAUSE_MS / 1000} s idle: ${memory()}`);
}
