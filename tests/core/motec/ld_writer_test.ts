import { strict as assert } from "node:assert";
import { readLd, readLdx } from "../../_motec_ld_reader.ts";
import { lineSamples } from "../../_stored_laps.ts";
import { encodeLd } from "../../../src/core/motec/ld_writer.ts";
import { encodeLdx } from "../../../src/core/motec/ldx_writer.ts";
import { beaconTimesUs, type MotecLap, type MotecLog } from "../../../src/core/motec/log.ts";
import {
  GPS_ORIGIN_LAT,
  GPS_ORIGIN_LON,
  latitudeOf,
  longitudeOf,
} from "../../../src/core/motec/gps.ts";

function lap(n: number, opts: Partial<MotecLap> = {}): MotecLap {
  return {
    number: 1,
    time_ms: Math.round(n * 1000 / 60),
    finished_at: "2026-11-21T10:00:10.000Z",
    complete: true,
    samples_expected: n,
    samples_missing: 0,
    longest_gap_packets: 0,
    samples: lineSamples(n),
    ...opts,
  };
}

function log(laps: MotecLap[], info: Partial<MotecLog> = {}): MotecLog {
  return { laps, driver: "", vehicle: "Car", venue: "", event: "", session: "", ...info };
}

Deno.test("a log without laps is refused, naming the field", () => {
  assert.throws(() => encodeLd(log([])), /log\.laps: a MoTeC log needs at least one lap/);
});

Deno.test("a value that is not finite is refused, naming the channel and sample", () => {
  const bad = lap(10);
  bad.samples.speed[4] = NaN;
  assert.throws(() => encodeLd(log([bad])), /channel "Vehicle Speed" sample 4: must be a finite/);
});

Deno.test("text fields are Latin-1, cut to leave a NUL, control characters made spaces", () => {
  const file = readLd(encodeLd(log([lap(10)], {
    driver: "D".repeat(80),
    vehicle: "Citroën GT by Citroën",
    venue: "Tōkyō\tExpressway",
  })));
  assert.equal(file.header.driver, "D".repeat(63));
  assert.equal(file.header.vehicle, "Citroën GT by Citroën");
  assert.equal(file.header.venue, "T?ky? Expressway");
});

Deno.test("a finished_at that is not a time leaves date and time empty", () => {
  const file = readLd(encodeLd(log([lap(10, { finished_at: "yesterday" })])));
  assert.equal(file.header.date, "");
  assert.equal(file.header.time, "");
});

Deno.test("a channel some lap lacks is left out whole; one all laps carry is kept", () => {
  const a = lap(10);
  const b = lap(12, { number: 2 });
  a.samples.steer = new Array(10).fill(0.5);
  let names = readLd(encodeLd(log([a, b]))).channels.map((c) => c.name);
  assert.equal(names.includes("Steered Angle"), false);
  assert.equal(names.includes("Engine RPM"), false); // lineSamples has no rpm
  b.samples.steer = new Array(12).fill(-0.25);
  const file = readLd(encodeLd(log([a, b])));
  names = file.channels.map((c) => c.name);
  const steer = file.channels.find((c) => c.name === "Steered Angle")!;
  assert.equal(steer.unit, "deg");
  assert.equal(steer.count, 22);
  assert.equal(Math.round(steer.values[0] * 100), 2865); // 0.5 rad
  assert.equal(Math.round(steer.values[21] * 100), -1432);
});

Deno.test("laps sit back to back: beacons at each lap's end, in microseconds", () => {
  const laps = [lap(3), lap(5, { number: 2 })];
  assert.deepEqual(beaconTimesUs(laps), [50_000, 133_333]);
  const file = readLd(encodeLd(log(laps)));
  for (const c of file.channels) assert.equal(c.count, 8);
  const t = file.channels.find((c) => c.name === "Lap Time")!.values;
  assert.deepEqual(t, [0.017, 0.033, 0.05, 0.017, 0.033, 0.05, 0.067, 0.083]);
});

Deno.test("incomplete laps are named in the comment and are never the fastest", () => {
  const holed = lap(100, {
    number: 3,
    time_ms: 1000,
    complete: false,
    samples_expected: 160,
    samples_missing: 60,
    longest_gap_packets: 60,
  });
  const whole = lap(120, { number: 4, time_ms: 2000 });
  const l = log([holed, whole]);
  const file = readLd(encodeLd(l));
  assert.equal(
    file.header.event.comment,
    "Lap 3 - 0:01.000 - incomplete: 60 of 160 samples missing, longest gap 60 packets; " +
      "Lap 4 - 0:02.000",
  );
  assert.equal(file.header.shortComment, "2 laps, fastest 0:02.000 (lap 4), 1 incomplete");
  assert.deepEqual(readLdx(encodeLdx(l)).details, {
    "Total Laps": "3",
    "Fastest Time": "0:02.000",
    "Fastest Lap": "2",
  });
  assert.deepEqual(readLdx(encodeLdx(log([holed]))).details, { "Total Laps": "2" });
});

Deno.test("GPS: the origin is 45° N 7.5° E, north is -z and east is +x", () => {
  assert.equal(latitudeOf(0), GPS_ORIGIN_LAT);
  assert.equal(longitudeOf(0), GPS_ORIGIN_LON);
  assert.ok(latitudeOf(-1000) > 45.0089 && latitudeOf(-1000) < 45.0091);
  assert.ok(longitudeOf(1000) > 7.5126 && longitudeOf(1000) < 7.5128);
});

Deno.test("the channel list is a linked list both ways, data after the metadata", () => {
  const file = readLd(encodeLd(log([lap(10)])));
  assert.equal(file.header.channelCount, file.channels.length);
  assert.equal(file.header.eventPtr, 0x6e2);
  assert.equal(file.header.deviceType, "ADL");
  assert.equal(file.header.deviceSerial, 8004);
  assert.equal(file.header.deviceVersion, 420);
  assert.equal(file.header.dataPtr, 4276 + 124 * file.channels.length);
  for (const c of file.channels) {
    assert.deepEqual([c.shift, c.mul, c.scale, c.typeCode, c.typeSize], [0, 1, 1, 5, 4]);
  }
});

Deno.test("a lap with a hole keeps only its stored samples: nothing is invented for the gap", () => {
  // 100 ticks, then 60 lost packets, then 40 more: 140 samples for 200 ticks of time.
  const holed = lap(140, {
    time_ms: Math.round(200 * 1000 / 60),
    complete: false,
    samples_expected: 200,
    samples_missing: 60,
    longest_gap_packets: 60,
  });
  holed.samples.t = holed.samples.t.map((_, i) => (i < 100 ? i + 1 : i + 61) / 60);
  const file = readLd(encodeLd(log([holed])));
  for (const c of file.channels) assert.equal(c.count, 140, c.name);
  const t = file.channels.find((c) => c.name === "Lap Time")!.values;
  assert.equal(Math.round((t[100] - t[99]) * 60), 61);
  assert.match(file.header.shortComment, /incomplete: 60 of 200 samples missing/);
  assert.deepEqual(readLdx(encodeLdx(log([holed]))).beaconsUs, [2_333_333]);
});
