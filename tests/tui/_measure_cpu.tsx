/**
 * Measures the dashboard's CPU cost: frames of the synthetic survey drive are
 * fed in-process at 60 Hz for a while with a view on screen (Ink drawing to
 * a terminal double of 80x24), and the process's CPU time is compared with
 * the same feed and no dashboard. Three named race laps are stored first,
 * so Analysis and Bests draw their charts and rows. Not a test (it takes `seconds` per run):
 *
 *   deno run -A tests/tui/_measure_cpu.tsx [seconds] [view...]
 *
 * @module
 */
import process from "node:process";
import { render } from "ink";
import { AppView } from "../../src/tui/app_view.tsx";
import { syntheticFrames } from "../../src/core/synthetic/drive.ts";
import { FakeStdin, FakeStdout, memoryApp } from "./_harness.tsx";

const seconds = Number(Deno.args[0] ?? 20);
const views = Deno.args.slice(1).length
  ? Deno.args.slice(1)
  : ["none", "live", "sessions", "survey", "tracks", "analysis", "bests"];
const drive = [...syntheticFrames({ seed: 7, laps: 2, mode: "survey" })];
const race = [...syntheticFrames({ seed: 7, laps: 3, startPacketId: 5_000_000 })];

async function run(view: string): Promise<{ cpuPct: number; frames: number; writes: number }> {
  const { app, close } = await memoryApp();
  // Three race laps of the circuit first, named, so Analysis and Bests draw charts and rows.
  for (const f of race) app.live.ingest(f);
  await app.live.flush();
  const raced = app.live.session;
  if (raced) await app.sessions.rename(raced.id, "Synthetic Seven");
  // A saved survey, so the survey view has a map, and a running one that the feed goes into.
  await app.survey.start({ track: "Synthetic Seven" });
  for (const f of drive.slice(0, 12000)) app.live.ingest(f);
  await app.live.flush();
  await app.survey.flush();
  const stdout = Object.assign(new FakeStdout(80, 24), { isTTY: true });
  const instance = view === "none" ? null : render(<AppView app={app} initialView={view} />, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new FakeStdout(80, 24) as unknown as NodeJS.WriteStream,
    stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
    maxFps: 20,
    patchConsole: false,
    exitOnCtrlC: false,
    interactive: true,
  });
  await new Promise((r) => setTimeout(r, 500));
  const writes0 = stdout.frames.length;
  const start = process.cpuUsage();
  const t0 = performance.now();
  let i = 12000;
  const total = seconds * 60;
  await new Promise<void>((resolve) => {
    let sent = 0;
    const timer = setInterval(() => {
      // Catch up to the wall clock, as a 60 Hz stream would have delivered.
      const due = Math.min(total, Math.floor((performance.now() - t0) / 1000 * 60));
      while (sent < due) {
        const f = drive[i++ % drive.length];
        app.live.ingest({ ...f, packetId: 1_000_000 + sent });
        sent++;
      }
      if (sent >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 1000 / 60);
  });
  const used = process.cpuUsage(start);
  const wall = performance.now() - t0;
  const writes = stdout.frames.length - writes0;
  instance?.unmount();
  await app.shutdown();
  close();
  return { cpuPct: (used.user + used.system) / 1000 / wall * 100, frames: total, writes };
}

for (const view of views) {
  const r = await run(view);
  console.log(
    `${view.padEnd(7)} ${r.cpuPct.toFixed(1)} % of a core, ${r.frames} frames in ${seconds} s, ` +
      `${r.writes} screen writes (${(r.writes / seconds).toFixed(1)}/s)`,
  );
}
