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
import { startProgressBar } from "./src/server/progress_bar.ts";
import { CaptureError } from "./src/core/gt7/capture.ts";
import {
  type CaptureFile,
  captureFileOf,
  EXPECTED_FILES,
  type FileContent,
  fileContent,
  gunzipIfCompressed,
} from "./src/core/gt7/capture_file.ts";
import { type CaptureImportResult, importCapture } from "./src/app/capture_import.ts";

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
  record?: string;
  recordMaxMb: number;
  recordKeep: number;
}

function recordKeep(value: string): number {
  if (!/^\d{1,3}$/.test(value)) throw new InvalidArgumentError("must be a whole number 0..999");
  return Number(value);
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
    )
    .option(
      "--record <file>",
      "write every datagram received (raw, with arrival times) to FILE, for replay or import",
    )
    .option("--record-max-mb <n>", "start a new record file past N MiB", positive, 256)
    .option("--record-keep <n>", "full record files kept as FILE.1..FILE.N", recordKeep, 4);
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
    }).catch((err) => {
      if (err instanceof Deno.errors.AddrInUse) {
        throw new Error(
          `heartbeat port ${flags.port} is already in use (another replay running?); ` +
            "choose another with --port (and the logger's --console-port)",
        );
      }
      throw err;
    });
    console.log(
      `replay: sent ${result.sent} packets` +
        (result.acks > 0
          ? `, paced by the logger's acknowledgements (at most ${result.maxInFlight} in flight)`
          : ""),
    );
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
  .description(
    "import a track bundle (versions 1-4), a lap file (versions 1-2), or the laps of a capture " +
      "or record file, into the store",
  )
  .argument(
    "<file>",
    "a JSON bundle or lap file (its format field says which), or a capture (.gt7, .gt7.gz) or " +
      "--record file (plain or gzip); told apart by content",
  )
  .option("--track <name>", "store a bundle under this circuit name instead of its own")
  .option("--data <dir>", 'data directory, or ":memory:"', defaultDataDir())
  .action(async (file: string, flags: { data: string; track?: string }) => {
    const content = await readImportFile(file);
    if (content.kind === "capture") {
      await withStore(flags.data, (app) => importCaptureFile(app, file, content.file));
      return;
    }
    const json = content.json;
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

/**
 * What `import` was given, told apart by content: gzip is unpacked first, a
 * record file or a capture is split into datagrams, and a document whose
 * first byte opens an object or array is parsed as JSON.
 */
async function readImportFile(
  file: string,
): Promise<{ kind: "json"; json: unknown } | { kind: "capture"; file: CaptureFile }> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(file);
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
  let content: FileContent | null = null;
  try {
    const unzipped = gunzipIfCompressed(bytes);
    content = fileContent(unzipped.bytes);
    if (content === "json") {
      let json: unknown;
      try {
        json = JSON.parse(new TextDecoder().decode(unzipped.bytes));
      } catch (err) {
        throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
      }
      return { kind: "json", json };
    }
    return { kind: "capture", file: captureFileOf(unzipped) };
  } catch (err) {
    if (!(err instanceof CaptureError)) throw err;
    // Neither JSON nor a record file: say what would have been accepted.
    const expected = content === "packets"
      ? `; expected a JSON lap file or track bundle, or ${EXPECTED_FILES}`
      : "";
    throw new Error(`${file}: ${err.message}${expected}`);
  }
}

/** Records a capture's laps with a progress bar on a terminal, then prints the summary. */
async function importCaptureFile(app: App, name: string, file: CaptureFile): Promise<void> {
  const bar = startProgressBar({ unit: "packets" });
  let result: CaptureImportResult;
  try {
    result = await importCapture(app, file, { onProgress: (p) => bar.update(p) });
  } finally {
    bar.clear();
  }
  for (const line of describeCaptureImport(name, file, result)) console.log(line);
}

/** Ascending ids with runs folded: [1, 2, 3, 5] is "1-3, 5". */
function idRanges(ids: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ids.length; i++) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j] + 1) j++;
    parts.push(j > i ? `${ids[i]}-${ids[j]}` : `${ids[i]}`);
    i = j;
  }
  return parts.join(", ");
}

/** The summary of a capture import: one line, then a line per note. */
function describeCaptureImport(
  name: string,
  file: CaptureFile,
  r: CaptureImportResult,
): string[] {
  const n = (v: number) => v.toLocaleString("en-US");
  const what = file.kind === "record"
    ? `record file${file.compressed ? ", gzip" : ""}`
    : `capture, format ${file.format}, ${file.encrypted ? "encrypted" : "decrypted"}` +
      (file.compressed ? ", gzip" : "");
  const sessions = r.sessions.length === 0
    ? "; no session created"
    : ` in new session${r.sessions.length === 1 ? "" : "s"} ${idRanges(r.sessions)}`;
  const lines = [
    `imported ${name} (${what}): ${n(r.datagrams)} packets read, ${n(r.rejected)} rejected, ` +
    `${n(r.laps)} lap${r.laps === 1 ? "" : "s"} stored` +
    (r.incomplete_laps === null ? "" : ` (${n(r.incomplete_laps)} incomplete)`) + sessions,
  ];
  for (const s of r.named) lines.push(`session ${s.session} identified as "${s.track}"`);
  if (r.trailing_bytes > 0) {
    lines.push(
      file.kind === "record"
        ? `note: the file ends in a truncated entry (${n(r.trailing_bytes)} bytes; a recorder ` +
          "stopped mid-write): it was ignored, and everything before it imported"
        : `note: ignored ${n(r.trailing_bytes)} bytes after the last whole packet`,
    );
  }
  return lines;
}

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
