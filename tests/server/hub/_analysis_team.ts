/**
 * The team the hub tests share: real laps (the Broad Bean fixture's four)
 * pushed by four drivers, one of them with packets lost, one in another
 * car and one at another circuit.
 *
 * @module
 */
import type { AnalysedLap } from "../../../src/core/analysis/types.ts";
import type { LapSamples } from "../../../src/core/laps/columns.ts";
import { broadBeanLaps } from "../../core/analysis/_laps.ts";
import { FakeHub } from "./_analysis_hub.ts";

/** The circuit the team's laps are of. */
export const BROAD_BEAN = "Broad Bean Raceway";
/** The car the team's laps are driven in. */
export const CAR = 1549;

/** Broad Bean lap 1 with 40 samples lost after sample 500: incomplete. */
function holed(samples: LapSamples): LapSamples {
  const out: Record<string, number[]> = {};
  for (const [name, values] of Object.entries(samples as unknown as Record<string, number[]>)) {
    out[name] = [...values.slice(0, 500), ...values.slice(540)];
  }
  return out as unknown as LapSamples;
}

/**
 * The team: alice drove Broad Bean laps 1 and 3 (hub ids 11, 13), bob laps
 * 2 and 4 (22, 24; lap 2 is the fastest, 32.559 s), carol lap 1 again with a
 * hole and the fastest time of all (35: incomplete, never a best), and dave
 * lap 3 in another car (46) and at another circuit (47).
 */
export function team(): { hub: FakeHub; laps: Map<number, AnalysedLap> } {
  const bb = broadBeanLaps();
  const hub = new FakeHub();
  const laps = new Map<number, AnalysedLap>();
  const push = (id: number, driver: string, k: number, more: Partial<AnalysedLap> = {}) => {
    const lap = { ...bb[k], ...more, id };
    laps.set(id, lap);
    hub.push(id, driver, {
      number: k + 1,
      time_ms: lap.time_ms,
      car_id: CAR,
      track_name: BROAD_BEAN,
      finished_at: `2026-11-2${k}T20:00:00Z`,
      samples: lap.samples,
    });
  };
  push(11, "alice", 0);
  push(13, "alice", 2);
  push(22, "bob", 1);
  push(24, "bob", 3);
  push(35, "carol", 0, { time_ms: 30_000, samples: holed(bb[0].samples) });
  const base = { number: 3, time_ms: bb[2].time_ms, finished_at: "2026-11-27T20:00:00Z" };
  hub.push(46, "dave", { ...base, car_id: 900, track_name: BROAD_BEAN, samples: bb[2].samples });
  hub.push(47, "dave", { ...base, car_id: CAR, track_name: "Home Oval", samples: bb[2].samples });
  return { hub, laps };
}
