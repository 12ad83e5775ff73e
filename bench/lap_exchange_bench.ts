/**
 * Lap exchange on a long lap: 36,000 samples (10 minutes at 60 Hz, longer
 * than any lap of the Nordschleife) carrying all 36 sample columns, with
 * values in the ranges and decimal places the recorder stores.
 *
 * Targets: CSV export <= 80 ms (issue 19; 250 ms in issue 6) with memory that
 * does not grow with the lap, and lap import <= 300 ms (issue 6). The figures are printed once (median of 5
 * runs after a warm-up) and registered as Deno.bench entries.
 *
 * @module
 */
import v8 from "node:v8";
import vm from "node:vm";
import { createApp } from "../src/app/create_app.ts";
import { carName } from "../src/core/catalog/cars.ts";
import { type LapSamples, SAMPLE_COLUMNS, type SampleColumn } from "../src/core/laps/columns.ts";
import { judgeCoverage } from "../src/core/laps/coverage.ts";
import { lapCsvLines } from "../src/core/laps/csv.ts";
import { computeEvents, countEvents } from "../src/core/laps/events.ts";
import type { Lap } from "../src/core/laps/lap.ts";
import { buildImportedLap, parseLapFile, toLapFile } from "../src/core/laps/lap_file.ts";
import { computeMetrics } from "../src/core/laps/metrics.ts";
import { round } from "../src/core/laps/sample.ts";

const SAMPLES = 36_000;
const CSV_TARGET_MS = 80;
/** SHA-256 and size of this lap's CSV as exported before issue 19's speed-up. */
const CSV_SHA256 = "9d68004366f06b2f19e146c262446484642cf2998fa261a42dcb694b0b88ae4c";
const CSV_BYTES = 7_609_089;
const IMPORT_TARGET_MS = 300;
const RUNS = 5;

/**
 * A synthetic lap of `n` ticks driven at 80-260 km/h (28 km for 36,000
 * ticks), with a corner every 25 s: braking zones, a coasting band, gear
 * changes, lockups and wheelspin, kerb spikes and compressions on the
 * suspension, driver aids and a few off-track moments, so that events and
 * metrics have as much work as on a real lap (the 40-per-type caps are hit).
 */
