/**
 * A fake console on a free loopback port for commands under test that need
 * one (`--console`): it streams one synthetic lap to the first logger that
 * sends a heartbeat, as fast as that logger acknowledges.
 *
 * @module
 */
import { runFakeConsole } from "../../src/cli/fake_console.ts";
import { openReplaySource } from "../../src/cli/replay_source.ts";

/** A fake console streaming, its port, and how to stop it. */
export interface TestConsole {
  port: number;
  /** Stops it (if still streaming) and resolves once its socket is closed. */
  stop(): Promise<void>;
}

/** Starts a fake console of `laps` synthetic laps (seed 7) on 127.0.0.1 at a free port. */
export async function startTestConsole(laps = 1): Promise<TestConsole> {
  const source = await openReplaySource("synthetic:7", { laps });
  const stopping = new AbortController();
  const listening = Promise.withResolvers<number>();
  const done = runFakeConsole({
    hostname: "127.0.0.1",
    port: 0,
    packets: source.packets,
    speed: "max",
    signal: stopping.signal,
    onListen: (p) => listening.resolve(p),
  }).then(() => {}, (err) => {
    // A failure before it listened (the port, the platform) must fail the caller, not hang it;
    // one after (the stop) ends the drive as meant.
    listening.reject(err);
  });
  return {
    port: await listening.promise,
    async stop() {
      stopping.abort();
      await done;
    },
  };
}
