/**
 * Laps for the MoTeC tests: the Suzuka capture's lap through the recorder,
 * and the Broad Bean fixture's four laps, as the log writers take them.
 *
 * @module
 */
import { parseCapture } from "../../../src/core/gt7/capture.ts";
import { decodeFrame } from "../../../src/core/gt7/decode.ts";
import { LapRecorder } from "../../../src/core/laps/recorder.ts";
import { finishRecordedLap } from "../../../src/core/laps/recorded_lap.ts";
import { judgeCoverage } from "../../../src/core/laps/coverage.ts";
import type { MotecLap } from "../../../src/core/motec/log.ts";
import { readGzFixture } from "../../_fixtures.ts";
import { broadBeanLaps } from "../analysis/_laps.ts";

let suzuka: MotecLap | null = null;

/** The Suzuka capture's whole lap (lap 1, 99,036 ms, 5,942 samples), finished 10:02:00 UTC. */
export function suzukaMotecLap(): MotecLap {
  if (suzuka) return suzuka;
  const rec = new LapRecorder();
  for (const p of parseCapture(readGzFixture("gt7/suzuka-full-lap.A.gt7.gz")).packets) {
    for (const e of rec.push(decodeFrame(p))) {
      if (e.type === "lap") {
        suzuka = finishRecordedLap(e.lap, "2026-11-21T10:02:00.000Z");
        return suzuka;
      }
    }
  }
  throw new Error("no lap in the Suzuka capture");
}

/**
 * The four Broad Bean laps, numbered 1 to 4, each finishing 33 s after the
 * last from 2026-11-22T09:00:33Z, judged for coverage like an import.
 */
export function broadBeanMotecLaps(): MotecLap[] {
  return broadBeanLaps().map((l, i) => ({
    number: i + 1,
    time_ms: l.time_ms,
    finished_at: new Date(Date.UTC(2026, 10, 22, 9, 0, 33 * (i + 1))).toISOString(),
    ...judgeCoverage({ timeMs: l.time_ms, samples: l.samples.t.length, filled: 0, longestGap: 0 }),
    samples: l.samples,
  }));
}
