/**
 * The Suzuka lap and the Broad Bean session as MoTeC logs, read back by the
 * tests' own reader (tests/_motec_ld_reader.ts), written from the format's
 * description rather than from the encoder.
 */
import { strict as assert } from "node:assert";
import { noFixtures } from "../../_fixtures.ts";
import { readLd, readLdx } from "../../_motec_ld_reader.ts";
import { encodeLd } from "../../../src/core/motec/ld_writer.ts";
import { encodeLdx } from "../../../src/core/motec/ldx_writer.ts";
import { motecChannels } from "../../../src/core/motec/channels.ts";
import type { MotecLog } from "../../../src/core/motec/log.ts";
import { carName } from "../../../src/core/catalog/cars.ts";
import { broadBeanMotecLaps, suzukaMotecLap } from "./_motec_laps.ts";

/** The channels a format A lap gives, in log order: name, unit, decimals. */
const FORMAT_A_CHANNELS: [string, string, number][] = [
  ["Lap Time", "s", 3],
  ["Lap Distance", "m", 2],
  ["Vehicle Speed", "km/h", 2],
  ["Engine RPM", "rpm", 0],
  ["Throttle Pos", "%", 1],
  ["Brake Pos", "%", 1],
  ["Clutch Pos", "%", 1],
  ["Gear", "", 0],
  ["G Force Lat", "G", 3],
  ["G Force Long", "G", 3],
  ["G Force Vert", "G", 3],
  ["Wheel Speed FL", "km/h", 2],
  ["Wheel Speed FR", "km/h", 2],
  ["Wheel Speed RL", "km/h", 2],
  ["Wheel Speed RR", "km/h", 2],
  ["Wheel Slip FL", "ratio", 4],
  ["Wheel Slip FR", "ratio", 4],
  ["Wheel Slip RL", "ratio", 4],
  ["Wheel Slip RR", "ratio", 4],
  ["Susp Pos FL", "mm", 1],
  ["Susp Pos FR", "mm", 1],
  ["Susp Pos RL", "mm", 1],
  ["Susp Pos RR", "mm", 1],
  ["Tyre Temp FL", "C", 1],
  ["Tyre Temp FR", "C", 1],
  ["Tyre Temp RL", "C", 1],
  ["Tyre Temp RR", "C", 1],
  ["Ride Height", "mm", 1],
  ["Fuel Level", "L", 3],
  ["Boost Pressure", "bar", 3],
  ["Oil Temp", "C", 1],
  ["Water Temp", "C", 1],
  ["GPS Latitude", "deg", 7],
  ["GPS Longitude", "deg", 7],
  ["GPS Altitude", "m", 2],
];

/** Stored sample column behind each channel that is a plain copy (times a factor). */
const DIRECT: Record<string, [string, number]> = {
  "Lap Time": ["t", 1],
  "Lap Distance": ["dist", 1],
  "Vehicle Speed": ["speed", 1],
  "Engine RPM": ["rpm", 1],
  "Throttle Pos": ["throttle", 1],
  "Brake Pos": ["brake", 1],
  "Gear": ["gear", 1],
  "Wheel Slip FL": ["slip_fl", 1],
  "Susp Pos RR": ["sus_rr", 1],
  "Tyre Temp RL": ["tt_rl", 1],
  "Ride Height": ["body_height", 1],
  "Fuel Level": ["fuel", 1],
  "Boost Pressure": ["boost", 1],
  "Clutch Pos": ["clutch", 1],
  "Oil Temp": ["oil_temp", 1],
  "Water Temp": ["water_temp", 1],
  "GPS Altitude": ["pos_y", 1],
};

// From docs/formats.md: origin 45° N 7.5° E, metres per degree by the WGS 84 series at 45°.
const LAT0 = 45, LON0 = 7.5;
const PHI = LAT0 * Math.PI / 180;
const M_LAT = 111132.954 - 559.822 * Math.cos(2 * PHI) + 1.175 * Math.cos(4 * PHI) -
  0.0023 * Math.cos(6 * PHI);
const M_LON = 111412.84 * Math.cos(PHI) - 93.5 * Math.cos(3 * PHI) + 0.118 * Math.cos(5 * PHI);

