/**
 * MoTeC i2 log export of a long lap: 36,000 samples (10 minutes at 60 Hz)
 * carrying every column a channel is made from, steering included, so all 36
 * channels are written. Target (issue 31): .ld and .ldx of the lap <= 150 ms.
 * The figure is printed once (median of 5 runs after a warm-up) and
 * registered as a Deno.bench entry.
 *
 * @module
 */
import { type LapSamples, SAMPLE_COLUMNS, type SampleColumn } from "../src/core/laps/columns.ts";
import { round } from "../src/core/laps/sample.ts";
import { encodeLd } from "../src/core/motec/ld_writer.ts";
import { encodeLdx } from "../src/core/motec/ldx_writer.ts";
import type { MotecLog } from "../src/core/motec/log.ts";

const SAMPLES = 36_000;
const TARGET_MS = 150;
const RUNS = 5;

/** A lap of `n` ticks round a 3.2 km by 1.8 km loop at 80-260 km/h, a corner every 25 s. */
function syntheticSamples(n: number): LapSamples {
  const cols = Object.fromEntries(SAMPLE_COLUMNS.map((c) => [c, new Array<number>(n)])) as Record<
    SampleColumn,
    number[]
  >;
  let dist = 0;
  const wheels = ["fl", "fr", "rl", "rr"] as const;
  for (let i = 0; i < n; i++) {
    const phase = (2 * Math.PI * i) / 1500;
    const speed = 170 + 90 * Math.sin(phase);
    dist += speed / 3.6 / 60;
    const loop = (2 * Math.PI * i) / n;
    cols.t[i] = round((i + 1) / 60, 4);
    cols.dist[i] = round(dist, 2);
    cols.speed[i] = round(speed, 2);
    cols.throttle[i] = round(Math.min(100, Math.max(0, 40 + 70 * Math.cos(phase))), 1);
    cols.brake[i] = round(Math.min(100, Math.max(0, -300 * Math.cos(phase) - 200)), 1);
    cols.coast[i] = 0;
    cols.gear[i] = Math.min(6, 1 + Math.floor(speed / 45));
    cols.rpm[i] = round(4500 + 3000 * ((speed % 45) / 45), 1);
    cols.boost[i] = round(0.7 * Math.cos(phase), 3);
    cols.yaw_rate[i] = round(Math.abs(0.6 * Math.sin(phase * 2)), 4);
    cols.pos_x[i] = round(3200 * Math.cos(loop) + 40 * Math.sin(phase), 2);
    cols.pos_z[i] = round(1800 * Math.sin(loop) + 25 * Math.cos(phase), 2);
    cols.body_height[i] = round(62 + 9 * Math.sin(phase * 3.1), 1);
    cols.fuel[i] = round(100 - i * 0.05 / 60, 3);
    wheels.forEach((w, k) => {
      cols[`slip_${w}`][i] = round(1 + 0.02 * Math.sin(phase * 17 + k), 4);
      cols[`tt_${w}`][i] = round(78 + 12 * Math.sin(phase / 3 + k), 1);
      cols[`sus_${w}`][i] = round(260 + 28 * Math.sin(phase * 5 + k), 1);
    });
    cols.tire_slip[i] = 1;
    cols.aids[i] = 0;
    cols.surface[i] = 0x1111;
    cols.steer[i] = round(0.35 * Math.sin(phase * 2), 4);
    cols.pos_y[i] = round(12 * Math.sin(loop * 3) + 0.3 * Math.sin(phase * 9), 2);
    cols.clutch[i] = i % 1500 < 20 ? 100 : 0;
    cols.oil_temp[i] = round(105 + 5 * Math.sin(loop), 1);
    cols.water_temp[i] = round(88 + 3 * Math.sin(loop), 1);
  }
  for (
    const c of ["acc_lat", "acc_long", "acc_vert", "throttle_f", "brake_f", "race_pos"] as const
  ) {
    delete cols[c];
  }
  return cols as LapSamples;
}

const log: MotecLog = {
  laps: [{
    number: 3,
    time_ms: Math.round(SAMPLES * 1000 / 60),
    finished_at: "2026-11-21T10:10:00.000Z",
    complete: true,
    samples_expected: SAMPLES,
    samples_missing: 0,
    longest_gap_packets: 0,
    samples: syntheticSamples(SAMPLES),
  }],
  driver: "A. Driver",
  vehicle: "McLaren VGT",
  venue: "Nürburgring Nordschleife",
  event: "Gran Turismo 7",
  session: "Session 1",
};

function exportBoth(): number {
  return encodeLd(log).byteLength + encodeLdx(log).length;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

exportBoth(); // warm-up
const times: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const start = performance.now();
  exportBoth();
  times.push(performance.now() - start);
}
const ms = median(times);
console.log(
  `MoTeC .ld + .ldx of a ${SAMPLES}-sample lap: ${ms.toFixed(1)} ms median of ${RUNS} ` +
    `(${(encodeLd(log).byteLength / 1e6).toFixed(2)} MB; target <= ${TARGET_MS} ms) ` +
    (ms <= TARGET_MS ? "OK" : "OVER TARGET"),
);

Deno.bench(`MoTeC .ld + .ldx, ${SAMPLES}-sample lap (target <= ${TARGET_MS} ms)`, () => {
  exportBoth();
});
