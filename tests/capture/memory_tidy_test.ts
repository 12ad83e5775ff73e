/**
 * The memory tidy a logger runs after each stored lap: one full collection
 * and a trim, once per delay however many laps ask for it.
 */
import { strict as assert } from "node:assert";
import { collector, memoryTidy, tidyParts } from "../../src/capture/memory_tidy.ts";

/** Parts that count their calls, and a promise resolved at the first trim. */
function countingParts() {
  const trimmed = Promise.withResolvers<void>();
  const counts = { collect: 0, trim: 0 };
  return {
    counts,
    trimmed: trimmed.promise,
    parts: {
      collect: () => void counts.collect++,
      trim: () => {
        counts.trim++;
        trimmed.resolve();
      },
    },
  };
}

Deno.test("requests while a tidy is pending join it: one collection and one trim", async () => {
  const { counts, trimmed, parts } = countingParts();
  const tidy = memoryTidy({ delayMs: 20, parts });
  tidy.request();
  tidy.request();
  tidy.request();
  assert.deepEqual(counts, { collect: 0, trim: 0 });
  await trimmed;
  assert.deepEqual(counts, { collect: 1, trim: 1 });
  assert.equal(tidy.runs, 1);
  tidy.stop();
});

Deno.test("a request after a tidy ran schedules another", async () => {
  const first = countingParts();
  const tidy = memoryTidy({ delayMs: 1, parts: first.parts });
  tidy.request();
  await first.trimmed;
  const second = Promise.withResolvers<void>();
  first.parts.trim = () => {
    first.counts.trim++;
    second.resolve();
  };
  tidy.request();
  await second.promise;
  assert.deepEqual(first.counts, { collect: 2, trim: 2 });
  assert.equal(tidy.runs, 2);
  tidy.stop();
});

Deno.test("stop cancels a pending tidy and ignores later requests", () => {
  const { counts, parts } = countingParts();
  // A clock of the test's own: what is pending is known exactly, no waiting.
  const pending = new Map<number, () => void>();
  let next = 0;
  const timers = {
    set: (fn: () => void) => (pending.set(++next, fn), next),
    clear: (handle: unknown) => void pending.delete(handle as number),
  };
  const tidy = memoryTidy({ delayMs: 1, parts, timers });
  tidy.request();
  assert.equal(pending.size, 1);
  tidy.stop();
  assert.equal(pending.size, 0);
  tidy.request();
  assert.equal(pending.size, 0);
  for (const fn of pending.values()) fn();
  assert.deepEqual(counts, { collect: 0, trim: 0 });
  assert.equal(tidy.runs, 0);
});

Deno.test("on Deno the collector is available and frees what nothing references", async () => {
  const collect = collector();
  assert.equal(typeof collect, "function");
  let target: object | null = { payload: new Array(1000).fill(7) };
  const ref = new WeakRef(target);
  target = null;
  // A WeakRef's target is kept until the current job ends.
  await new Promise((resolve) => setTimeout(resolve, 0));
  collect!();
  assert.equal(ref.deref(), undefined);
});

Deno.test("on Linux the trim is available, and a tidy with the real parts runs", () => {
  const parts = tidyParts();
  assert.equal(typeof parts.collect, "function");
  assert.equal(typeof parts.trim, Deno.build.os === "linux" ? "function" : "object");
  parts.collect!();
  parts.trim?.();
});
