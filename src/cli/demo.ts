/**
 * `demo`: a logger fed by the built-in synthetic drive, one command, so a
 * new user sees everything work without a PlayStation.
 *
 * @module
 */
import type { Command } from "commander";
import { describeEvent } from "../server/console_output.ts";
import { type ReplaySpeed, runFakeConsole } from "../server/fake_console.ts";
import { openReplaySource } from "../server/replay_source.ts";
import { TuiNotices } from "../tui/notices.ts";
import { startLogger } from "./logger_process.ts";
import { dataOption, port, positive, speed } from "./options.ts";
import { shutdownSignal, untilShutdown } from "./signals.ts";
import { exportsDir, newStoreNotice } from "./start.ts";

interface DemoFlags {
  speed: ReplaySpeed;
  seed: number;
  laps: number;
  host: string;
  port: number;
  data: string;
}

/** Adds `demo` to `program`. */
export function addDemoCommand(program: Command): void {
  dataOption(
    program.command("demo")
      .description("run a logger fed by the built-in synthetic drive, one command")
      .option("--speed <n|max>", "times real time", speed, 4 as ReplaySpeed)
      .option("--seed <n>", "synthetic circuit seed", (v) => Number.parseInt(v, 10), 7)
      .option("--laps <n>", "laps to drive", positive, 5)
      .option("--host <address>", "HTTP bind address", "127.0.0.1")
      .option("--port <port>", "HTTP port", port, 8765),
    ":memory:",
  ).action(runDemo);
}

async function runDemo(flags: DemoFlags): Promise<void> {
  const source = await openReplaySource(`synthetic:${flags.seed}`, { laps: flags.laps });
  const drive = new AbortController();
  const listening = Promise.withResolvers<number>();
  const replay = runFakeConsole({
    hostname: "127.0.0.1",
    port: 0,
    packets: source.packets,
    speed: flags.speed,
    signal: drive.signal,
    onListen: (p) => listening.resolve(p),
  });
  // The drive's end, or null when it was stopped: an abort in the middle of
  // a send rejects, and left uncaught that would end the process before the
  // logger stored the last lap.
  const over = replay.then(
    (r) => r,
    (err) => {
      if (drive.signal.aborted) return null;
      throw err;
    },
  );
  const created = newStoreNotice(flags.data);
  const logger = await startLogger({
    data: flags.data,
    host: flags.host,
    port: flags.port,
    console: "127.0.0.1",
    consolePort: await listening.promise,
    udpPort: 0,
    format: "C",
  });
  console.log(`demo: ${source.description} at ${flags.speed}x`);
  console.log(`demo: API on ${logger.http.url} (try ${logger.http.url}/api/sessions)`);
  if (created) console.log(`demo: ${created}`);
  // Loaded here, not at the top: every command would load the dashboard's modules (see start.ts).
  const { runTui, tuiMode } = await import("../tui/run_tui.tsx");
  if (tuiMode() === "ink") {
    // On a terminal the demo shows the dashboard, as start does; q or a signal ends it.
    const notices = new TuiNotices();
    if (created) notices.post(created);
    over.then(
      (r) => {
        if (r) {
          notices.post(`demo: the drive is over (${r.sent} packets); q quits`, { sticky: true });
        }
      },
      (err) => notices.post(`demo: the drive failed: ${(err as Error).message}`, { sticky: true }),
    );
    const quit = shutdownSignal();
    await runTui(logger.app, {
      signal: quit.signal,
      outDir: exportsDir(flags.data),
      apiUrl: logger.http.url,
      notices,
    });
    quit.dispose();
    drive.abort();
    await over.catch(() => {});
    await logger.close();
    return;
  }
  logger.app.bus.subscribe((event) => {
    const line = describeEvent(event);
    if (line) console.log(line);
  });
  over.then(
    (r) => {
      if (r) console.log(`demo: the drive is over (${r.sent} packets); Ctrl-C to quit`);
    },
    (err) => console.error(`demo: the drive failed: ${(err as Error).message}`),
  );
  await untilShutdown(async () => {
    drive.abort();
    await over.catch(() => {});
    await logger.close();
  });
}
