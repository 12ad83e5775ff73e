/**
 * Laps for identification tests: real ones from the shared GT7 fixtures and
 * synthetic ones from the seeded drive, plus bundle border records laid
 * along a synthetic circuit's true borders.
 *
 * @module
 */
import { parseCapture } from "../../../src/core/gt7/capture.ts";
import { decodeFrame } from "../../../src/core/gt7/decode.ts";
import type { Frame } from "../../../src/core/gt7/frame.ts";
import { LapRecorder, type RecordedLap } from "../../../src/core/laps/recorder.ts";
import { SampleBuffer } from "../../../src/core/laps/sample.ts";
import type { LapSamples } from "../../../src/core/laps/columns.ts";
import type { Circuit } from "../../../src/core/synthetic/circuit.ts";
import { syntheticFrames } from "../../../src/core/synthetic/drive.ts";
import type { LapTrace } from "../../../src/core/identify/signature.ts";
import { readFixture, readGzFixture } from "../../_fixtures.ts";

/** The six thinned, encrypted one-lap captures and the circuit each holds. */
export const ENCRYPTED_LAPS = [
  ["broad-bean-raceway--full-course.A.gt7", "Broad Bean Raceway"],
  ["tsukuba-circuit--full-course.A.gt7", "Tsukuba Circuit"],
  ["brands-hatch--indy-circuit.A.gt7", "Brands Hatch Indy Circuit"],
  ["suzuka-circuit--full-course.A.gt7", "Suzuka Circuit"],
  ["suzuka-circuit--east-course.A.gt7", "Suzuka Circuit East Course"],
  ["circuit-de-spa-francorchamps--full-course.A.gt7", "Circuit de Spa-Francorchamps"],
] as const;

/** The decoded frames of a capture file (gzip of decrypted packets, or raw encrypted). */
export function captureFrames(relative: string): Frame[] {
  const bytes = relative.endsWith(".gz") ? readGzFixture(relative) : readFixture(relative);
  return parseCapture(bytes).packets.map((p) => decodeFrame(p));
}

/**
 * The samples of a capture that holds one lap and no counter change, made
 * by the lap recorder's sample buffer with each frame's packet-id gap: a
 * thinned capture integrates speed over the time that really passed.
 */
export function samplesOfFrames(frames: readonly Frame[]): LapSamples {
  const buffer = new SampleBuffer();
  let prev: number | null = null;
  for (const frame of frames) {
    buffer.append(frame, prev === null ? 1 : Math.max(1, frame.packetId - prev));
    prev = frame.packetId;
  }
  return buffer.take();
}

/** The laps the lap recorder cuts from `frames`. */
export function recordLaps(frames: Iterable<Frame>): RecordedLap[] {
  const recorder = new LapRecorder();
  const laps: RecordedLap[] = [];
  for (const frame of frames) {
    for (const event of recorder.push(frame)) if (event.type === "lap") laps.push(event.lap);
  }
  return laps;
}

interface BroadBeanLap {
  data_time: number[];
  data_speed: number[];
  data_position_x: number[];
  data_position_z: number[];
  lap_finish_time: number;
}

/** The four Broad Bean Raceway laps of the decoded JSON fixture, as traces (speed in km/h). */
export function broadBeanLaps(): LapTrace[] {
  const text = new TextDecoder().decode(readFixture("gt7/broad-bean-raceway-4-laps.json"));
  return (JSON.parse(text) as BroadBeanLap[]).map((l) => ({
    t: l.data_time,
    speed: l.data_speed,
    pos_x: l.data_position_x,
    pos_z: l.data_position_z,
  }));
}

/** The timed laps of a synthetic race drive of `seed`. */
export function syntheticLaps(seed: number, laps = 1): RecordedLap[] {
  return recordLaps(syntheticFrames({ seed, laps }));
}

/** Options of {@linkcode borderPoints}. */
export interface BorderOptions {
  /** Share of the lap surveyed, from the start line (default 1). */
  fraction?: number;
  /** Shift of every point, metres. */
  dx?: number;
  dz?: number;
  /** Give each point the unit direction of travel (the circuit is driven in its border order). */
  headings?: boolean;
}

/**
 * Border records one metre apart along both true borders of `circuit`, as
 * a survey would lay them: the first `fraction` of each side's length.
 */
export function borderPoints(
  circuit: Circuit,
  opts: BorderOptions = {},
): { x: number; z: number; side: "L" | "R"; hx?: number; hz?: number }[] {
  const out: { x: number; z: number; side: "L" | "R"; hx?: number; hz?: number }[] = [];
  const fraction = opts.fraction ?? 1;
  for (const [side, line] of [["L", circuit.leftBorder()], ["R", circuit.rightBorder()]] as const) {
    let total = 0;
    for (let i = 0; i < line.length; i++) {
      const a = line[i];
      const b = line[(i + 1) % line.length];
      total += Math.hypot(b.x - a.x, b.z - a.z);
    }
    const keep = total * fraction;
    let walked = 0;
    let next = 0;
    for (let i = 0; i < line.length && next <= keep; i++) {
      const a = line[i];
      const b = line[(i + 1) % line.length];
      const seg = Math.hypot(b.x - a.x, b.z - a.z);
      while (next <= walked + seg && next <= keep) {
        const f = seg === 0 ? 0 : (next - walked) / seg;
        const point = {
          x: a.x + (b.x - a.x) * f + (opts.dx ?? 0),
          z: a.z + (b.z - a.z) * f + (opts.dz ?? 0),
          side,
        };
        out.push(
          opts.headings && seg > 0
            ? { ...point, hx: (b.x - a.x) / seg, hz: (b.z - a.z) / seg }
            : point,
        );
        next += 1;
      }
      walked += seg;
    }
  }
  return out;
}

/**
 * `lap` driven the other way round: every channel in reverse order except
 * time, which still runs forwards, and distance, which is measured again
 * from the new start.
 */
export function reversedLap(lap: RecordedLap): RecordedLap {
  const samples = { ...lap.samples } as Record<string, number[] | string[]>;
  for (const [name, column] of Object.entries(lap.samples)) {
    if (name === "t" || !Array.isArray(column)) continue;
    samples[name] = [...column].reverse();
  }
  const dist = lap.samples.dist;
  const total = dist[dist.length - 1];
  samples.dist = [...dist].reverse().map((d) => total - d);
  return { ...lap, samples: samples as unknown as LapSamples };
}

/** A source id for test bundles. */
export const TEST_SOURCE = "abc123abc123";

/**
 * A version 4 bundle document of `track` whose border records lie along
 * the true borders of the synthetic circuit of `seed` (see {@linkcode borderPoints}).
 */
export function circuitBundle(
  circuit: Circuit,
  track: string,
  opts: BorderOptions = {},
): Record<string, unknown> {
  return {
    format: "sim-datalogger-track-bundle",
    version: 4,
    meta: { track, runs: 1, source_runs: { [TEST_SOURCE]: 1 }, updated_at: "" },
    edges: borderPoints(circuit, opts).map((p) => ({
      x: Math.round(p.x * 1000) / 1000,
      z: Math.round(p.z * 1000) / 1000,
      ...(p.hx === undefined ? {} : {
        hx: Math.round(p.hx! * 1e5) / 1e5,
        hz: Math.round(p.hz! * 1e5) / 1e5,
      }),
      side: p.side,
      votes: { auto: { [TEST_SOURCE]: [1, 1] } },
      run: 1,
    })),
    finish_crossings: [],
  };
}
