import { strict as assert } from "node:assert";
import { renderProgress, startProgressBar } from "../../src/cli/progress_bar.ts";

Deno.test("renderProgress shows the bar, percentage, counts, rate and laps", () => {
  assert.equal(
    renderProgress({ done: 3210, total: 6420, rate: 152_345.6, laps: 0 }, "packets", 100),
    "[##########----------]  50%  3,210/6,420 packets  152,346/s  0 laps stored",
  );
  assert.equal(
    renderProgress({ done: 6420, total: 6420, rate: null, laps: 1 }, "packets", 100),
    "[####################] 100%  6,420/6,420 packets  1 lap stored",
  );
  // Too narrow: the bar goes first, then the percentage.
  assert.equal(
    renderProgress({ done: 1, total: 3, rate: 10, laps: 2 }, "packets", 50),
    "33%  1/3 packets  10/s  2 laps stored",
  );
  assert.equal(
    renderProgress({ done: 1, total: 3, rate: 10, laps: 2 }, "packets", 36),
    "1/3 packets  10/s  2 laps stored",
  );
  assert.equal(renderProgress({ done: 0, total: 0, rate: null, laps: 0 }, "x", 8), "0/0 x  ");
});

Deno.test("a bar draws in place and clears itself; a disabled bar writes nothing", () => {
  const written: string[] = [];
  let clock = 1000;
  const bar = startProgressBar({
    unit: "packets",
    enabled: true,
    write: (t) => written.push(t),
    columns: 80,
    now: () => clock,
  });
  clock = 1500;
  bar.update({ done: 50_000, total: 100_000, laps: 3 });
  bar.clear();
  bar.clear();
  assert.deepEqual(written, [
    "\r[##########----------]  50%  50,000/100,000 packets  100,000/s  3 laps stored\x1b[K",
    "\r\x1b[K",
  ]);

  const silent: string[] = [];
  const off = startProgressBar({ unit: "packets", enabled: false, write: (t) => silent.push(t) });
  off.update({ done: 1, total: 2, laps: 0 });
  off.clear();
  assert.deepEqual(silent, []);
});
