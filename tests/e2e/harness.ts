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

/** Replays `spec` into a fresh logger and resolves once the replay ended and writes settled. */
export async function replayInto(
  spec: string,
  opts: { speed?: ReplaySpeed; laps?: number; during?: (logger: Logger) => Promise<void> } = {},
): Promise<{ logger: Logger; result: ReplayResult }> {
  const source = await openReplaySource(spec, { laps: opts.laps });
  const listening = Promise.withResolvers<number>();
  const replay = runFakeConsole({
    hostname: "127.0.0.1",
    port: 0,
    packets: source.packets,
    // Storing a lap blocks the logger for ~30 ms (events, encoding, gzip); at
    // 20x real time (1,200 packets/s) that is ~40 packets, far below what the
    // socket buffer holds even on a busy machine, so no packet is lost.
    speed: opts.speed ?? 20,
    onListen: (p) => listening.resolve(p),
  });
  const logger = await startTestLogger(await listening.promise);
  try {
    const [result] = await Promise.all([replay, opts.during?.(logger)]);
    await settle(logger, result.sent);
    return { logger, result };
  } catch (err) {
    await logger.close();
    throw err;
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