function syntheticLap(n: number): Lap {
  const cols = Object.fromEntries(SAMPLE_COLUMNS.map((c) => [c, new Array<number>(n)])) as Record<
    SampleColumn,
    number[]
  >;
  let dist = 0;
  let fuel = 100;
  const wheels = ["fl", "fr", "rl", "rr"] as const;
  for (let i = 0; i < n; i++) {
    const phase = (2 * Math.PI * i) / 1500; // a corner every 25 s
    const s = Math.sin(phase);
    const speedKmh = 170 + 90 * s + 8 * Math.sin(phase * 7.3);
    const mps = speedKmh / 3.6;
    dist += mps / 60;
    fuel -= 0.05 / 60;
    const c = Math.cos(phase);
    // Full throttle out of corners, a coasting band, then braking to 100 %.
    const throttle = Math.min(100, Math.max(0, 40 + 70 * c));
    const brake = Math.min(100, Math.max(0, 400 * (-c - 0.7)));
    const gear = Math.min(6, 1 + Math.floor(speedKmh / 45));
    const loop = (2 * Math.PI * i) / n;
    cols.t[i] = round(i / 60, 4);
    cols.dist[i] = round(dist, 2);
    cols.speed[i] = round(speedKmh, 2);
    cols.throttle[i] = round(throttle, 1);
    cols.brake[i] = round(brake, 1);
    cols.coast[i] = cols.throttle[i] < 1 && cols.brake[i] < 1 ? 1 : 0;
    cols.gear[i] = gear;
    cols.rpm[i] = round(4500 + 3000 * ((speedKmh % 45) / 45), 1);
    cols.boost[i] = round(0.9 * throttle / 100 - 0.2, 3);
    cols.yaw_rate[i] = round(Math.abs(0.6 * Math.sin(phase * 2)), 4);
    cols.pos_x[i] = round(3200 * Math.cos(loop) + 40 * Math.sin(phase), 2);
    cols.pos_z[i] = round(1800 * Math.sin(loop) + 25 * Math.cos(phase), 2);
    cols.body_height[i] = round(62 + 9 * Math.sin(phase * 3.1), 1);
    cols.fuel[i] = round(fuel, 3);
    let slipSum = 0;
    let surface = 0;
    wheels.forEach((w, k) => {
      const lock = brake > 50 && k < 2 ? -0.15 * Math.sin(phase * 11 + k) : 0;
      const spin = throttle > 90 && k >= 2 ? 0.2 * Math.sin(phase * 13 + k) : 0;
      const slip = round(1 + 0.02 * Math.sin(phase * 17 + k) + lock + spin, 4);
      cols[`slip_${w}`][i] = slip;
      slipSum += slip;
      cols[`tt_${w}`][i] = round(78 + 12 * Math.sin(phase / 3 + k), 1);
      const kerb = i % 977 === k ? 45 : 0;
      const compression = i % 3000 >= 1500 && i % 3000 < 1505 ? 50 : 0;
      cols[`sus_${w}`][i] = round(260 + 28 * Math.sin(phase * 5 + k) + kerb + compression, 1);
      const loose = i % 9000 >= 4000 && i % 9000 < 4012 && k !== 1;
      surface |= (loose ? 4 : i % 600 < 20 ? 2 : 1) << (4 * k);
    });
    cols.tire_slip[i] = round(slipSum / 4, 4);
    cols.aids[i] = (brake > 60 ? 2 : 0) | (throttle > 95 && s < 0 ? 1 : 0);
    cols.surface[i] = surface;
    cols.steer[i] = round(0.35 * Math.sin(phase * 2), 4);
    cols.acc_lat[i] = round(2.1 * Math.sin(phase * 2), 3);
    cols.acc_long[i] = round(throttle / 60 - brake / 30, 3);
    cols.acc_vert[i] = round(0.2 * Math.sin(phase * 9), 3);
    cols.throttle_f[i] = round(throttle * 0.97, 1);
    cols.brake_f[i] = round(brake * 0.97, 1);
    cols.race_pos[i] = 1 + (Math.floor(i / 4000) % 12);
  }
  // The columns issue 31 added after these figures were taken are left out, so they stay comparable.
  for (const c of ["pos_y", "clutch", "oil_temp", "water_temp"] as const) delete cols[c];
  const samples = cols as LapSamples;
  const events = computeEvents(samples);
  return {
    id: 1,
    session_id: 1,
    number: 3,
    time_ms: Math.round((n / 60) * 1000),
    finished_at: "2026-11-21T10:10:00.000Z",
    car_id: 3315,
    car_category: "Gr.3",
    fuel_start: 100,
    fuel_end: cols.fuel[n - 1],
    ...computeMetrics(samples, 100, cols.fuel[n - 1]),
    ...judgeCoverage({ timeMs: Math.round((n / 60) * 1000), samples: n, filled: 0, longestGap: 0 }),
    max_water_temp: 96.5,
    max_oil_temp: 112.3,
    min_oil_pressure: 3.812,
    tod_ms: 43_200_000,
    counts_for_best: true,
    off_survey_count: -1,
    salvaged: false,
    race_position: cols.race_pos[n - 1],
    frames_dropped: 0,
    imported: false,
    event_counts: countEvents(events),
    events,
    gearing: { ratios: [3.2, 2.3, 1.78, 1.43, 1.2, 1.02], top_speed: 287.4, rpm_alert: 8200 },
    samples,
  };
}

const lap = syntheticLap(SAMPLES);
const csvOptions = { carName: carName(lap.car_id), venue: "Nürburgring Nordschleife" };

/**
 * Streams the lap's CSV as GET /api/laps/{id}/export.csv does (256 lines per
 * TextEncoder chunk), discarding each chunk. Calls `probe` after every chunk.
 */
function exportCsv(l: Lap, probe?: () => void): { bytes: number; lines: number } {
  const encoder = new TextEncoder();
  let bytes = 0;
  let lines = 0;
  let chunk = "";
  let inChunk = 0;
  for (const line of lapCsvLines(l, csvOptions)) {
    chunk += line;
    lines++;
    if (++inChunk === 256) {
      bytes += encoder.encode(chunk).byteLength;
      chunk = "";
      inChunk = 0;
      probe?.();
    }
  }
  bytes += encoder.encode(chunk).byteLength;
  return { bytes, lines };
}

