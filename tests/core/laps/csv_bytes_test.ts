/**
 * The CSV export's exact bytes, pinned. The digests were taken from the
 * export before it was made faster (issue 19), so any change of a byte, in
 * a number's digits, a sanitised text cell or a line ending, fails here.
 */
import { strict as assert } from "node:assert";
import fc from "fast-check";
import { seededRandom } from "../../_random.ts";
import { noFixtures, readGzFixture } from "../../_fixtures.ts";
import { type LapSamples, SAMPLE_COLUMNS, V1_COLUMNS } from "../../../src/core/laps/columns.ts";
import {
  type CsvLap,
  type CsvOptions,
  lapCsvLines,
  plainNumber,
} from "../../../src/core/laps/csv.ts";
import { round } from "../../../src/core/laps/sample.ts";
import { parseCapture } from "../../../src/core/gt7/capture.ts";
import { decodeFrame } from "../../../src/core/gt7/decode.ts";
import { LapRecorder } from "../../../src/core/laps/recorder.ts";
import { finishRecordedLap } from "../../../src/core/laps/recorded_lap.ts";

/** Every kind of value a column may hold, drawn from a seeded sequence. */
function value(random: () => number, i: number, k: number): number {
  const r = random();
  const x = (random() - 0.5) * 10 ** Math.floor(random() * 8 - 2);
  switch ((i * 7 + k) % 23) {
    case 0:
      return [NaN, Infinity, -Infinity, -0, 0][Math.floor(r * 5)];
    case 1:
      return x * 1e-9; // exponent notation in String()
    case 2:
      return x * 1e22; // exponent notation in String()
    case 3:
      return x; // an unrounded double, 17 digits
    case 4:
      return Math.floor(r * 2 ** 40) * (r < 0.5 ? -1 : 1); // a large integer
    case 5:
      return round(x, 6);
    case 6:
      return 0.1 * Math.floor(r * 30); // 0.30000000000000004 and the like
    default:
      return round(x, (i + k) % 5); // the recorder's rounding, 0 to 4 places
  }
}

/** A lap of `n` ticks carrying every column, each holding values of every kind. */
function variedLap(n: number, seed: number): CsvLap {
  const random = seededRandom(seed);
  const samples: Record<string, number[]> = {};
  SAMPLE_COLUMNS.forEach((c, k) => {
    samples[c] = Array.from({ length: n }, (_, i) => value(random, i, k));
  });
  samples.t = Array.from({ length: n }, (_, i) => round(i / 60, 4));
  samples.gear = Array.from({ length: n }, (_, i) => (i >> 6) % 7);
  return {
    number: 12,
    time_ms: Math.round((n / 60) * 1000),
    finished_at: "2026-11-21T23:59:59.250Z",
    complete: false,
    samples_expected: n + 40,
    samples_missing: 40,
    longest_gap_packets: 25,
    samples: samples as unknown as LapSamples,
  };
}

/** Text cells that must be defused and quoted. */
const HOSTILE: CsvOptions = { carName: '=HYPERLINK("x")', venue: 'Spa "GP"\r\nline two' };

async function sha256(lap: CsvLap, opts: CsvOptions): Promise<{ bytes: number; hex: string }> {
  const text = [...lapCsvLines(lap, opts)].join("");
  const data = new TextEncoder().encode(text);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return {
    bytes: data.byteLength,
    hex: Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(""),
  };
}

Deno.test("a lap with every kind of value exports the same bytes as before", async () => {
  assert.deepEqual(await sha256(variedLap(6_000, 19), HOSTILE), {
    bytes: 1_716_784,
    hex: "7272e91d9b27a3e8dbedb99bdda5dc7cbc7db48934134d93064b49f93b96e468",
  });
});

Deno.test("a version 1 lap and a column of the wrong length export the same bytes", async () => {
  const lap = variedLap(1_000, 7);
  const samples = Object.fromEntries(
    V1_COLUMNS.map((c) => [c, lap.samples[c]!]),
  ) as unknown as LapSamples;
  samples.speed = samples.speed.slice(1);
  assert.deepEqual(await sha256({ ...lap, complete: true, samples }, { carName: "", venue: "" }), {
    bytes: 147_750,
    hex: "c56f89a472dc1b1ba03601ba3fa0520717dc990932c5ffae83b3920d5d450ffc",
  });
});

Deno.test({
  name: "the Suzuka lap exports the same bytes as before",
  ignore: noFixtures,
  async fn() {
    const rec = new LapRecorder();
    let csv: { bytes: number; hex: string } | undefined;
    for (const p of parseCapture(readGzFixture("gt7/suzuka-full-lap.A.gt7.gz")).packets) {
      const done = rec.push(decodeFrame(p)).find((e) => e.type === "lap");
      if (done?.type !== "lap") continue;
      const lap = finishRecordedLap(done.lap, "2026-11-21T10:02:00.000Z");
      csv = await sha256(lap, { carName: "McLaren VGT", venue: "Suzuka Circuit" });
      break;
    }
    assert.deepEqual(csv, {
      bytes: 1_231_946,
      hex: "75ea92c566ffa0c512cb5f36f0b82070ddee685586ba545aac2122fbf19ba10e",
    });
  },
});

/** The first data cell of a one-tick lap whose Time is `t`. */
function firstCell(t: number): string {
  const samples = { t: [t] } as unknown as LapSamples;
  const lines = [...lapCsvLines({ ...variedLap(0, 1), samples }, { carName: "", venue: "" })];
  return lines[lines.length - 1].split(",")[0];
}

Deno.test("every number is written as plainNumber writes it, rounded to 0-4 places or not", () => {
  const magnitude = fc.double({ min: -1e13, max: 1e13, noNaN: true });
  fc.assert(
    fc.property(magnitude, fc.integer({ min: 0, max: 6 }), (x, dp) => {
      const value = dp === 6 ? x : round(x, dp);
      assert.equal(firstCell(value), `"${plainNumber(value)}"`);
    }),
    { numRuns: 5000 },
  );
  fc.assert(
    fc.property(fc.double(), (value) => {
      assert.equal(firstCell(value), `"${plainNumber(value)}"`);
    }),
    { numRuns: 2000 },
  );
  for (const value of [-0, 0.00005, -0.00005, 0.0001, -0.0001, 99999999999.9999, 1e11, 0.1 + 0.2]) {
    assert.equal(firstCell(value), `"${plainNumber(value)}"`, String(value));
  }
});
