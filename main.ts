/**
 * sim-datalogger command line: parses flags, then hands over to src/.
 *
 * @module
 */
import { Command, InvalidArgumentError, Option } from "commander";
import {
  CONSOLE_PORT,
  isPacketFormat,
  type PacketFormat,
  TELEMETRY_PORT,
} from "./src/core/gt7/format.ts";
import { defaultDataDir, openStore } from "./src/storage/kv.ts";
import { type App, createApp } from "./src/app/context.ts";
import { exportLapCsv, exportLapFile, importLapFile } from "./src/app/lap_exchange.ts";
import { exportBundle, importBundle } from "./src/app/bundles.ts";
import { identifyUnlabelled } from "./src/app/tracks.ts";
import { BUNDLE_FORMAT } from "./src/core/bundle/types.ts";
import { serialiseBundle } from "./src/core/bundle/serialise.ts";
import { LAP_FILE_FORMAT } from "./src/core/laps/lap_file.ts";
import { ImportRejected } from "./src/core/errors.ts";
import { formatLapTime } from "./src/core/laps/lap_time.ts";
import { type Logger, startLogger } from "./src/server/logger.ts";
import { canonicalOrigin } from "./src/server/cors_origin.ts";
import { describeEvent } from "./src/server/console_output.ts";
import { runTui, tuiMode } from "./src/tui/run_tui.tsx";
import { type ReplaySpeed, runFakeConsole } from "./src/server/fake_console.ts";
import { openReplaySource } from "./src/server/replay_source.ts";

function port(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new InvalidArgumentError("must be a port number 0..65535");
  }
  return Number(value);
}

function format(value: string): PacketFormat {
  if (!isPacketFormat(value)) throw new InvalidArgumentError("must be one of A, B, ~, C");
  return value;
}

function address(value: string): string {
  if (!/^[A-Za-z0-9.:-]{1,253}$/.test(value)) {
    throw new InvalidArgumentError("must be an IP address or host name");
  }
  return value;
}

function origin(value: string): string {
  const canonical = canonicalOrigin(value);
  if (canonical === null) {
    throw new InvalidArgumentError(
      "must be one origin such as http://localhost:3000 (no path, no wildcard)",
    );
  }
  return canonical;
}

function speed(value: string): ReplaySpeed {
  if (value === "max") return "max";
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 1000) {
    throw new InvalidArgumentError('must be a number in (0, 1000] or "max"');
  }
  return n;
}

function positive(value: string): number {
  if (!/^[1-9]\d{0,3}$/.test(value)) throw new InvalidArgumentError("must be a whole number >= 1");
  return Number(value);
}

interface LoggerFlags {
  console?: string;
  consolePort: number;
  udpPort: number;
  format: PacketFormat;
  host: string;
  port: number;
  data: string;
  token?: string;
  cors?: string;
}

function loggerOptions(cmd: Command, data?: string): Command {
  return cmd
    .option("--console <ip>", "the PlayStation's address (heartbeats go there)", address)
    .option("--console-port <port>", "the console's heartbeat port", port, CONSOLE_PORT)
    .option("--udp-port <port>", "local UDP port for telemetry", port, TELEMETRY_PORT)
    .addOption(
      new Option("--format <letter>", "packet format to request: A, B, ~ or C")
        .default("C").argParser(format),
    )
    .option("--host <address>", "HTTP bind address", "127.0.0.1")
    .option("--port <port>", "HTTP port", port, 8765)
    .option("--data <dir>", 'data directory, or ":memory:"', data ?? defaultDataDir())
    .option(
      "--token <token>",
      "bearer token other machines must send to make changes (default: $SIM_DATALOGGER_TOKEN; none: refused)",
    )
    .option(
      "--cors <origin>",
      "allow this one browser origin, such as http://localhost:3000",
      origin,
    );
}

async function runHeadless(flags: LoggerFlags, mode: "start" | "serve"): Promise<void> {
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
  });
  console.log(`sim-datalogger: API on ${logger.http.url}, telemetry on UDP ${logger.udp.port}`);
  if (!flags.console) {
    console.log(
      "no --console given: listening only; pass --console <PlayStation IP> to start the stream",
    );
  }
  if (mode === "start") {
    // The dashboard (or, without a terminal, its plain status lines) owns the
    // screen until the driver quits.
    const controller = new AbortController();
    const stop = () => controller.abort();
    Deno.addSignalListener("SIGINT", stop);
    if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
    await runTui(logger.app, { signal: controller.signal, outDir: Deno.cwd() });
    Deno.removeSignalListener("SIGINT", stop);
    if (Deno.build.os !== "windows") Deno.removeSignalListener("SIGTERM", stop);
    await logger.close();
    return;
  }
  logger.app.bus.subscribe((event) => {
    const line = describeEvent(event);
    if (line) console.log(line);
  });
  await untilSignal(() => logger.close());
}

