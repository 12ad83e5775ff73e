/**
 * Resident memory of a real `serve` process recording laps (issue 19).
 *
 * Starts `deno run -A main.ts serve` on a fresh data directory (a store on
 * disk, as a driver runs it) and feeds it the synthetic drive from a fake
 * console in this process, over real UDP, as fast as the logger acknowledges.
 * The stream is held at three points so the logger is idle when its VmRSS
 * (/proc/<pid>/status) is read: before the first packet, 2,000 packets into
 * the out-lap (receiving, the reference lines indexed), and just after the
 * first lap is stored. After the last lap the logger idles and is read
 * again. Each reading is the median of 5, one a second, after 3 s of quiet
 * (the logger tidies its memory 2 s after a lap: src/capture/memory_tidy.ts).
 *
 * Prints "steady memory after 100 laps: N MB (target <= 130 MB)" and "first
 * stored lap: +N MB". Linux only (/proc). Usage:
 *
 *   deno run -A bench/memory_laps.ts [--laps N] [--keep]
 *
 * `--keep` leaves the data directory behind for a look at the store.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { runFakeConsole } from "../src/cli/fake_console.ts";
import { openReplaySource } from "../src/cli/replay_source.ts";

const TARGET_MB = 130;
const SETTLE_MS = 3_000;
const READINGS = 5;
/** Where the stream is held inside the out-lap (the out-lap and lap 1 take ~11,000 packets). */
const BEFORE_FIRST_LAP = 2_000;

const { values: flags } = parseArgs({
  args: Deno.args,
  options: { laps: { type: "string", default: "100" }, keep: { type: "boolean", default: false } },
});
const laps = Number(flags.laps);
if (!Number.isInteger(laps) || laps < 2 || laps > 100) throw new Error("--laps must be 2..100");

const root = fileURLToPath(new URL("../", import.meta.url));
const data = await Deno.makeTempDir({ prefix: "memory_laps_" });
const source = await openReplaySource("synthetic:7", { laps });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A field of /proc/<pid>/status in MB (MiB): VmRSS, RssAnon, RssFile or VmHWM. */
function statusMb(pid: number, field = "VmRSS"): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status);
  if (!kb) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(kb[1]) / 1024;
}

/** The median of READINGS readings, one a second, after SETTLE_MS of quiet. */
async function settledRss(pid: number): Promise<number> {
  await sleep(SETTLE_MS);
  const readings: number[] = [];
  for (let i = 0; i < READINGS; i++) {
    if (i > 0) await sleep(1_000);
    readings.push(statusMb(pid));
  }
  return median(readings);
}

/** Resolves when `count()` reaches `n`, polling every 50 ms. */
async function until(count: () => number, n: number, what: string, timeoutMs = 600_000) {
  const end = Date.now() + timeoutMs;
  while (count() < n) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const listening = Promise.withResolvers<number>();
const gates = {
  start: Promise.withResolvers<void>(),
  beforeLap: Promise.withResolvers<void>(),
  afterLap: Promise.withResolvers<void>(),
};
let held: string | null = null;
let lapsStored = 0;
const replay = runFakeConsole({
  hostname: "127.0.0.1",
  port: 0,
  packets: source.packets,
  speed: "max",
  onListen: (p) => listening.resolve(p),
  backpressure: async (sent) => {
    if (sent === 0) {
      held = "start";
      await gates.start.promise;
    } else if (sent === BEFORE_FIRST_LAP) {
      held = "beforeLap";
      await gates.beforeLap.promise;
    } else if (lapsStored >= 1 && held !== "afterLap") {
      held = "afterLap";
      await gates.afterLap.promise;
    }
  },
});

const child = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "-A",
    "main.ts",
    "serve",
    "--data",
    data,
    "--port",
    "0",
    "--udp-port",
    "0",
    "--console",
    "127.0.0.1",
    "--console-port",
    String(await listening.promise),
  ],
  cwd: root,
  stdout: "piped",
  stderr: "inherit",
}).spawn();

// Lap lines ("lap 3  1:39.036 ...") count the laps stored and announced.
const apiUp = Promise.withResolvers<void>();
const reading = (async () => {
  let buffered = "";
  for await (const text of child.stdout.pipeThrough(new TextDecoderStream())) {
    buffered += text;
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) {
      if (line.includes("API on")) apiUp.resolve();
      if (/^lap \d+ /.test(line)) lapsStored++;
    }
  }
})();

const figures: Record<string, number> = {};
try {
  await apiUp.promise;
  await until(() => (held === "start" ? 1 : 0), 1, "the first heartbeat");
  figures.idle = await settledRss(child.pid);
  gates.start.resolve();
  await until(() => (held === "beforeLap" ? 1 : 0), 1, "the first packets");
  figures.beforeLap = await settledRss(child.pid);
  gates.beforeLap.resolve();
  await until(() => (held === "afterLap" ? 1 : 0), 1, "the first lap");
  figures.afterLap = await settledRss(child.pid);
  gates.afterLap.resolve();
  const result = await replay;
  await until(() => lapsStored, laps, `${laps} laps`);
  figures.steady = await settledRss(child.pid);
  const [anon, file, peak] = ["RssAnon", "RssFile", "VmHWM"].map((f) => statusMb(child.pid, f));
  console.log(
    `serve on a store on disk, synthetic drive seed 7: ${result.sent.toLocaleString("en-US")} ` +
      `packets, ${lapsStored} laps stored`,
  );
  console.log(
    `idle ${figures.idle.toFixed(1)} MB; receiving, before the first lap ` +
      `${figures.beforeLap.toFixed(1)} MB; after it ${figures.afterLap.toFixed(1)} MB`,
  );
  const firstLap = figures.afterLap - figures.beforeLap;
  console.log(`first stored lap: ${firstLap < 0 ? "-" : "+"}${Math.abs(firstLap).toFixed(1)} MB`);
  console.log(
    `after ${laps} laps: ${anon.toFixed(1)} MB anonymous, ${file.toFixed(1)} MB of files ` +
      `(mostly the deno binary's own pages); peak ${peak.toFixed(1)} MB`,
  );
  console.log(
    `steady memory after ${laps} laps: ${figures.steady.toFixed(1)} MB ` +
      `(target <= ${TARGET_MB} MB)`,
  );
} finally {
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
