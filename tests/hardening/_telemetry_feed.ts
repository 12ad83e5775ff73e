/**
 * A console stand-in for hardening tests: a logger on loopback fed the
 * synthetic drive's encrypted packets, the first part at real time (60 Hz)
 * while the test does its damage, the rest as fast as the logger keeps up.
 * Its laps are compared with those of the same frames fed straight into a
 * fresh application.
 *
 * @module
 */
import { createApp } from "../../src/app/create_app.ts";
import { encryptPacket } from "../../src/core/gt7/cipher.ts";
import { decodeFrame, readCurrentLap } from "../../src/core/gt7/decode.ts";
import type { Lap } from "../../src/core/laps/lap.ts";
import { openReplaySource } from "../../src/cli/replay_source.ts";
import type { Logger } from "../../src/cli/logger_process.ts";
import { HANG_MS, startTestLogger } from "../e2e/harness.ts";
import { getLap, listLaps } from "../../src/storage/laps.ts";
import { listSessions } from "../../src/storage/sessions.ts";

/** The fixed clock of every hardening logger. */
export const NOW = () => new Date("2026-11-21T12:00:00Z");

/** A stored lap without what differs between two stores (ids, wall-clock time). */
export type ComparableLap = Omit<Lap, "id" | "session_id" | "finished_at">;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The synthetic drive's plaintext packets. */
export async function drivePackets(seed: number, laps: number): Promise<Uint8Array[]> {
  const source = await openReplaySource(`synthetic:${seed}`, { laps });
  return [...source.packets()];
}

/** Every stored lap, oldest session first. */
export async function storedLaps(kv: Deno.Kv): Promise<ComparableLap[]> {
  const out: ComparableLap[] = [];
  for (const session of (await listSessions(kv)).reverse()) {
    for (const summary of await listLaps(kv, session.id)) {
      const { id: _i, session_id: _s, finished_at: _f, ...lap } = (await getLap(kv, summary.id))!;
      out.push(lap);
    }
  }
  return out;
}

/** The laps the packets give when fed straight into a fresh in-memory application. */
export async function referenceLaps(packets: readonly Uint8Array[]): Promise<ComparableLap[]> {
  const kv = await Deno.openKv(":memory:");
  try {
    const app = await createApp({ kv, now: NOW });
    for (const p of packets) app.live.ingest(decodeFrame(p));
    await app.live.flush();
    return await storedLaps(kv);
  } finally {
    kv.close();
  }
}

/** A logger on loopback whose heartbeats go to a socket that is drained and dropped. */
export interface FedLogger {
  logger: Logger;
  /** Sends `packets`: the first `realTime` at 60 Hz while `during` runs, then the rest. */
  feed(
    packets: readonly Uint8Array[],
    realTime: number,
    during?: () => Promise<void>,
  ): Promise<{ seconds: number }>;
  close(): Promise<void>;
}

/** Starts a logger (in-memory store) and the sockets that feed it. */
export async function startFedLogger(): Promise<FedLogger> {
  const sink = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  const drain = (async () => {
    try {
      for await (const _ of sink) { /* heartbeats are not needed */ }
    } catch { /* closed */ }
  })();
  const logger = await startTestLogger((sink.addr as Deno.NetAddr).port, NOW);
  const to: Deno.NetAddr = { transport: "udp", hostname: "127.0.0.1", port: logger.udp.port };
  const sock = Deno.listenDatagram({ hostname: "127.0.0.1", port: 0, transport: "udp" });
  const send = (packets: readonly Uint8Array[], i: number) =>
    sock.send(encryptPacket(packets[i], (Math.imul(i + 1, 2654435761) ^ 0x5bd1e995) >>> 0), to);

  /** Waits until `n` packets were decoded; the bound only turns a lost packet into a failure. */
  const untilDecoded = async (n: number) => {
    const deadline = Date.now() + HANG_MS;
    while (logger.udp.status().decoded < n) {
      if (Date.now() > deadline) {
        const s = logger.udp.status();
        throw new Error(
          `the logger decoded ${s.decoded} of ${n} packets in ${HANG_MS} ms ` +
            `(missing ${s.missing}, kernel drops ${s.kernel_drops})`,
        );
      }
      await sleep(1);
    }
  };

  return {
    logger,
    async feed(packets, realTime, during) {
      const start = performance.now();
      let sent = 0;
      const paced = (async () => {
        const end = Math.min(realTime, packets.length);
        while (sent < end) {
          const wait = start + (sent * 1000) / 60 - performance.now();
          if (wait >= 1) await sleep(wait);
          await send(packets, sent++);
        }
      })();
      await Promise.all([paced, during?.()]);
      const seconds = (performance.now() - start) / 1000;
      // The rest as fast as the logger decodes, letting each completed lap be stored first.
      let lastLap = sent > 0 ? readCurrentLap(packets[sent - 1]) : null;
      while (sent < packets.length) {
        await untilDecoded(sent - 63);
        const lap = readCurrentLap(packets[sent]);
        if (lap !== lastLap) {
          await logger.app.live.flush();
          lastLap = lap;
        }
        await send(packets, sent++);
      }
      await untilDecoded(packets.length);
      await logger.app.live.flush();
      return { seconds };
    },
    async close() {
      sock.close();
      await logger.close();
      sink.close();
      await drain;
    },
  };
}