Deno.test({
  name: "the Suzuka lap's .ld reads back: header, every channel, values within a step, GPS line",
  ignore: noFixtures,
  fn() {
    const lap = suzukaMotecLap();
    const n = lap.samples.t.length;
    assert.equal(n, 5942);
    const log: MotecLog = {
      laps: [lap],
      driver: "A. Driver",
      vehicle: carName(3315),
      venue: "Suzuka Circuit",
      event: "Gran Turismo 7",
      session: "Lap 1",
    };
    const file = readLd(encodeLd(log));
    const h = file.header;
    assert.equal(h.deviceType, "ADL");
    assert.equal(h.driver, "A. Driver");
    assert.equal(h.vehicle, "McLaren VGT");
    assert.equal(h.venue, "Suzuka Circuit");
    // 99.036 s before 10:02:00.000 is 10:00:20.964.
    assert.equal(h.date, "21/11/2026");
    assert.equal(h.time, "10:00:20");
    assert.equal(h.shortComment, "Lap 1 - 1:39.036");
    assert.deepEqual(h.event, {
      name: "Gran Turismo 7",
      session: "Lap 1",
      comment: "Lap 1 - 1:39.036",
      venuePtr: h.event.venuePtr,
    });
    assert.equal(h.venueBlock.name, "Suzuka Circuit");
    assert.equal(h.vehicleBlock.id, "McLaren VGT");
    assert.equal(h.vehicleBlock.type, "Car");
    assert.equal(h.channelCount, FORMAT_A_CHANNELS.length);
    assert.equal(file.channels.length, FORMAT_A_CHANNELS.length);

    assert.deepEqual(
      file.channels.map((c) => [c.name, c.unit, c.dec]),
      FORMAT_A_CHANNELS,
    );
    const ours = motecChannels([lap]);
    for (const [k, c] of file.channels.entries()) {
      assert.equal(c.freq, 60, c.name);
      assert.equal(c.count, n, c.name);
      assert.equal(c.values.length, n, c.name);
      const step = 10 ** -c.dec;
      const mine = ours[k].values;
      const direct = DIRECT[c.name];
      for (let i = 0; i < n; i++) {
        // Half a step from rounding, plus the double arithmetic of 10^-dec.
        if (Math.abs(c.values[i] - mine[i]) > step / 2 + 1e-9 * Math.max(1, Math.abs(mine[i]))) {
          assert.fail(`${c.name}[${i}]: read ${c.values[i]}, ours ${mine[i]}`);
        }
        if (direct) {
          const src = lap.samples[direct[0] as keyof typeof lap.samples]![i] * direct[1];
          if (Math.abs(c.values[i] - src) > step / 2 + 1e-9 * Math.max(1, Math.abs(src))) {
            assert.fail(`${c.name}[${i}]: read ${c.values[i]}, sample ${src}`);
          }
        }
      }
    }

    // The GPS channels trace the driven line: converted back, within 0.5 m of every position.
    const lat = file.channels.find((c) => c.name === "GPS Latitude")!.values;
    const lon = file.channels.find((c) => c.name === "GPS Longitude")!.values;
    const alt = file.channels.find((c) => c.name === "GPS Altitude")!.values;
    let worst = 0;
    for (let i = 0; i < n; i++) {
      const x = (lon[i] - LON0) * M_LON;
      const z = -(lat[i] - LAT0) * M_LAT;
      const s = lap.samples;
      worst = Math.max(worst, Math.hypot(x - s.pos_x[i], alt[i] - s.pos_y![i], z - s.pos_z[i]));
    }
    assert.ok(worst <= 0.5, `GPS strays ${worst} m from the driven line`);
    assert.ok(worst < 0.02, `GPS strays ${worst} m (7 decimals hold about a centimetre)`);

    // Derived G: the lateral G agrees with the packets' yaw rate (|v·ω|/g), and is plausible.
    const glat = file.channels.find((c) => c.name === "G Force Lat")!.values;
    let diff = 0;
    let mean = 0;
    let peak = 0;
    let peakYaw = 0;
    for (let i = 0; i < n; i++) {
      const fromYaw = lap.samples.speed[i] / 3.6 * lap.samples.yaw_rate![i] / 9.80665;
      diff += Math.abs(Math.abs(glat[i]) - fromYaw);
      mean += fromYaw;
      peak = Math.max(peak, Math.abs(glat[i]));
      peakYaw = Math.max(peakYaw, fromYaw);
    }
    // Positions give the path's turn rate, the yaw rate the body's: they part by the slip angle.
    assert.ok(diff < 0.15 * mean, `lateral G differs from v·yaw by ${diff / n} G on average`);
    // The yaw rate spikes (to a 9.6 G equivalent) where the body snaps; the path does not.
    assert.ok(peak < peakYaw, `peak lateral G ${peak}, v·yaw ${peakYaw}`);
    // Suzuka is a figure of eight: both left and right turns of over 2 G.
    assert.ok(Math.max(...glat) > 2 && Math.min(...glat) < -2);

    // Derived vertical G: level on average (the lap ends where it began); Suzuka's crests and
    // dips give a median of 0.06 G, a 99th percentile of 0.46 G and a peak of 0.86 G.
    const gvert = file.channels.find((c) => c.name === "G Force Vert")!.values;
    const meanVert = gvert.reduce((a, b) => a + b, 0) / n;
    const sorted = gvert.map(Math.abs).sort((a, b) => a - b);
    assert.ok(Math.abs(meanVert) < 0.02, `mean vertical G ${meanVert}`);
    assert.ok(sorted[Math.floor(n * 0.99)] < 1, `99th percentile |G vert| ${sorted[n * 0.99 | 0]}`);
    assert.ok(sorted[n - 1] > 0.5, `vertical G never above ${sorted[n - 1]}`);

    // The markers: one beacon where the lap ends; the lap time from them is ours to the sample.
    const ldx = readLdx(encodeLdx(log));
    assert.equal(ldx.beaconsUs.length, 1);
    const samplesInLap = Math.round(ldx.beaconsUs[0] * 60 / 1e6);
    assert.equal(samplesInLap, n);
    assert.equal(samplesInLap, Math.round(lap.time_ms * 60 / 1000));
    assert.ok(Math.abs(ldx.beaconsUs[0] / 1e6 - lap.time_ms / 1000) <= 1 / 60);
    assert.deepEqual(ldx.details, {
      "Total Laps": "2",
      "Fastest Time": "1:39.036",
      "Fastest Lap": "1",
    });
  },
});

