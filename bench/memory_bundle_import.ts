/**
 * Peak resident memory of a real `serve` process importing 50,000-edge
 * bundles over HTTP (issue 19, target: <= 250 MB over the idle process).
 *
 * Starts `deno run -A main.ts serve` on a fresh data directory (a store on
 * disk, as a driver runs it) and a free loopback port, waits for it to
 * settle and reads its idle VmRSS (/proc/<pid>/status). Then it POSTs a
 * 50,000-edge bundle (the circuit is new), and the same 50,000-edge,
 * 3-source bundle as bench/bundle_bench.ts imports (every cell shared, so
 * each import merges all 50,000) several times back to back, each as soon
 * as the previous answered, while VmRSS and VmHWM are sampled every 10 ms.
 * The logger rebuilds the compiled geometry after every import, as it does
 * in use, so that is measured too. The peak is the larger of the highest
 * VmRSS sampled and VmHWM (the kernel's own high-water mark, which no
 * sampling gap can miss) read at the end.
 *
 * Prints "peak import memory over idle: N MB (target <= 250 MB)", with the
 * idle and peak figures, each import's time, and the memory after settling;
 * then the round trip of three more imports, each alone into the settled
 * process (what a driver importing one file sees).
 * Linux only (/proc). Usage:
 *
 *   deno run -A bench/memory_bundle_import.ts [--imports N] [--keep]
 *
 * `--keep` leaves the data directory behind for a look at the store.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { syntheticBundle } from "../tests/_bundles.ts";

const TARGET_MB = 250;
const SETTLE_MS = 3_000;
const READINGS = 5;
const SAMPLE_MS = 10;

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    imports: { type: "string", default: "5" },
    keep: { type: "boolean", default: false },
  },
});
const imports = Number(flags.imports);
if (!Number.isInteger(imports) || imports < 1 || imports > 50) {
  throw new Error("--imports must be 1..50");
}

const existingText = JSON.stringify(syntheticBundle({
  cells: 50_000,
  sources: ["a1b2c3d4e5f6"],
  runs: 12,
  seed: 11,
}));
const incomingText = JSON.stringify(syntheticBundle({
  cells: 50_000,
  sources: ["0badc0ffee01", "f0e1d2c3b4a5", "a1b2c3d4e5f6"],
  runs: 25,
  seed: 12,
  dx: 0.2,
}));

const root = fileURLToPath(new URL("../", import.meta.url));
const data = await Deno.makeTempDir({ prefix: "memory_bundle_import_" });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** VmRSS and VmHWM of `pid` in MB (MiB), from /proc. */
function memory(pid: number): { rss: number; hwm: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const field = (name: string) => {
    const kb = new RegExp(`^${name}:\\s+(\\d+) kB$`, "m").exec(status);
    if (!kb) throw new Error(`no ${name} in /proc/${pid}/status`);
    return Number(kb[1]) / 1024;
  };
  return { rss: field("VmRSS"), hwm: field("VmHWM") };
}

/** The median VmRSS of READINGS readings, one a second, after SETTLE_MS of quiet. */
async function settledRss(pid: number): Promise<number> {
  await sleep(SETTLE_MS);
  const readings: number[] = [];
  for (let i = 0; i < READINGS; i++) {
    if (i > 0) await sleep(1_000);
    readings.push(memory(pid).rss);
  }
  return median(readings);
}

const child = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", "main.ts", "serve", "--data", data, "--port", "0", "--udp-port", "0"],
  cwd: root,
  stdout: "piped",
  stderr: "inherit",
}).spawn();

const apiUrl = Promise.withResolvers<string>();
const reading = (async () => {
  let buffered = "";
  for await (const text of child.stdout.pipeThrough(new TextDecoderStream())) {
    buffered += text;
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) {
      const url = /API on (http:\/\/\S+?),?\s/.exec(`${line} `);
      if (url) apiUrl.resolve(url[1]);
    }
  }
})();

/** POSTs `body` to the import route; returns the milliseconds it took to answer. */
async function importBundle(base: string, body: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/api/track-bundles/import`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  const answer = await res.json();
  if (res.status !== 200 || answer.edges !== 50_000) {
    throw new Error(`import answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
  }
  return performance.now() - started;
}

let sampling = true;
let peakRss = 0;
try {
  const base = await Promise.race([
    apiUrl.promise,
    child.status.then((s) => Promise.reject(new Error(`serve exited with ${s.code}`))),
  ]);
  const idle = await settledRss(child.pid);
  const sampler = (async () => {
    while (sampling) {
      peakRss = Math.max(peakRss, memory(child.pid).rss);
      await sleep(SAMPLE_MS);
    }
  })();
  const first = await importBundle(base, existingText);
  const times: number[] = [];
  for (let i = 0; i < imports; i++) times.push(await importBundle(base, incomingText));
  // The geometry rebuilt after the last import still counts.
  await sleep(2_000);
  sampling = false;
  await sampler;
  const peak = Math.max(peakRss, memory(child.pid).hwm);
  const after = await settledRss(child.pid);
  // One more import into the settled process, alone: the round trip a driver sees.
  const alone: number[] = [];
  for (let i = 0; i < 3; i++) {
    alone.push(await importBundle(base, incomingText));
    await sleep(SETTLE_MS);
  }
  console.log(
    `serve on a store on disk: 50,000-edge bundle imported (${first.toFixed(0)} ms), then ` +
      `the 50,000-edge 3-source bundle merged into it ${imports} times back to back ` +
      `(${times.map((t) => t.toFixed(0)).join(", ")} ms, HTTP round trip)`,
  );
  console.log(
    `idle ${idle.toFixed(1)} MB; peak ${peak.toFixed(1)} MB (VmHWM and VmRSS every ` +
      `${SAMPLE_MS} ms); settled after ${after.toFixed(1)} MB`,
  );
  console.log(
    `peak import memory over idle: ${(peak - idle).toFixed(0)} MB (target <= ${TARGET_MB} MB)`,
  );
  console.log(
    `one import over HTTP into the settled serve, ${SETTLE_MS / 1000} s apart: ` +
      `${alone.map((t) => t.toFixed(0)).join(", ")} ms (round trip, store on disk)`,
  );
} finally {
  sampling = false;
  try {
    child.kill("SIGTERM");
  } catch {
    // Already gone.
  }
  await child.status;
  await reading;
  if (!flags.keep) await Deno.remove(data, { recursive: true });
  else console.log(`data left in ${data}`);
}
