/**
 * A whole logger process in one call: store, application, HTTP API and UDP
 * telemetry client. The start, serve and demo commands and the end-to-end
 * tests all start it this way. It lives in src/cli because it is the one
 * place that opens the store and hands it to every layer.
 *
 * @module
 */
import { isLoopback } from "../core/loopback.ts";
import type { PacketFormat } from "../core/gt7/format.ts";
import { type App, createApp } from "../app/create_app.ts";
import { closeStore, openStore, storePath } from "../storage/kv.ts";
import { RoutedLog } from "../app/log.ts";
import { consoleLog } from "../server/console_log.ts";
import { memoryTidy } from "../capture/memory_tidy.ts";
import { type HttpServer, startHttp } from "../server/http.ts";
import { startUdpClient, type UdpClient } from "../capture/udp_client.ts";
import type { RecordOptions } from "../capture/record_writer.ts";
import type { RelayTarget } from "../capture/relay_hub.ts";
import type { HubSettings } from "../core/hub/hub_settings.ts";

/** Everything a logger needs to start. */
export interface LoggerOptions {
  /** Data directory, or ":memory:". */
  data: string;
  /** HTTP bind address (loopback by default). */
  host: string;
  /** HTTP port; 0 picks a free one. */
  port: number;
  /** The console's address, or null to listen passively. */
  console: string | null;
  consolePort: number;
  /** Local UDP port for telemetry; 0 picks a free one. */
  udpPort: number;
  format: PacketFormat;
  /** Bearer token letting other machines make changes; null or absent refuses them. */
  token?: string | null;
  /** The one browser origin allowed cross-origin access; null or absent allows none. */
  cors?: string | null;
  /** The clock; injectable for tests. */
  now?: () => Date;
  /** Record every datagram received to this file, rotated by size (`--record`). */
  record?: RecordOptions | null;
  /** Where telemetry announcements go (a record file rotated); default stderr. */
  onNotice?: (line: string) => void;
  /** UDP receive buffer to ask for, bytes; 0 keeps the platform's (default 8 MiB). */
  receiveBufferBytes?: number;
  /** `--relay`: the UDP port other apps heartbeat for the console's packets; 0 picks one. */
  relay?: number | null;
  /** `--forward` targets, sent every packet without a heartbeat. */
  forwards?: readonly RelayTarget[];
  /** Where laps wait while the store's disk is full (`--spill`); the OS temp directory by default. */
  spill?: string | null;
  /** The team hub recorded laps are pushed to (`--hub`, `--hub-token`); none when null or absent. */
  hub?: HubSettings | null;
}

/** A running logger. */
export interface Logger {
  app: App;
  /**
   * The application's log (`app.log`): standard error until a dashboard
   * diverts it to its notice line for as long as it draws.
   */
  log: RoutedLog;
  http: HttpServer;
  udp: UdpClient;
  /**
   * Stops telemetry and HTTP, flushes writes and closes the store, its
   * write-ahead log folded into the database file. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * The UDP address to bind: loopback when the console is on this machine (or
 * none is set), every interface when it is on the network, since the console
 * sends to this machine's LAN address.
 */
export function udpBindHost(consoleHost: string | null): string {
  if (consoleHost === null) return "127.0.0.1";
  return isLoopback(consoleHost) ? "127.0.0.1" : "0.0.0.0";
}

/**
 * Runs `bind`, turning "address already in use" into an error that names the
 * port and the flag that chooses another: the raw OS message names neither.
 */
function inUse<T>(what: string, port: number, flag: string, bind: () => T): T {
  const explain = (err: unknown): never => {
    if (err instanceof Deno.errors.AddrInUse) {
      throw new Deno.errors.AddrInUse(
        `${what} port ${port} is already in use (another logger running?); ` +
          `choose another with ${flag}`,
      );
    }
    throw err;
  };
  try {
    const result = bind();
    return (result instanceof Promise ? result.catch(explain) : result) as T;
  } catch (err) {
    return explain(err);
  }
}

/**
 * Opens the store and starts every part of the logger. Rejects with
 * `Deno.errors.AddrInUse` naming the port and its flag when the HTTP or UDP
 * port is taken.
 */
export async function startLogger(opts: LoggerOptions): Promise<Logger> {
  // A disk too full to open the store for writing still lets the driver read it.
  const kv = await openStore(opts.data, { readOnlyFallback: true });
  let app: App;
  let http: HttpServer | null = null;
  const log = new RoutedLog(consoleLog);
  try {
    // Compiled geometry follows every bundle change, so maps and coverage are ready when asked.
    app = await createApp({
      kv,
      now: opts.now,
      log,
      watchGeometry: true,
      watchStore: true,
      storePath: storePath(kv),
      spillBase: opts.spill ?? null,
      hub: opts.hub ? { settings: opts.hub } : null,
    });
    http = inUse("HTTP", opts.port, "--port", () =>
      startHttp(app, {
        hostname: opts.host,
        port: opts.port,
        token: opts.token ?? null,
        cors: opts.cors ?? null,
      }));
    const udp = await inUse("UDP", opts.udpPort, "--udp-port", () =>
      startUdpClient({
        hostname: udpBindHost(opts.console),
        port: opts.udpPort,
        console: opts.console,
        consolePort: opts.consolePort,
        format: opts.format,
        onFrame: (frame) => app.live.ingest(frame),
        record: opts.record ?? null,
        onNotice: opts.onNotice,
        receiveBufferBytes: opts.receiveBufferBytes,
        relay: (opts.relay ?? null) !== null || (opts.forwards?.length ?? 0) > 0
          ? {
            hostname: udpBindHost(opts.console),
            port: opts.relay ?? null,
            forwards: opts.forwards ?? [],
          }
          : null,
      }));
    app.attachTelemetry(udp);
    // A stored lap leaves garbage the engine is slow to give back (see memory_tidy.ts).
    const tidy = memoryTidy();
    // So does a bundle import, tens of MB of it. A tidy as soon as it has answered (the
    // next import waits for the geometry rebuild this one started) keeps back-to-back
    // imports from piling it up: 511 MB over idle before, 246-251 MB (docs/performance.md).
    const importTidy = memoryTidy({ delayMs: 0 });
    // The rebuild's own garbage goes with the next lap-style tidy, so an idle logger gives it back.
    const stopImportTidy = app.geometry.onRebuilt(() => tidy.request());
    const stopTidy = app.bus.subscribe((event) => {
      if (event.type === "lap") tidy.request();
      if (event.type === "bundle" && event.reason === "import") importTidy.request();
    });
    let closing: Promise<void> | null = null;
    return {
      app,
      log,
      http,
      udp,
      close() {
        closing ??= (async () => {
          stopTidy();
          tidy.stop();
          importTidy.stop();
          stopImportTidy();
          try {
            await app.shutdown();
          } finally {
            // A failed shutdown still closes the server and the store.
            await http!.close();
            // Folds the write-ahead log in, so a clean stop leaves only the database file.
            const closed = closeStore(kv);
            if (closed.problem !== null) {
              consoleLog.warn(`the store's write-ahead log was kept (${closed.problem})`);
            }
          }
        })();
        return closing;
      },
    };
  } catch (err) {
    await http?.close();
    kv.close();
    throw err;
  }
}