function untilSignal(onStop: () => Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      Deno.removeSignalListener("SIGINT", stop);
      if (Deno.build.os !== "windows") Deno.removeSignalListener("SIGTERM", stop);
      console.log("\nstopping...");
      onStop().then(resolve);
    };
    Deno.addSignalListener("SIGINT", stop);
    if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
  });
}

const program = new Command()
  .name("sim-datalogger")
  .description("Gran Turismo 7 telemetry logger: records laps, serves an HTTP API")
  .showHelpAfterError();

loggerOptions(
  program.command("start", { isDefault: true })
    .description("run the logger with its terminal dashboard (HTTP + UDP)"),
).action((flags: LoggerFlags) => runHeadless(flags, "start"));

loggerOptions(
  program.command("serve").description("run the logger headless: HTTP + UDP, logs to stdout"),
).action((flags: LoggerFlags) => runHeadless(flags, "serve"));

program.command("replay")
  .description("act as a console on loopback: stream a capture or synthetic:SEED[:survey]")
  .argument("<file>", "capture file (.gt7 or .gt7.gz) or synthetic:SEED, synthetic:SEED:survey")
  .option("--host <address>", "address to listen for heartbeats on", "127.0.0.1")
  .option("--port <port>", "heartbeat port to listen on", port, CONSOLE_PORT)
  .option("--speed <n|max>", "times real time, or max", speed, 1 as ReplaySpeed)
  .option("--loop", "start over at the end of the capture", false)
  .option("--laps <n>", "laps of the synthetic drive", positive)
  .action(async (file: string, flags: {
    host: string;
    port: number;
    speed: ReplaySpeed;
    loop: boolean;
    laps?: number;
  }) => {
    const source = await openReplaySource(file, { laps: flags.laps });
    const controller = new AbortController();
    Deno.addSignalListener("SIGINT", () => controller.abort());
    const result = await runFakeConsole({
      hostname: flags.host,
      port: flags.port,
      packets: source.packets,
      speed: flags.speed,
      loop: flags.loop,
      signal: controller.signal,
      onListen: (p) =>
        console.log(`replay: ${source.description}; waiting for a heartbeat on ${flags.host}:${p}`),
      onHeartbeat: (from) => console.log(`replay: streaming to ${from.hostname}:${from.port}`),
    });
    console.log(`replay: sent ${result.sent} packets`);
    Deno.exit(0);
  });

program.command("demo")
  .description("run a logger fed by the built-in synthetic drive, one command")
  .option("--speed <n|max>", "times real time", speed, 4 as ReplaySpeed)
  .option("--seed <n>", "synthetic circuit seed", (v) => Number.parseInt(v, 10), 7)
  .option("--laps <n>", "laps to drive", positive, 5)
  .option("--host <address>", "HTTP bind address", "127.0.0.1")
  .option("--port <port>", "HTTP port", port, 8765)
  .option("--data <dir>", 'data directory, or ":memory:"', ":memory:")
  .action(async (flags: {
    speed: ReplaySpeed;
    seed: number;
    laps: number;
    host: string;
    port: number;
    data: string;
  }) => {
    const source = await openReplaySource(`synthetic:${flags.seed}`, { laps: flags.laps });
    const controller = new AbortController();
    let consolePort = 0;
    const ready = Promise.withResolvers<void>();
    const replay = runFakeConsole({
      hostname: "127.0.0.1",
      port: 0,
      packets: source.packets,
      speed: flags.speed,
      signal: controller.signal,
      onListen: (p) => {
        consolePort = p;
        ready.resolve();
      },
    });
    await ready.promise;
    let logger: Logger | null = null;
    logger = await startLogger({
      data: flags.data,
      host: flags.host,
      port: flags.port,
      console: "127.0.0.1",
      consolePort,
      udpPort: 0,
      format: "C",
    });
    console.log(`demo: ${source.description} at ${flags.speed}x`);
    console.log(`demo: API on ${logger.http.url} (try ${logger.http.url}/api/sessions)`);
    if (tuiMode() === "ink") {
      // On a terminal the demo shows the dashboard, as start does; q or a signal ends it.
      const quit = new AbortController();
      const abort = () => quit.abort();
      Deno.addSignalListener("SIGINT", abort);
      if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", abort);
      await runTui(logger.app, { signal: quit.signal, outDir: Deno.cwd() });
      controller.abort();
      await logger.close();
      Deno.exit(0);
    }
    logger.app.bus.subscribe((event) => {
      const line = describeEvent(event);
      if (line) console.log(line);
    });
    const stop = async () => {
      controller.abort();
      await logger?.close();
    };
    replay.then((r) => {
      console.log(`demo: the drive is over (${r.sent} packets); Ctrl-C to quit`);
    });
    await untilSignal(stop);
    Deno.exit(0);
  });

async function withStore<T>(data: string, fn: (app: App) => Promise<T>): Promise<T> {
  const kv = await openStore(data);
  try {
    return await fn(await createApp({ kv }));
  } finally {
    kv.close();
  }
}

