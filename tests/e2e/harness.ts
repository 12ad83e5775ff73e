/**
 * End-to-end harness: a real logger (store in memory, HTTP and UDP on free
 * loopback ports) fed by a real fake console over UDP.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { type Logger, type LoggerOptions, startLogger } from "../../src/cli/logger_process.ts";
import type { LapSummary } from "../../src/core/laps/lap.ts";
import type { Session } from "../../src/core/laps/session.ts";
import { type ReplayResult, type ReplaySpeed, runFakeConsole } from "../../src/cli/fake_console.ts";
import { openReplaySource, type SyntheticOptions } from "../../src/cli/replay_source.ts";

/** A logger listening on loopback with an in-memory store; `extra` overrides any option. */
export async function startTestLogger(
  consolePort: number,
  now?: () => Date,
  extra: Partial<LoggerOptions> = {},
): Promise<Logger> {
  return await startLogger({
    data: ":memory:",
    host: "127.0.0.1",
    port: 0,
    console: "127.0.0.1",
    consolePort,
    udpPort: 0,
    format: "C",
    now,
    ...extra,
  });
}

/**
 * Replays `spec` into a fresh logger and resolves once the replay ended and
 * writes settled. `before` runs as soon as the logger is up, and the replay
 * holds (after at most the few packets sent meanwhile) until it is done;
 * `during` runs alongside the replay; `beforePacket` is awaited before each
 * packet is sent (with the count sent so far), to mix other traffic in at
 * fixed places. The logger acknowledges what it consumed, so the replay never
 * outruns it at any speed (see src/cli/fake_console.ts).
 */
export async function replayInto(
  spec: string,
  opts: {
    speed?: ReplaySpeed;
    laps?: number;
    /** The synthetic drive's other options (steady grip, mistakes). */
    synthetic?: Omit<SyntheticOptions, "laps">;
    before?: (logger: Logger) => Promise<void>;
    during?: (logger: Logger) => Promise<void>;
    beforePacket?: (sent: number, logger: Logger) => Promise<void>;
    logger?: Partial<LoggerOptions>;
  } = {},
): Promise<{ logger: Logger; result: ReplayResult }> {
  const source = await openReplaySource(spec, { ...opts.synthetic, laps: opts.laps });
  const listening = Promise.withResolvers<number>();
  let logger: Logger | null = null;
  let ready: Promise<void> | null = null;
  const replay = runFakeConsole({
    hostname: "127.0.0.1",
    port: 0,
    packets: source.packets,
    // 20x real time; the logger's acknowledgements hold the replay whenever it
    // falls behind (a lap being stored, a machine busy with other tests).
    speed: opts.speed ?? 20,
    onListen: (p) => listening.resolve(p),
    backpressure: async (sent) => {
      if (ready) await ready;
      if (logger) await opts.beforePacket?.(sent, logger);
    },
  });
  logger = await startTestLogger(await listening.promise, undefined, opts.logger);
  try {
    ready = opts.before?.(logger) ?? null;
    const [result] = await Promise.all([replay, ready, opts.during?.(logger)]);
    await settle(logger, result.sent);
    return { logger, result };
  } catch (err) {
    await logger.close();
    throw err;
  }
}

/**
 * A `beforePacket` hook for {@linkcode replayInto} spreading `junk` evenly
 * over `packets` packets (at most ⌈junk/packets⌉ before each), sent from a socket of its own:
 * the order in which the logger receives packets and garbage is fixed,
 * whatever the scheduler. `close()` (idempotent) releases the socket.
 */
export function mixIn(junk: Uint8Array[], packets: number) {
  let sock: Deno.DatagramConn | null = null;
  let next = 0;
  return {
    async beforePacket(sent: number, logger: Logger) {
      sock ??= Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
      const to: Deno.NetAddr = { transport: "udp", hostname: "127.0.0.1", port: logger.udp.port };
      const upTo = Math.floor(((sent + 1) * junk.length) / packets);
      while (next < upTo) {
        // At most 32 bad datagrams the logger has not counted yet: with the
        // replay's window of 64 packets that fits the default socket buffer
        // (208 KiB) even while the receiver is descheduled, so none is dropped.
        while (next - logger.udp.status().rejected >= 32) await sleep(1);
        await sock.send(junk[next++], to);
      }
    },
    close() {
      sock?.close();
      sock = null;
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Waits until the logger has handed on all `sent` packets, then flushes
 * writes. The replay is paced by the logger's acknowledgements, so on
 * loopback every packet arrives; the bound only turns a hang (a packet the
 * kernel did drop: see `kernel_drops`) into a failure with the counts.
 */
export async function settle(logger: Logger, sent: number): Promise<void> {
  const deadline = Date.now() + HANG_MS;
  while (logger.udp.status().decoded < sent) {
    if (Date.now() > deadline) {
      const s = logger.udp.status();
      throw new Error(
        `the logger handed on ${s.decoded} of ${sent} packets in ${HANG_MS} ms ` +
          `(kernel drops: ${s.kernel_drops})`,
      );
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await logger.app.live.flush();
}

/** How long a wait may take before it counts as a hang, whatever the load. */
export const HANG_MS = 120_000;

/** GETs `path` from the logger's API and parses the JSON body. */
export async function getJson<T>(logger: Logger, path: string): Promise<T> {
  const res = await fetch(`${logger.http.url}${path}`);
  const body = await res.json();
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body as T;
}

/**
 * Asserts that the newest session holds the Suzuka capture's one lap as
 * recorded: 99,036 ms, 5,942 samples, complete.
 */
export async function assertSuzukaLap(logger: Logger): Promise<void> {
  const laps = await newestSessionLaps(logger);
  assert.equal(laps.length, 1);
  assert.equal(laps[0].time_ms, 99036);
  assert.equal(laps[0].total_ticks, 5942);
  assert.equal(laps[0].complete, true);
}

/** The laps of the first session GET /api/sessions lists (the newest), as the API lists them. */
export async function newestSessionLaps(logger: Logger): Promise<LapSummary[]> {
  const [session] = await getJson<Session[]>(logger, "/api/sessions");
  return await getJson<LapSummary[]>(logger, `/api/sessions/${session.id}/laps`);
}
