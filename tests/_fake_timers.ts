/**
 * A fake clock for the hub sender (src/app/hub_link/hub_sender.ts): its
 * back-off timers are held, their waits read, and fired by the test.
 *
 * @module
 */
import type { HubTimers } from "../src/app/hub_link/hub_sender.ts";

/** Timers held until fired, with the random number the jitter reads. */
export interface FakeTimers {
  timers: HubTimers;
  /** Waits asked for and not yet fired or cancelled, ms, oldest first. */
  pending(): number[];
  /** Fires the oldest pending timer; throws when none is pending. */
  fire(): void;
}

/** Fake timers whose jitter reads `random` every time. */
export function fakeTimers(random = 0.5): FakeTimers {
  let held: { ms: number; fn: () => void }[] = [];
  return {
    timers: {
      after(ms, fn) {
        const t = { ms, fn };
        held.push(t);
        return () => {
          held = held.filter((x) => x !== t);
        };
      },
      random: () => random,
    },
    pending: () => held.map((t) => t.ms),
    fire() {
      const t = held.shift();
      if (!t) throw new Error("no timer pending");
      t.fn();
    },
  };
}