program.command("import")
  .description("import a track bundle (versions 1-4) or a lap file (versions 1-2) into the store")
  .argument("<file>", "the JSON file; its format field says which it is")
  .option("--track <name>", "store a bundle under this circuit name instead of its own")
  .option("--data <dir>", 'data directory, or ":memory:"', defaultDataDir())
  .action(async (file: string, flags: { data: string; track?: string }) => {
    const json = await readJsonFile(file);
    const format = (json as { format?: unknown } | null)?.format;
    if (format !== BUNDLE_FORMAT && format !== LAP_FILE_FORMAT) {
      throw new Error(
        `${file} has format ${JSON.stringify(format ?? null)}; expected "${BUNDLE_FORMAT}" ` +
          `(a track bundle) or "${LAP_FILE_FORMAT}" (a lap file)`,
      );
    }
    await withStore(flags.data, async (app) => {
      if (format === BUNDLE_FORMAT) {
        const r = await importBundle(app, json, { track: flags.track });
        console.log(
          `imported bundle "${r.track}" as ${r.slug}: ${r.edges_before} -> ${r.edges} edges ` +
            `(+${r.added_edges}), ${r.runs} runs from ${r.sources} source(s)` +
            (r.corners_kept ? "; kept the local corners" : "") +
            (r.sections_kept ? "; kept the local sections" : "") +
            (r.official_kept ? "; kept the local official match" : ""),
        );
        return;
      }
      const result = await importLapFile(app, json);
      console.log(
        `imported lap ${result.lap.number} (${formatLapTime(result.lap.time_ms)}, ` +
          `${result.lap.total_ticks} samples) as lap ${result.lap.id} in ` +
          `${result.created_session ? "new " : ""}session ${result.session.id}`,
      );
    });
  });

const exportCommand = program.command("export").description("export a stored lap or bundle");

exportCommand.command("bundle")
  .description("write the track bundle SLUG as a version 4 bundle (JSON)")
  .argument("<slug>", "the bundle's slug, as GET /api/track-bundles lists it")
  .option("-o, --out <file>", "write to FILE instead of standard output")
  .option("--data <dir>", 'data directory, or ":memory:"', defaultDataDir())
  .action(async (slug: string, flags: { out?: string; data: string }) => {
    await withStore(flags.data, async (app) => {
      const text = serialiseBundle(await exportBundle(app, slug)) + "\n";
      if (flags.out) {
        await Deno.writeTextFile(flags.out, text);
        console.error(`wrote ${flags.out}`);
      } else {
        const writer = Deno.stdout.writable.getWriter();
        await writer.write(new TextEncoder().encode(text));
        writer.releaseLock();
      }
    });
  });

exportCommand.command("lap")
  .description("write lap ID as a lap file (JSON), or as MoTeC CSV with --csv")
  .argument("<id>", "the lap's id")
  .option("--csv", "write MoTeC CSV instead of JSON", false)
  .option("--out <file>", "write to FILE instead of standard output")
  .option("--data <dir>", 'data directory, or ":memory:"', defaultDataDir())
  .action(async (id: string, flags: { csv: boolean; out?: string; data: string }) => {
    if (!/^[1-9]\d*$/.test(id)) throw new InvalidArgumentError("lap id must be a positive integer");
    await withStore(flags.data, async (app) => {
      const out = flags.out
        ? await Deno.open(flags.out, { write: true, create: true, truncate: true })
        : Deno.stdout;
      const writer = out.writable.getWriter();
      const encoder = new TextEncoder();
      try {
        if (flags.csv) {
          const csv = await exportLapCsv(app, Number(id));
          for (const line of csv.lines) await writer.write(encoder.encode(line));
        } else {
          const file = await exportLapFile(app, Number(id));
          await writer.write(encoder.encode(JSON.stringify(file) + "\n"));
        }
      } finally {
        if (flags.out) await writer.close();
        else writer.releaseLock();
      }
      if (flags.out) console.error(`wrote ${flags.out}`);
    });
  });

program.command("identify")
  .description("name every unlabelled session whose shortest full lap matches a known circuit")
  .option("--data <dir>", 'data directory, or ":memory:"', defaultDataDir())
  .action(async (flags: { data: string }) => {
    await withStore(flags.data, async (app) => {
      const r = await identifyUnlabelled(app);
      const names = Object.entries(r.tracks).map(([name, n]) => `${name} x${n}`).join(", ");
      console.log(
        `identify: checked ${r.checked} unlabelled session(s), named ${r.identified}` +
          (names ? ` (${names})` : ""),
      );
      console.log(JSON.stringify(r));
    });
  });

async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}

function describeError(err: unknown): string {
  if (err instanceof ImportRejected) {
    return `rejected: ${err.issues.map((i) => `${i.path}: ${i.message}`).join("\n  ")}`;
  }
  return (err as Error).message;
}

if (import.meta.main) {
  try {
    await program.parseAsync(Deno.args, { from: "user" });
  } catch (err) {
    console.error(`sim-datalogger: ${describeError(err)}`);
    Deno.exit(1);
  }
}
