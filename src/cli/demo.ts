/**
 * `demo`: a logger fed by the built-in synthetic drive, one command, so a
 * new user sees everything work without a PlayStation. It drives until
 * quit (or `--laps N`), and takes the logger's API and record flags from the
 * one definition `start` and `serve` use.
 *
 * @module
 */
import type { Command } from "commander";
import { describeEvent } from "./console_output.ts";
import { type ReplaySpeed, runFakeConsole } from "./fake_console.ts";
import { openReplaySource, type ReplaySource } from "./replay_source.ts";
import { dashboardNotices, livePageQr } from "./dashboard_options.ts";
import { storeSentence } from "../app/store/store_health.ts";
import { startLogger } from "./logger_process.ts";
import { dataOption, positive, type ServerFlags, serverOptions, speed } from "./options.ts";
import { shutdownSignal, untilShutdown } from "./signals.ts";
import { relayLines } from "./relay_lines.ts";
import {
  apiUrl,
  exportsDir,
  livePageLines,
  livePageUrl,
  newStoreNotice,
  recordNotice,
  reportOnNotices,
  serverSettings,
} from "./start.ts";

interface DemoFlags extends ServerFlags {
  speed: ReplaySpeed;
  seed: number;
  laps?: number;
  mistakes?: boolean;
}

/**
 * Timed laps of one pass of the endless drive, then it is driven again (a
 * new session, as after a pit stop): few enough that no circuit's car runs
 * its tank dry within a pass.
 */
export const ENDLESS_PASS_LAPS = 10;

/** Most laps `--laps` takes: the most the synthetic drive makes in one go. */
export const MAX_DEMO_LAPS = 100;

/** Adds `demo` to `program`. */
export function addDemoCommand(program: Command): void {
  serverOptions(dataOption(
    program.command("demo")
      .description("run a logger fed by the built-in synthetic drive until quit, one command")
      .option("--speed <n|max>", "times real time", speed, 4 as ReplaySpeed)
      .option("--seed <n>", "synthetic circuit seed", (v) => Number.parseInt(v, 10), 7)
      .option("--laps <n>", "stop the drive after N laps (default: drive until quit)", positive)
      .option(
        "--mistakes",
        "the driver makes a mistake every lap after the first (brakes early, is slow through " +
          "a corner, lifts out of one), so the coaching notes name real causes",
      ),
    ":memory:",
  )).action(runDemo);
}

/**
 * The drive `demo` replays for `flags`: `--laps` timed laps (a pass of
 * {@linkcode ENDLESS_PASS_LAPS} when driving until quit) of the synthetic
 * circuit of `--seed`; with `--mistakes`, every lap at one grip, the first
 * clean and each later one with a mistake, so each lap's coaching notes
 * name the corner and the cause.
 */
export function demoSource(
  flags: Pick<DemoFlags, "seed" | "laps" | "mistakes">,
): Promise<ReplaySource> {
  const mistakes = flags.mistakes === true;
  return openReplaySource(`synthetic:${flags.seed}`, {
    laps: flags.laps ?? ENDLESS_PASS_LAPS,
    steady: mistakes,
    mistakeEveryLap: mistakes,
  });
}

async function runDemo(flags: DemoFlags): Promise<void> {
  if (flags.laps !== undefined && flags.laps > MAX_DEMO_LAPS) {
    throw new Error(`--laps must be at most ${MAX_DEMO_LAPS}, not ${flags.laps}`);
  }
  const endless = flags.laps === undefined;
  const source = await demoSource(flags);
  const drive = new AbortController();
  const listening = Promise.withResolvers<number>();
  const replay = runFakeConsole({
    hostname: "127.0.0.1",
    port: 0,
    packets: source.packets,
    speed: flags.speed,
    loop: endless,
    signal: drive.signal,
    onListen: (p) => listening.resolve(p),
  });
  // The drive's end, or null when it was stopped: an abort in the middle of
  // a send rejects, and left uncaught that would end the process before the
  // logger stored the last lap.
  const over = replay.then(
    (r) => drive.signal.aborted ? null : r,
    (err) => {
      if (drive.signal.aborted) return null;
      throw err;
    },
  );
  const pace = flags.speed === "max" ? "max speed" : `${flags.speed}x`;
  const created = newStoreNotice(flags.data);
  const logger = await startLogger({
    ...serverSettings(flags),
    console: "127.0.0.1",
    consolePort: await listening.promise,
    udpPort: 0,
    format: "C",
  });
  console.log(
    endless
      ? `demo: synthetic drive (seed ${flags.seed}) at ${pace} until quit, ` +
        `a new session every ${ENDLESS_PASS_LAPS} laps`
      : `demo: ${source.description} at ${pace}`,
  );
  const api = apiUrl(flags, logger.http.port);
  console.log(`demo: API on ${api} (try ${api}/api/sessions)`);
  for (const line of livePageLines(flags, logger.http.port)) console.log(line);
  for (const line of relayLines(logger.udp.status().relay?.listen ?? null, flags.forward)) {
    console.log(line);
  }
  if (created) console.log(`demo: ${created}`);
  const health = logger.app.storeHealth.status();
  if (health.state !== "ok") console.log(`demo: ${storeSentence(health)}`);
  console.log(`demo: exports go to ${exportsDir(flags.data)}`);
  const recording = recordNotice(flags);
  if (recording) console.log(`demo: ${recording}`);
  // Loaded here, not at the top: every command would load the dashboard's modules (see start.ts).
  const { runTui, tuiMode } = await import("../tui/run_tui.tsx");
  if (tuiMode() === "ink") {
    // On a terminal the demo shows the dashboard, as start does; q or a signal ends it.
    const notices = dashboardNotices(logger.app, { created, now: true });
    const ended = { sticky: true, topic: "drive" };
    over.then(
      (r) => {
        if (r) notices.post(`demo: the drive is over (${r.sent} packets); q quits`, ended);
      },
      (err) => notices.post(`demo: the drive failed: ${(err as Error).message}`, ended),
    );
    const quit = shutdownSignal();
    const undivert = reportOnNotices(logger.log, notices);
    await runTui(logger.app, {
      signal: quit.signal,
      outDir: exportsDir(flags.data),
      apiUrl: flags.lan ? livePageUrl(flags, logger.http.port) : api,
      notices,
      livePage: livePageQr(livePageUrl(flags, logger.http.port), flags.lan === true),
    });
    undivert();
    drive.abort();
    try {
      await over.catch(() => {});
      await logger.close();
    } finally {
      quit.dispose();
    }
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
