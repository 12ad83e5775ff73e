/**
 * `start` (the logger with its dashboard) and `serve` (headless, one line
 * per event): the same logger process, two faces.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { DB_FILE } from "../storage/kv.ts";
import { describeEvent } from "./console_output.ts";
import type { TuiNotices } from "../tui/notices.ts";
import { storeSentence } from "../app/store/store_health.ts";
import type { RoutedLog } from "../app/log.ts";
import { dashboardNotices, livePageQr } from "./dashboard_options.ts";
import { type LoggerOptions, startLogger } from "./logger_process.ts";
import { tuiMode } from "../tui/tui_mode.ts";
import { hubFlags, type LoggerFlags, loggerOptions, type ServerFlags } from "./options.ts";
import { shutdownSignal, untilShutdown } from "./signals.ts";
import { lanAddresses, pageUrl } from "./lan_address.ts";
import { qrLines } from "./qr_text.ts";
import { relayLines } from "./relay_lines.ts";
import { isLoopback } from "../core/loopback.ts";

/** The folder the dashboard's exports go to: `exports` in the data directory. */
export const EXPORTS_FOLDER = "exports";

/**
 * Where the dashboard writes exports for a store in `data`: its `exports`
 * folder, as an absolute path. An in-memory store (the demo's) gets a folder
 * of this process's own under the system's temporary directory: never the
 * real data folder, where its lap 1 would sit beside (or once replaced) a
 * real lap's export, nor the current directory, which may be a source
 * tree. The folder is created by the first export, not here.
 */
export function exportsDir(data: string): string {
  if (data === ":memory:") {
    return join(tmpdir(), `sim-datalogger-memory-${Deno.pid}`, EXPORTS_FOLDER);
  }
  return join(resolve(data), EXPORTS_FOLDER);
}

/**
 * The line to say when opening the store in `data` will create it (a
 * mistyped `--data` would otherwise start silently on an empty store), or
 * null when it exists or lives in memory. Call it before opening.
 */
export function newStoreNotice(data: string): string | null {
  if (data === ":memory:" || existsSync(join(data, DB_FILE))) return null;
  return `new store created at ${resolve(data)}`;
}

export { postStoreNotices } from "./dashboard_options.ts";

/**
 * Sends every report of `log` (the logger's, the HTTP server's included) to
 * the dashboard's notice line as a passing notice, one line each, instead of
 * standard error, where raw text would break the dashboard's screen. Returns
 * the function that ends it (call it once the dashboard is gone).
 */
export function reportOnNotices(log: RoutedLog, notices: TuiNotices): () => void {
  return log.divert((line) => notices.post(line));
}

/**
 * The logger settings of the shared flags (see `serverOptions`): the store,
 * the API's address, its token (`--token`, else $SIM_DATALOGGER_TOKEN) and
 * browser origin, the record file, the relay and forward targets, where
 * laps wait while the disk is full, and the team hub (`--hub`,
 * `--hub-token`, else $SIM_DATALOGGER_HUB and $SIM_DATALOGGER_HUB_TOKEN).
 */
export function serverSettings(
  flags: ServerFlags,
): Pick<
  LoggerOptions,
  "data" | "host" | "port" | "token" | "cors" | "record" | "relay" | "forwards" | "spill" | "hub"
> {
  if (flags.lan && flags.host !== "127.0.0.1") {
    throw new Error(`--lan binds 0.0.0.0; it cannot be given with --host ${flags.host}`);
  }
  return {
    data: flags.data,
    host: flags.lan ? "0.0.0.0" : flags.host,
    port: flags.port,
    token: flags.token ?? Deno.env.get("SIM_DATALOGGER_TOKEN") ?? null,
    cors: flags.cors ?? null,
    record: flags.record
      ? { path: flags.record, maxBytes: flags.recordMaxMb * 2 ** 20, keep: flags.recordKeep }
      : null,
    relay: flags.relay ?? null,
    forwards: flags.forward,
    spill: flags.spill ?? null,
    hub: hubFlags(flags),
  };
}

/**
 * Where to open the live page: the bound address, or when that is every
 * interface (`--lan`, `--host 0.0.0.0`) the first LAN address (loopback when
 * the machine has none).
 */
