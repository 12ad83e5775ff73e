import { strict as assert } from "node:assert";
import { brakePoints, nextBrake } from "../../../src/core/analysis/next_brake.ts";
import type { CornerReportRow } from "../../../src/core/analysis/types.ts";

function row(n: number, brake: number | null): CornerReportRow {
  return {
    n,
    name: `T${n}`,
    direction: null,
    apex_m: (brake ?? 0) + 80,
    entry_m: (brake ?? 0) + 20,
    exit_m: (brake ?? 0) + 150,
    entry_kmh: 200,
    min_kmh: 90,
    exit_kmh: 150,
    brake_m: brake,
    ref_brake_m: null,
    time_s: 3,
    ref_time_s: null,
    delta_s: null,
  };
}

Deno.test("brake points: only braked corners, in order along the lap", () => {
  const points = brakePoints([row(3, 2500), row(1, 400), row(2, null), row(4, 3100.5)]);
  assert.deepEqual(points, [
    { corner: 1, name: "T1", brake_m: 400 },
    { corner: 3, name: "T3", brake_m: 2500 },
    { corner: 4, name: "T4", brake_m: 3100.5 },
  ]);
});

Deno.test("next brake: the first point ahead, across the line to the first, never 0", () => {
  const points = brakePoints([row(1, 400), row(3, 2500), row(4, 3100.5)]);
  assert.deepEqual(nextBrake(points, 0, 4000), { corner: 1, name: "T1", distance_m: 400 });
  assert.deepEqual(nextBrake(points, 399.96, 4000), { corner: 1, name: "T1", distance_m: 0.1 });
  // At the point itself it is passed: the next corner counts down.
  assert.deepEqual(nextBrake(points, 400, 4000), { corner: 3, name: "T3", distance_m: 2100 });
  assert.deepEqual(nextBrake(points, 3000.04, 4000), { corner: 4, name: "T4", distance_m: 100.5 });
  assert.deepEqual(nextBrake(points, 3500, 4000), { corner: 1, name: "T1", distance_m: 900 });
  assert.equal(nextBrake([], 10, 4000), null);
  assert.equal(nextBrake(points, Number.NaN, 4000), null);
});
