/**
 * `replay FILE`: a fake console on loopback that streams a capture, a record
 * file or the synthetic drive to the first logger that sends a heartbeat.
 *
 * @module
 */
import type { Command } from "commander";
import { CONSOLE_PORT } from "../core/gt7/format.ts";
import { type ReplaySpeed, runFakeConsole } from "./fake_console.ts";
import { openReplaySource } from "./replay_source.ts";
import { port, positive, speed } from "./options.ts";
import { shutdownSignal } from "./signals.ts";

interface ReplayFlags {
  host: string;
  port: number;
  speed: ReplaySpeed;
  loop: boolean;
  laps?: number;
}

/** Adds `replay` to `program`. */
export function addReplayCommand(program: Command): void {
  program.command("replay")
    .description("act as a console on loopback: stream a capture or synthetic:SEED[:survey]")
    .argument(
      "<file>",
      "capture file (.gt7 or .gt7.gz), --record file (plain or gzip), or synthetic:SEED, " +
        "synthetic:SEED:survey",
    )
    .option("--host <address>", "address to listen for heartbeats on", "127.0.0.1")
    .option("--port <port>", "heartbeat port to listen on", port, CONSOLE_PORT)
    .option(
      "--speed <n|max>",
      "times real time, or max (as fast as the logger acknowledges; never faster than it consumes)",
      speed,
      1 as ReplaySpeed,
    )
    .option("--loop", "start over at the end of the capture", false)
    .option("--laps <n>", "laps of the synthetic drive", positive)
    .action(runReplay);
}

async function runReplay(file: string, flags: ReplayFlags): Promise<void> {
  const source = await openReplaySource(file, { laps: flags.laps });
  const stop = shutdownSignal();
  const result = await runFakeConsole({
    hostname: flags.host,
    port: flags.port,
    packets: source.packets,
    speed: flags.speed,
    loop: flags.loop,
    signal: stop.signal,
    onListen: (p) =>
      console.log(`replay: ${source.description}; waiting for a heartbeat on ${flags.host}:${p}`),
    onHeartbeat: (from) => console.log(`replay: streaming to ${from.hostname}:${from.port}`),
  }).catch((err) => {
    if (err instanceof Deno.errors.AddrInUse) {
      throw new Error(
        `heartbeat port ${flags.port} is already in use (another replay running?); ` +
          "choose another with --port (and the logger's --console-port)",
      );
    }
    throw err;
  }).finally(() => stop.dispose());
  console.log(
    `replay: sent ${result.sent} packets` +
      (result.acks > 0
        ? `, paced by the logger's acknowledgements (at most ${result.maxInFlight} in flight)`
        : ""),
  );
}
