import { strict as assert } from "node:assert";
import { referenceCornerMap } from "../../../src/core/analysis/circuit_corners.ts";
import { configurationById } from "../../../src/core/catalog/tracks.ts";
import { brakingPoint, cornerReport } from "../../../src/core/analysis/corner_report.ts";
import { traceOf } from "../../../src/core/analysis/lap_trace.ts";
import type { Corner } from "../../../src/core/bundle/types.ts";
import { noFixtures } from "../../_fixtures.ts";
import { asLap, broadBeanLaps, driveLap, slowed, stadium, suzukaLap } from "./_laps.ts";

const FIELDS = [
  "n",
  "name",
  "direction",
  "apex_m",
  "entry_m",
  "exit_m",
  "apex",
  "entry_kmh",
  "min_kmh",
  "exit_kmh",
  "brake_m",
  "ref_brake_m",
  "time_s",
  "ref_time_s",
  "delta_s",
];

const path = stadium(600, 80);
const arc = Math.PI * 80;
/** Bends run [600, 600 + arc] and [1200 + arc, 1200 + 2 arc]. */
const bend2 = 1200 + arc;

/** A lap braking at 60 % from `brakeAt` to each bend, `corner` km/h through the bends. */
function braking(brakeAt: [number, number], corner: number) {
  const inBend = (s: number) => (s >= 600 && s <= 600 + arc) || (s >= bend2 && s <= bend2 + arc);
  return driveLap(path, {
    speed: (s) => (inBend(s) ? corner : 200),
    brake: (s) => ((s >= brakeAt[0] && s < 600) || (s >= brakeAt[1] && s < bend2) ? 60 : 0),
  });
}

Deno.test("rows carry the API's fields in its order, sorted by time lost", () => {
  const ref = asLap(1, braking([500, 1150], 120));
  const lap = asLap(2, braking([520, 1100], 110));
  const report = cornerReport(lap, ref);
  assert.equal(report.source, "lap");
  assert.equal(report.corners.length, 2);
  for (const row of report.corners) assert.deepEqual(Object.keys(row), FIELDS);
  const deltas = report.corners.map((r) => r.delta_s!);
  assert.deepEqual(deltas, [...deltas].sort((a, b) => b - a));
  for (const r of report.corners) {
    assert.equal(r.delta_s, Math.round((r.time_s - r.ref_time_s!) * 1000) / 1000);
    assert.ok(r.delta_s! > 0, "10 km/h slower through both bends loses time in both");
    assert.equal(r.min_kmh, 110);
    assert.equal(r.direction, "R");
  }
});

Deno.test("the braking point is where the brake first passed the threshold before the apex", () => {
  const ref = asLap(1, braking([500, 1150], 120));
  const lap = asLap(2, braking([520, 1100], 120));
  const byN = cornerReport(lap, ref).corners.sort((a, b) => a.n - b.n);
  // Samples are 0.93 m apart at 200 km/h; the crossing is interpolated between two of them.
  assert.ok(Math.abs(byN[0].brake_m! - 520) < 1, `${byN[0].brake_m}`);
  assert.ok(Math.abs(byN[1].brake_m! - 1100) < 1, `${byN[1].brake_m}`);
  // The reference braked 20 m earlier for the first bend and 50 m later for the second.
  assert.ok(Math.abs(byN[0].ref_brake_m! - 500) < 1.5, `${byN[0].ref_brake_m}`);
  assert.ok(Math.abs(byN[1].ref_brake_m! - 1150) < 1.5, `${byN[1].ref_brake_m}`);
  // Below the threshold nothing counts as braking.
  const trace = traceOf(lap.samples);
  assert.equal(brakingPoint(trace, 0, byN[0].apex_m, 61), null);
  // Still braking at the start of the search (the previous corner's braking): no point of its own.
  assert.equal(brakingPoint(trace, 560, byN[0].apex_m), null);
});

