/**
 * `deno task bench`: says how long the run takes and how to run the long
 * suites, runs `deno bench` over the suites of this run, and says how long
 * it took. By default the quick suites, with each suite's searches cut to
 * one check of the target (see _long.ts): a few minutes on two cores. With
 * BENCH_LONG=1 every suite, each with its searches and full-length runs.
 * Files given as arguments are run instead (`deno task bench
 * bench/gt7_bench.ts`).
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LONG } from "./_long.ts";

/**
 * Suites left to BENCH_LONG=1: each spends a minute or more of paced traffic
 * or of filling a store on disk (docs/performance.md, "Running the
 * benchmarks").
 */
export const LONG_SUITES: readonly string[] = [
  "analysis_store_bench.ts",
  "engineer_bench.ts",
  "events_bench.ts",
  "hub_load_bench.ts",
  "lap_exchange_bench.ts",
  "live_stream_bench.ts",
  "relay_bench.ts",
  "udp_receive_bench.ts",
];

/**
 * Minutes the default run takes on two idle cores (measured), and the
 * BENCH_LONG=1 run (20 measured before the hub bench pushed three rounds,
 * which add about 5).
 */
export const MINUTES = { quick: 4, long: 25 } as const;

/**
 * The suites to run among `files` (names ending `_bench.ts`, any folder), in
 * name order: all of them when `long`, otherwise those not in
 * {@linkcode LONG_SUITES}.
 */
export function benchSuites(files: readonly string[], long: boolean): string[] {
  return files
    .filter((f) => f.endsWith("_bench.ts"))
    .filter((f) => long || !LONG_SUITES.includes(basename(f)))
    .sort();
}

/** The line the run starts with: how long it takes, and how to run the rest. */
export function startLine(long: boolean): string {
  return long
    ? `bench: every suite in full, about ${MINUTES.long} minutes on two cores`
    : `bench: the quick suites, about ${MINUTES.quick} minutes on two cores; ` +
      `BENCH_LONG=1 runs every suite in full (about ${MINUTES.long} minutes; ` +
      `docs/performance.md, "Running the benchmarks")`;
}

if (import.meta.main) {
  const here = dirname(fileURLToPath(import.meta.url));
  const given = Deno.args.filter((a) => !a.startsWith("-"));
  const suites = given.length > 0
    ? given
    : benchSuites([...Deno.readDirSync(here)].map((e) => join(here, e.name)), LONG);
  console.log(given.length > 0 ? `bench: ${given.join(" ")}` : startLine(LONG));
  const start = performance.now();
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["bench", "-A", ...Deno.args.filter((a) => a.startsWith("-")), ...suites],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  const s = Math.round((performance.now() - start) / 1000);
  console.log(`bench: done in ${Math.floor(s / 60)} min ${s % 60} s`);
  Deno.exit(code);
}