export function livePageUrl(flags: ServerFlags, port: number, addresses = lanAddresses()): string {
  const host = flags.lan ? "0.0.0.0" : flags.host;
  if (host === "0.0.0.0" || host === "::") return pageUrl(addresses[0] ?? "127.0.0.1", port);
  return pageUrl(host === "localhost" ? "127.0.0.1" : host, port);
}

/**
 * The API's address to print: where the live page is (see
 * {@linkcode livePageUrl}) without its final slash, so a logger bound to
 * every interface names the address other machines reach, never
 * `http://0.0.0.0:PORT`, which no browser opens.
 */
export function apiUrl(flags: ServerFlags, port: number, addresses = lanAddresses()): string {
  return livePageUrl(flags, port, addresses).replace(/\/$/, "");
}

/**
 * The lines telling the driver where to open the live page; when it is
 * reachable from other machines, with a QR code of its address.
 */
export function livePageLines(
  flags: ServerFlags,
  port: number,
  addresses = lanAddresses(),
): string[] {
  const url = livePageUrl(flags, port, addresses);
  if (isLoopback(new URL(url).hostname.replace(/^\[|\]$/g, ""))) return [`live page: ${url}`];
  return [
    `live page on the network: ${url} (scan with a phone on the same Wi-Fi)`,
    ...qrLines(url),
  ];
}

/** The line announcing a record file, or null without `--record`. */
export function recordNotice(flags: ServerFlags): string | null {
  if (!flags.record) return null;
  return `recording every datagram to ${flags.record} (new file past ${flags.recordMaxMb} MiB, ` +
    `${flags.recordKeep} kept)`;
}

/** Runs a logger with `flags` until the driver quits (start) or a signal arrives (serve). */
export async function runLogger(flags: LoggerFlags, mode: "start" | "serve"): Promise<void> {
  const created = newStoreNotice(flags.data);
  const logger = await startLogger({
    ...serverSettings(flags),
    console: flags.console ?? null,
    consolePort: flags.consolePort,
    udpPort: flags.udpPort,
    format: flags.format,
  });
  const api = apiUrl(flags, logger.http.port);
  console.log(`sim-datalogger: API on ${api}, telemetry on UDP ${logger.udp.port}`);
  for (const line of livePageLines(flags, logger.http.port)) console.log(line);
  // The dashboard's screen hides the lines above, so what they say is shown
  // in it too; plain status lines print below them, so they are not.
  const onScreen = mode === "start" && tuiMode() === "ink";
  const health = logger.app.storeHealth.status();
  if (health.state !== "ok") console.log(`sim-datalogger: ${storeSentence(health)}`);
  const notices = dashboardNotices(logger.app, { created, now: onScreen });
  if (created) console.log(`sim-datalogger: ${created}`);
  if (flags.data === ":memory:") {
    console.log(`sim-datalogger: in-memory store; exports go to ${exportsDir(flags.data)}`);
  }
  const recording = recordNotice(flags);
  if (recording) console.log(recording);
  const relay = logger.udp.status().relay;
  for (const line of relayLines(relay?.listen ?? null, flags.forward)) console.log(line);
  if (!flags.console) {
    console.log(
      "no --console given: listening only; pass --console <PlayStation IP> to start the stream",
    );
  }
  if (mode === "start") {
    // The dashboard (or, without a terminal, its plain status lines) owns the
    // screen until the driver quits.
    const stop = shutdownSignal();
    // Loaded only here: `serve` never draws, and the dashboard's modules cost it ~15 MB resident.
    const { runTui } = await import("../tui/run_tui.tsx");
    const undivert = onScreen ? reportOnNotices(logger.log, notices) : () => {};
    await runTui(logger.app, {
      signal: stop.signal,
      outDir: exportsDir(flags.data),
      apiUrl: flags.lan ? livePageUrl(flags, logger.http.port) : api,
      notices,
      livePage: livePageQr(livePageUrl(flags, logger.http.port), flags.lan === true),
    });
    undivert();
    try {
      await logger.close();
    } finally {
      stop.dispose();
    }
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