/** The import path after the body is read: parse, validate, build the lap record. */
function importText(text: string): Omit<Lap, "id" | "session_id"> {
  return buildImportedLap(parseLapFile(JSON.parse(text)), "2026-11-21T12:00:00.000Z");
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed(fn: () => unknown | Promise<unknown>): Promise<number> {
  await fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

/**
 * A full garbage collection, so that heapUsed counts live objects only.
 * Node's way of exposing V8's gc at run time, which Deno supports.
 */
function exposeGc(): () => void {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  if (typeof gc !== "function") throw new Error("could not expose the garbage collector");
  return gc as () => void;
}
const gc = exposeGc();

/** Every 16th chunk (4,096 lines) of a streamed export, collect and sample the live heap. */
const PROBE_EVERY = 16;

/**
 * Growth of the live heap while exporting `l`, in kB (negative when the
 * collections freed more than the export holds): the highest heapUsed
 * after a full collection at any probe, less heapUsed before the export.
 * With `keep`, every line is also kept, as a non-streaming export would,
 * which shows what growth with the lap looks like on the same measure.
 */
function csvLiveGrowth(l: Lap, keep = false): number {
  const kept: string[] = [];
  gc();
  const before = Deno.memoryUsage().heapUsed;
  let peak = -Infinity;
  let chunks = 0;
  const probe = () => {
    if (++chunks % PROBE_EVERY !== 0) return;
    gc();
    peak = Math.max(peak, Deno.memoryUsage().heapUsed);
  };
  if (keep) {
    for (const line of lapCsvLines(l, csvOptions)) {
      kept.push(line);
      if (kept.length % 256 === 0) probe();
    }
  } else {
    exportCsv(l, probe);
  }
  gc();
  peak = Math.max(peak, Deno.memoryUsage().heapUsed);
  if (keep && kept.length === 0) throw new Error("nothing exported");
  return (peak - before) / 2 ** 10;
}

const MB = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

// Sanity: the bench measures what it claims.
const shape = exportCsv(lap);
if (shape.lines !== 9 + 2 + 2 + 2 + SAMPLES) throw new Error(`unexpected ${shape.lines} lines`);
const csvBytes = new TextEncoder().encode([...lapCsvLines(lap, csvOptions)].join(""));
const csvSha = Array.from(
  new Uint8Array(await crypto.subtle.digest("SHA-256", csvBytes)),
  (b) => b.toString(16).padStart(2, "0"),
).join("");
if (csvSha !== CSV_SHA256 || csvBytes.byteLength !== CSV_BYTES) {
  throw new Error(`the CSV's bytes changed: ${csvBytes.byteLength} bytes, sha-256 ${csvSha}`);
}
const columnCount = Object.keys(lap.samples).length;
if (columnCount !== 36) throw new Error(`lap has ${columnCount} columns, expected 36`);
const text = JSON.stringify(toLapFile(lap));
const roundTrip = importText(text);
if (JSON.stringify(roundTrip.samples) !== JSON.stringify(lap.samples)) {
  throw new Error("import did not round-trip the samples");
}
if (JSON.stringify(roundTrip.events) !== JSON.stringify(lap.events)) {
  throw new Error("import did not recompute the same events");
}

const csvMs = await timed(() => exportCsv(lap));
// Live heap growth on the long lap and on one a tenth as long: flat memory
// means both are near zero; keeping the rows shows the measure can see growth.
const shortLap = syntheticLap(SAMPLES / 10);
const growthShort = median(Array.from({ length: RUNS }, () => csvLiveGrowth(shortLap)));
const growthLong = median(Array.from({ length: RUNS }, () => csvLiveGrowth(lap)));
const growthKept = csvLiveGrowth(lap, true);
const stringifyMs = await timed(() => JSON.stringify(toLapFile(lap)));
const importMs = await timed(() => importText(text));
const chainMs = await timed(() => importText(JSON.stringify(toLapFile(lap))));

const kv = await Deno.openKv(":memory:");
const app = await createApp({ kv });
const kvImportMs = await timed(() => app.laps.importFile(JSON.parse(text)));

console.log(
  `lap: ${SAMPLES.toLocaleString("en-US")} samples, ${columnCount} columns, ` +
    `${lap.events.length} events; CSV ${MB(shape.bytes)} MB, lap file ${MB(text.length)} MB`,
);
console.log(`CSV export 36,000 samples: ${csvMs.toFixed(1)} ms (target <= ${CSV_TARGET_MS} ms)`);
console.log(
  `csv export 36k samples: ${csvMs.toFixed(1)} ms, heap growth ${MB(growthLong * 1024)} MB ` +
    `(${growthLong.toFixed(0)} kB; target <= ${CSV_TARGET_MS} ms, flat); ` +
    `3.6k samples: ${growthShort.toFixed(0)} kB; ` +
    `36k rows held instead of streamed: ${MB(growthKept * 1024)} MB`,
);
console.log(
  `lap import 36k samples: ${importMs.toFixed(1)} ms (target <= ${IMPORT_TARGET_MS} ms); ` +
    `with JSON.stringify of the export first: ${chainMs.toFixed(1)} ms; ` +
    `stringify alone ${stringifyMs.toFixed(1)} ms`,
);
console.log(`importLapFile into in-memory KV, 36k samples: ${kvImportMs.toFixed(1)} ms`);

Deno.bench("csv export, 36k samples (streamed, 256-line chunks)", () => {
  exportCsv(lap);
});

Deno.bench("lap import, 36k samples (JSON.parse + parseLapFile + buildImportedLap)", () => {
  importText(text);
});

Deno.bench("lap export + import, 36k samples (JSON.stringify first)", () => {
  importText(JSON.stringify(toLapFile(lap)));
});

Deno.bench("importLapFile into in-memory KV, 36k samples", async () => {
  await app.laps.importFile(JSON.parse(text));
});
