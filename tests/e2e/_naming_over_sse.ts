/**
 * The naming scenario shared by the end-to-end test and the event-latency
 * benchmark: a logger fed by the fake console over UDP, a real HTTP client
 * on GET /api/events, and the surveyed bundle of the circuit imported before
 * the out-lap goes on. The first completed lap names the session from the bundle.
 *
 * @module
 */
import { strict as assert } from "node:assert";
import { generateCircuit } from "../../src/core/synthetic/circuit.ts";
import type { Logger } from "../../src/cli/logger_process.ts";
import { circuitBundle } from "../core/identify/_laps.ts";
import { type SseMessage, SseReader } from "../server/_sse.ts";
import { replayInto } from "./harness.ts";

/** The synthetic circuit driven. */
export const NAMING_SEED = 7;

/** What one drive of the scenario saw. */
export interface NamingDrive {
  logger: Logger;
  sse: SseReader;
  /** The `session` event with reason `identified`. */
  named: SseMessage;
  /** Milliseconds from the packet that ended lap 1 reaching the logger to the client reading the event. */
  delayMs: number;
  /** Stops the client and the logger. */
  close(): Promise<void>;
}

/** Drives two laps of the synthetic circuit and waits for the client to hear the naming. */
export async function driveNamedOverSse(): Promise<NamingDrive> {
  let lapEndedAt = 0;
  let reader: SseReader | null = null;
  const { logger } = await replayInto(`synthetic:${NAMING_SEED}`, {
    laps: 2,
    // The client connects and the bundle is imported before the out-lap goes on,
    // so lap 1 is the first lap that can be named, however busy the machine is.
    before: async (logger) => {
      let lap: number | null = null;
      logger.app.live.tap((frame) => {
        if (lap === 1 && frame.currentLap === 2 && lapEndedAt === 0) lapEndedAt = performance.now();
        lap = frame.currentLap;
      });
      const res = await fetch(`${logger.http.url}/api/events`);
      assert.equal(res.status, 200);
      reader = new SseReader(res);
      const imported = await fetch(`${logger.http.url}/api/track-bundles/import`, {
        method: "POST",
        body: JSON.stringify(circuitBundle(generateCircuit(NAMING_SEED), "Demo Ring")),
      });
      assert.equal(imported.status, 200);
      await imported.body?.cancel();
      assert.equal(lapEndedAt, 0);
    },
  });
  const sse = reader! as SseReader;
  const close = async () => {
    await sse.cancel();
    await logger.app.tracks.fingerprints.idle();
    await logger.close();
  };
  try {
    const named = await sse.waitFor((m) =>
      m.event === "session" && JSON.parse(m.data).reason === "identified"
    );
    assert.ok(lapEndedAt > 0, "lap 1 ended");
    return { logger, sse, named, delayMs: named.at - lapEndedAt, close };
  } catch (err) {
    await close();
    throw err;
  }
}
