/**
 * The race engineer at team scale (#40): 20 drivers streaming at 10 Hz
 * through two `hub` processes on one real PostgreSQL to 40 engineers.
 * Driver i's fake logger sends to hub A (even i) or B (odd i); each driver
 * has two engineers, one on each hub, so half the streams are served by
 * the process that received the frame (delivered at once) and half by the
 * other (through NOTIFY): the difference between the two is what NOTIFY
 * adds. Printed: frames sent and delivered, the age of each frame at the
 * engineer (arrival less the frame's own `at`, one machine's clock) p50,
 * p95, p99 for each path, and both hubs' resident memory before and after
 * the run (the drive run twice: memory must stay flat from the first run
 * to the second).
 *
 * Loggers and engineers run in this process, so on two busy cores their
 * own work is in the ages too. Skipped (printed) where no PostgreSQL can
 * be started. Knob: ENGINEER_BENCH_SECONDS (default 10; 30 under
 * BENCH_LONG=1).
 *
 * @module
 */
import { postgresMissing, startPostgres } from "../tests/_postgres.ts";
import {
  addDriver,
  fakeFrame,
  type FakeLogger,
  fakeLogger,
  type FrameReader,
  readFrames,
  startHubProcess,
} from "../tests/_engineer.ts";
import { benchLength } from "./_long.ts";

const DRIVERS = 20;
const HZ = 10;
const SECONDS = benchLength("ENGINEER_BENCH_SECONDS", 10, 30);
const ADMIN = "admin-token-for-the-engineer-bench-01";

/** The `p`th percentile of `values` (nearest rank). */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p / 100 * sorted.length) - 1))];
}

/** Resident memory of process `pid`, MiB (Linux). */
function rssMiB(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

interface Run {
  sent: number;
  local: number[];
  cross: number[];
  delivered: number;
}

/** One drive of SECONDS: every logger sends HZ frames a second; the engineers' ages. */
async function drive(loggers: FakeLogger[], engineers: { reader: FrameReader; local: boolean }[]) {
  const before = engineers.map((e) => e.reader.frames.length);
  let sent = 0;
  let packet = 0;
  const timer = setInterval(() => {
    packet++;
    for (const l of loggers) {
      l.send({ type: "frame", frame: fakeFrame(packet) });
      sent++;
    }
  }, 1000 / HZ);
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  clearInterval(timer);
  // The last frames on their way.
  await new Promise((r) => setTimeout(r, 500));
  const run: Run = { sent, local: [], cross: [], delivered: 0 };
  engineers.forEach((e, i) => {
    const got = e.reader.frames.slice(before[i]);
    run.delivered += got.length;
    const ages = got.map((f) =>
      f.arrived - Date.parse(String((f.data.frame as { at: string }).at))
    );
    (e.local ? run.local : run.cross).push(...ages);
  });
  return run;
}

function line(name: string, ages: number[]): string {
  const p = (q: number) => percentile(ages, q).toFixed(1);
  return `${name}: ${ages.length} frames, age p50 ${p(50)} ms, p95 ${p(95)} ms, p99 ${p(99)} ms`;
}

async function measure(): Promise<void> {
  const pg = await startPostgres();
  const a = await startHubProcess(pg.url, ADMIN);
  const b = await startHubProcess(pg.url, ADMIN);
  const hubs = [a, b];
  const loggers: FakeLogger[] = [];
  const engineers: { reader: FrameReader; local: boolean }[] = [];
  try {
    for (let i = 0; i < DRIVERS; i++) {
      const name = `driver${i}`;
      const token = await addDriver(a.url, ADMIN, name);
      const home = i % 2;
      for (const [h, hub] of hubs.entries()) {
        const reader = await readFrames(`${hub.url}/api/live/${name}?token=${ADMIN}`);
        engineers.push({ reader, local: h === home });
      }
      const logger = await fakeLogger(hubs[home].url, token);
      logger.send({ type: "hello", last_message_id: null, circuit: "suzuka", car_id: 3294 });
      loggers.push(logger);
    }
    const rss0 = hubs.map((h) => rssMiB(h.process.pid));
    const first = await drive(loggers, engineers);
    const rss1 = hubs.map((h) => rssMiB(h.process.pid));
    const second = await drive(loggers, engineers);
    const rss2 = hubs.map((h) => rssMiB(h.process.pid));
    const expected = second.sent * 2;
    console.log(
      `engineer: ${DRIVERS} drivers x ${HZ} Hz through 2 hubs to ${engineers.length} engineers, ` +
        `${SECONDS} s a run`,
    );
    for (const [n, run] of [["first", first], ["second", second]] as const) {
      console.log(
        `  ${n} run: ${run.sent} frames sent, ${run.delivered} of ${run.sent * 2} delivered`,
      );
    }
    // The figures for an engineer on the other hub: >= 9 frames a second, p95 <= 250 ms.
    const perEngineer = second.delivered / engineers.length / SECONDS;
    const crossP95 = percentile(second.cross, 95);
    console.log(
      `  per engineer: ${perEngineer.toFixed(1)} frames/s (issue: >= 9); other hub's p95 age ` +
        `${crossP95.toFixed(0)} ms (issue: <= 250): ${
          perEngineer >= 9 && crossP95 <= 250 ? "met" : "NOT met"
        }`,
    );
    console.log(`  ${line("same hub (no NOTIFY)", second.local)}`);
    console.log(`  ${line("other hub (NOTIFY)", second.cross)}`);
    console.log(
      `  delivered in the second run: ${(100 * second.delivered / expected).toFixed(1)} %`,
    );
    const mib = (r: number[]) => r.map((v) => v.toFixed(0)).join(" / ");
    console.log(
      `  hub RSS A / B, MiB: start ${mib(rss0)}, after run 1 ${mib(rss1)}, after run 2 ${
        mib(rss2)
      }`,
    );
  } finally {
    for (const l of loggers) await l.close().catch(() => {});
    for (const e of engineers) await e.reader.close();
    await a.stop();
    await b.stop();
    await pg.stop();
  }
}

const missing = postgresMissing();
if (missing !== null) console.log(`engineer: not run (${missing})`);
else await measure();

const frame = fakeFrame(1);
Deno.bench("engineer: one frame's NOTIFY envelope", () => {
  JSON.stringify({ o: "origin", d: "driver0", p: JSON.stringify({ driver: "driver0", frame }) });
});
