/**
 * The hub's intake gate: at most its limit of tasks run at once, the
 * others start in arrival order as places free, and a failing task frees
 * its place too.
 */
import { strict as assert } from "node:assert";
import { IntakeGate } from "../../../src/app/hub/intake_gate.ts";

Deno.test("the gate runs at most its limit at once, the rest in arrival order", async () => {
  const gate = new IntakeGate(2);
  const started: number[] = [];
  const release: (() => void)[] = [];
  let running = 0;
  let most = 0;
  const tasks = [0, 1, 2, 3, 4].map((i) =>
    gate.run(async () => {
      started.push(i);
      most = Math.max(most, ++running);
      await new Promise<void>((resolve) => release[i] = resolve);
      running--;
      if (i === 1) throw new Error("task 1 fails");
      return i;
    })
  );
  const settled = Promise.allSettled(tasks);
  // Each release lets the next waiting task start; wait for that start before the next release.
  const startedCount = async (n: number) => {
    while (started.length < n) await new Promise((r) => setTimeout(r, 0));
  };
  await startedCount(2);
  assert.deepEqual(started, [0, 1]);
  for (const i of [1, 0, 2, 3, 4]) {
    release[i]();
    await startedCount(Math.min(5, started.length + 1));
  }
  const results = await settled;
  assert.deepEqual(results.map((r) => r.status === "fulfilled" ? r.value : "failed"), [
    0,
    "failed",
    2,
    3,
    4,
  ]);
  assert.deepEqual(started, [0, 1, 2, 3, 4]);
  assert.equal(most, 2);
});
