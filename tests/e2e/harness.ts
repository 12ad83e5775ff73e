/**
 * End-to-end harness: a real logger (store in memory, HTTP and UDP on free
 * loopback ports) fed by a real fake console over UDP.
 *
 * @module
 */
import { type Logger, startLogger } from "../../src/server/logger.ts";
import {
  type ReplayResult,
  type ReplaySpeed,
  runFakeConsole,
} from "../../src/server/fake_console.ts";
import { openReplaySource } from "../../src/server/replay_source.ts";

/** A logger listening on loopback with an in-memory store. */
export async function startTestLogger(consolePort: number, now?: () => Date): Promise<Logger> {
  return await startLogger({
    data: ":memory:",
    host: "127.0.0.1",
    port: 0,
    console: "127.0.0.1",
    consolePort,
    udpPort: 0,
    format: "C",
    now,
  });
}

/**
 * Replays `spec` into a fresh logger and resolves once the replay ended and
 * writes settled. `before` runs as soon as the logger is up, and the replay
 * holds (after at most the few packets sent meanwhile) until it is done;
 * `during` runs alongside the replay.
 */
export async function replayInto(
  spec: string,
  opts: {
    speed?: ReplaySpeed;
    laps?: number;
    before?: (logger: Logger) => Promise<void>;
    during?: (logger: Logger) => Promise<void>;
  } = {},
): Promise<{ logger: Logger; result: ReplayResult }> {
  const source = await openReplaySource(spec, { laps: opts.laps });
  const listening = Promise.withResolvers<number>();
  let logger: Logger | null = null;
  let ready: Promise<void> | null = null;
  const replay = runFakeConsole({
    hostname: "127.0.0.1",
    port: 0,
    packets: source.packets,
    // 20x real time; the backpressure below slows the replay down whenever the
    // logger falls behind (a lap being stored, a machine busy with other
    // tests), so the kernel never has to drop a packet.
    speed: opts.speed ?? 20,
    onListen: (p) => listening.resolve(p),
    backpressure: async (sent) => {
      if (ready) await ready;
      if (logger) await keepUp(logger, sent);
    },
  });
  logger = await startTestLogger(await listening.promise);
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

/** Most packets in flight before the replay waits for the logger. */
const IN_FLIGHT = 48;

/**
 * Holds the replay while the logger is more than {@link IN_FLIGHT} packets
 * behind (a loaded machine or a lap being stored), for at most 250 ms, so a
 * packet the kernel did drop still shows up as missing rather than hanging.
 */
async function keepUp(logger: Logger, sent: number): Promise<void> {
  const deadline = Date.now() + 250;
  while (sent - logger.udp.status().decoded >= IN_FLIGHT && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** Waits until the logger has seen `sent` packets (or 2 s of silence), then flushes writes. */
export async function settle(logger: Logger, sent: number): Promise<void> {
  const deadline = Date.now() + 5000;
  let last = -1;
  let stableSince = Date.now();
  while (Date.now() < deadline) {
    const s = logger.udp.status();
    if (s.decoded >= sent) break;
    if (s.packets_received !== last) {
      last = s.packets_received;
      stableSince = Date.now();
    } else if (Date.now() - stableSince > 2000) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  await logger.app.live.flush();
}

/** GETs `path` from the logger's API and parses the JSON body. */
export async function getJson<T>(logger: Logger, path: string): Promise<T> {
  const res = await fetch(`${logger.http.url}${path}`);
  const body = await res.json();
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body as T;
}
