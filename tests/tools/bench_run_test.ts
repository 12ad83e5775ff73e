/**
 * `deno task bench` says how long it takes and how to run the long suites,
 * and runs the quick ones by default: the list and the minutes it states are
 * the ones docs/performance.md and the README give.
 */
import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { benchSuites, LONG_SUITES, MINUTES, startLine } from "../../bench/_run.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const read = (path: string) => Deno.readTextFileSync(join(ROOT, path));

Deno.test("deno task bench runs the runner, which states its length before anything else", () => {
  const tasks = JSON.parse(read("deno.json")).tasks;
  assert.equal(tasks.bench, "deno run -A bench/_run.ts");
  assert.equal(
    startLine(false),
    `bench: the quick suites, about ${MINUTES.quick} minutes on two cores; BENCH_LONG=1 runs ` +
      `every suite in full (about ${MINUTES.long} minutes; docs/performance.md, ` +
      `"Running the benchmarks")`,
  );
  assert.equal(
    startLine(true),
    `bench: every suite in full, about ${MINUTES.long} minutes on two cores`,
  );
  assert.ok(MINUTES.quick < 5, "the default run stays under five minutes");
});

Deno.test("the default run leaves out exactly the long suites; BENCH_LONG=1 runs every one", () => {
  const files = [...Deno.readDirSync(join(ROOT, "bench"))].map((e) => `bench/${e.name}`);
  const all = files.filter((f) => f.endsWith("_bench.ts")).sort();
  for (const name of LONG_SUITES) assert.ok(existsSync(join(ROOT, "bench", name)), name);
  assert.deepEqual(benchSuites(files, true), all);
  assert.deepEqual(
    benchSuites(files, false),
    all.filter((f) => !LONG_SUITES.some((name) => f === `bench/${name}`)),
  );
  assert.ok(!benchSuites(files, true).includes("bench/_run.ts"), "helpers are not suites");
});

Deno.test("docs/performance.md and the README give the run's minutes and the long suites", () => {
  const perf = read("docs/performance.md");
  assert.ok(perf.includes(`about ${MINUTES.quick} minutes`), "quick minutes in performance.md");
  assert.ok(perf.includes(`about ${MINUTES.long} minutes`), "long minutes in performance.md");
  for (const name of LONG_SUITES) assert.ok(perf.includes(`\`bench/${name}\``), name);
  const readme = read("README.md");
  assert.ok(readme.includes(`about ${MINUTES.quick} minutes`), "quick minutes in the README");
  assert.ok(readme.includes("BENCH_LONG=1"), "the README names the long run");
});