Deno.test({
  name: "the Broad Bean session exports as four laps with markers at each lap's last sample",
  ignore: noFixtures,
  fn() {
    const laps = broadBeanMotecLaps();
    const counts = laps.map((l) => l.samples.t.length);
    assert.deepEqual(counts, [1963, 1954, 1961, 1959]);
    assert.ok(laps.every((l) => l.complete));
    const log: MotecLog = {
      laps,
      driver: "",
      vehicle: carName(1549),
      venue: "Broad Bean Raceway",
      event: "Gran Turismo 7",
      session: "Session 7",
    };
    const file = readLd(encodeLd(log));
    const total = 1963 + 1954 + 1961 + 1959;
    // The other logger's laps carry no wheel, tyre, suspension, fuel or boost samples.
    assert.deepEqual(file.channels.map((c) => c.name), [
      "Lap Time",
      "Lap Distance",
      "Vehicle Speed",
      "Engine RPM",
      "Throttle Pos",
      "Brake Pos",
      "Gear",
      "G Force Lat",
      "G Force Long",
      "Ride Height",
      "GPS Latitude",
      "GPS Longitude",
    ]);
    for (const c of file.channels) assert.equal(c.count, total, c.name);
    assert.equal(file.header.event.session, "Session 7");
    assert.equal(file.header.date, "22/11/2026");
    const times = laps.map((l) => l.time_ms);
    const fastest = times.indexOf(Math.min(...times));

    const ldx = readLdx(encodeLdx(log));
    const at = ldx.beaconsUs.map((us) => us * 60 / 1e6);
    assert.deepEqual(at.map(Math.round), [1963, 3917, 5878, 7837]);
    for (const a of at) assert.ok(Math.abs(a - Math.round(a)) < 1e-3);
    // Lap Time restarts at each marker: the sample after a beacon is a lap's first.
    const lapTime = file.channels[0].values;
    for (const k of [0, 1963, 3917, 5878]) assert.equal(lapTime[k], 0.017, `sample ${k}`);
    assert.equal(ldx.details["Total Laps"], "5");
    assert.equal(ldx.details["Fastest Lap"], String(fastest + 1));
    assert.equal(file.header.shortComment.startsWith("4 laps, fastest 0:32."), true);
    assert.equal(
      file.header.event.comment,
      laps.map((l) => `Lap ${l.number} - 0:${(l.time_ms / 1000).toFixed(3)}`).join("; "),
    );
  },
});
