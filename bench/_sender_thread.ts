/**
 * The side of the UDP benches that drives them: a passive logger on
 * loopback with its store in memory, the sender thread of
 * bench/_udp_sender.ts, and the wait for the logger to take what was sent.
 *
 * @module
 */
import { type Logger, type LoggerOptions, startLogger } from "../src/cli/logger_process.ts";
import type { SendJob, SendResult } from "./_udp_sender.ts";

/** A logger as `serve` starts it, store in memory, listening passively; `extra` on top. */
export function benchLogger(extra: Partial<LoggerOptions> = {}): Promise<Logger> {
  return startLogger({
    data: ":memory:",
    host: "127.0.0.1",
    port: 0,
    console: null,
    consolePort: 33739,
    udpPort: 0,
    format: "C",
    onNotice: () => {},
    ...extra,
  });
}

/** A sender thread, once it has built its packets. */
export async function startSender(): Promise<Worker> {
  const worker = new Worker(new URL("./_udp_sender.ts", import.meta.url), { type: "module" });
  const ready = Promise.withResolvers<void>();
  worker.onmessage = () => ready.resolve();
  await ready.promise;
  return worker;
}

/** Has `worker` stream `job`; resolves with what it sent once it is done. */
export function send(worker: Worker, job: SendJob): Promise<SendResult> {
  const done = Promise.withResolvers<SendResult>();
  worker.onmessage = (e) => done.resolve(e.data);
  worker.postMessage(job);
  return done.promise;
}

/** Waits until the logger decoded `sent` packets, or its count did not move for 2 s. */
export async function drain(logger: Logger, sent: number): Promise<void> {
  let last = -1;
  let since = performance.now();
  while (logger.udp.status().decoded < sent && performance.now() - since < 2000) {
    const now = logger.udp.status().decoded;
    if (now !== last) {
      last = now;
      since = performance.now();
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}