Deno.test("a lap against itself loses nothing anywhere; k times slower loses (k - 1) of each corner", () => {
  const samples = braking([500, 1150], 120);
  const self = cornerReport(asLap(1, samples), asLap(2, structuredClone(samples)));
  for (const r of self.corners) {
    assert.equal(r.delta_s, 0);
    assert.equal(r.time_s, r.ref_time_s);
    assert.equal(r.brake_m, r.ref_brake_m);
  }
  const slow = cornerReport(asLap(3, slowed(samples, 1.25)), asLap(1, samples));
  for (const r of slow.corners) {
    assert.ok(Math.abs(r.delta_s! - 0.25 * r.ref_time_s!) <= 0.002, `${r.delta_s} ${r.ref_time_s}`);
    assert.equal(r.min_kmh, 96);
  }
});

Deno.test("without a reference the ref fields are null and rows go in corner order", () => {
  const report = cornerReport(asLap(1, braking([500, 1150], 120)), null);
  assert.deepEqual(report.corners.map((r) => r.n), [1, 2]);
  for (const r of report.corners) {
    assert.equal(r.ref_time_s, null);
    assert.equal(r.ref_brake_m, null);
    assert.equal(r.delta_s, null);
  }
});

Deno.test("authored corners are reported with their names and source", () => {
  const samples = braking([500, 1150], 120);
  const at = (d: number) => {
    const i = samples.dist.findIndex((x) => x >= d);
    return { x: samples.pos_x[i], z: samples.pos_z[i] };
  };
  const corners: Corner[] = [
    {
      n: 1,
      name: "North",
      direction: null,
      apex: at(600 + arc / 2),
      entry: null,
      exit: null,
      note: "",
    },
    {
      n: 2,
      name: "South",
      direction: "R",
      apex: at(bend2 + arc / 2),
      entry: null,
      exit: null,
      note: "",
    },
  ];
  const report = cornerReport(asLap(1, samples), asLap(2, samples), corners);
  assert.equal(report.source, "authored");
  assert.deepEqual(report.corners.map((r) => [r.n, r.name, r.direction]), [
    [1, "North", "R"],
    [2, "South", "R"],
  ]);
  for (const r of report.corners) {
    assert.equal(r.exit_m - r.entry_m, 150);
    assert.equal(r.delta_s, 0);
  }
});

Deno.test({
  name: "Broad Bean: lap 1 against the fastest lap 2, corner by corner",
  ignore: noFixtures,
  fn() {
    const [one, two] = broadBeanLaps();
    const report = cornerReport(one, two);
    assert.equal(report.source, "lap");
    assert.equal(report.corners.length, 4);
    const deltas = report.corners.map((r) => r.delta_s!);
    assert.deepEqual(deltas, [...deltas].sort((a, b) => b - a));
    for (const r of report.corners) {
      assert.ok(r.min_kmh <= r.entry_kmh && r.min_kmh <= r.exit_kmh);
      assert.ok(r.time_s > 0 && r.ref_time_s! > 0);
      assert.equal(r.delta_s, Math.round((r.time_s - r.ref_time_s!) * 1000) / 1000);
    }
    // The last corner is the one both laps brake hard for.
    const last = report.corners.find((r) => r.n === 4)!;
    assert.ok(last.brake_m! < last.apex_m && last.ref_brake_m! < last.apex_m);
  },
});

Deno.test({
  name: "Suzuka: the circuit's twenty corners, each timed and braked for where the driver did",
  ignore: noFixtures,
  fn() {
    const lap = suzukaLap();
    const map = referenceCornerMap(configurationById("6e378b")!);
    const report = cornerReport(lap, lap, null, { circuit: map });
    assert.equal(report.source, "circuit");
    assert.equal(report.corners.length, 20);
    // Unnamed, the lap finds its own: 19, within one of the official 20.
    assert.equal(cornerReport(lap, lap).corners.length, 19);
    assert.ok(report.corners.every((r) => r.delta_s === 0));
    const first = report.corners.find((r) => r.n === 1)!;
    // The First Curve is taken from over 300 km/h down to just over 110.
    assert.ok(first.entry_kmh > 300 && first.min_kmh < 120, JSON.stringify(first));
    assert.ok(first.brake_m !== null && first.brake_m < first.apex_m);
  },
});
