/**
 * The brake marker's cost in the live frame (issue 27): why it is computed
 * on the server, per packet, into `next_brake`. Per frame it is one binary
 * search over the reference's braking points (target <= 2 µs a frame, so
 * 60 Hz costs nothing measurable); the braking points themselves come from
 * the reference's corner report, built once when the reference is read, in
 * the background (its cost is analysis_bench.ts's corner report).
 *
 * @module
 */
import { brakePoints, nextBrake } from "../src/core/analysis/next_brake.ts";
import type { CornerReportRow } from "../src/core/analysis/types.ts";

const TARGET_US = 2;
const LAP_M = 5800;
const rows: CornerReportRow[] = Array.from({ length: 20 }, (_, i) => ({
  n: i + 1,
  name: `Turn ${i + 1}`,
  direction: null,
  apex_m: 250 + i * 280 + 60,
  apex: { x: 0, z: 0 },
  entry_m: 250 + i * 280 + 20,
  exit_m: 250 + i * 280 + 120,
  entry_kmh: 200,
  min_kmh: 90,
  exit_kmh: 150,
  brake_m: i % 4 === 3 ? null : 250 + i * 280,
  ref_brake_m: null,
  time_s: 3,
  ref_time_s: null,
  delta_s: null,
}));
const points = brakePoints(rows);

// One lap of frames at 60 Hz (about 90 s): the car's place on the reference for each.
const places = Array.from({ length: 5400 }, (_, i) => (i / 5400) * LAP_M);

{
  const runs: number[] = [];
  let sink = 0;
  for (let r = 0; r < 50; r++) {
    const t0 = performance.now();
    for (const along of places) sink += nextBrake(points, along, LAP_M)!.distance_m;
    runs.push((performance.now() - t0) * 1000 / places.length);
  }
  runs.sort((a, b) => a - b);
  console.log(
    `next_brake per frame (${points.length} braking points): median ` +
      `${runs[runs.length >> 1].toFixed(3)} µs (target <= ${TARGET_US} µs) [${sink > 0}]`,
  );
}

Deno.bench("next_brake for one lap of frames at 60 Hz (5,400)", () => {
  for (const along of places) nextBrake(points, along, LAP_M);
});
