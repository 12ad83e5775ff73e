/**
 * `start` (the logger with its dashboard) and `serve` (headless, one line
 * per event): the same logger process, two faces.
 *
 * @module
 */
import type { Command } from "commander";
import { describeEvent } from "../server/console_output.ts";
import { runTui } from "../tui/run_tui.tsx";
import { startLogger } from "./logger_process.ts";
import { type LoggerFlags, loggerOptions } from "./options.ts";
import { shutdownSignal, untilShutdown } from "./signals.ts";

/** Runs a logger with `flags` until the driver quits (start) or a signal arrives (serve). */
export async function runLogger(flags: LoggerFlags, mode: "start" | "serve"): Promise<void> {
  const logger = await startLogger({
    data: flags.data,
    host: flags.host,
    port: flags.port,
    console: flags.console ?? null,
    consolePort: flags.consolePort,
    udpPort: flags.udpPort,
    format: flags.format,
    token: flags.token ?? Deno.env.get("SIM_DATALOGGER_TOKEN") ?? null,
    cors: flags.cors ?? null,
    record: flags.record
      ? { path: flags.record, maxBytes: flags.recordMaxMb * 2 ** 20, keep: flags.recordKeep }
      : null,
  });
  console.log(`sim-datalogger: API on ${logger.http.url}, telemetry on UDP ${logger.udp.port}`);
  if (flags.record) {
    console.log(
      `recording every datagram to ${flags.record} (new file past ${flags.recordMaxMb} MiB, ` +
        `${flags.recordKeep} kept)`,
    );
  }
  if (!flags.console) {
    console.log(
      "no --console given: listening only; pass --console <PlayStation IP> to start the stream",
    );
  }
  if (mode === "start") {
    // The dashboard (or, without a terminal, its plain status lines) owns the
    // screen until the driver quits.
    const stop = shutdownSignal();
    await runTui(logger.app, { signal: stop.signal, outDir: Deno.cwd() });
    stop.dispose();
    await logger.close();
    return;
  }
  logger.app.bus.subscribe((event) => {
    const line = describeEvent(event);
    if (line) console.log(line);
  });
  await untilShutdown(() => logger.close());
}

/** Adds `start` (the default command) and `serve` to `program`. */
export function addLoggerCommands(program: Command): void {
  loggerOptions(
    program.command("start", { isDefault: true })
      .description("run the logger with its terminal dashboard (HTTP + UDP)"),
  ).action((flags: LoggerFlags) => runLogger(flags, "start"));
  loggerOptions(
    program.command("serve").description("run the logger headless: HTTP + UDP, logs to stdout"),
  ).action((flags: LoggerFlags) => runLogger(flags, "serve"));
}
