/**
 * Sector times of laps, the best time through each sector across a set of
 * laps, and the theoretical best lap (the sum of the best sectors).
 *
 * Sector times are on the game's clock: a lap's sample time scaled by its
 * reported time over its sample duration (a factor within a sample's worth
 * of 1), so the sectors of a lap that tile it sum to exactly its lap time.
 *
 * @module
 */
import { BadRequest } from "../errors.ts";
import { round } from "../laps/sample.ts";
import { resolveAnchors } from "./anchors.ts";
import type { CornerMap } from "./corner_map.ts";
import { type LoopStart, loopStartOf, turnedToStart } from "./lap_rotation.ts";
import { lapTimeMs, type LapTrace, timeAt, traceOf } from "./lap_trace.ts";
import { type BundleMarks, sectorPlan } from "./sector_plan.ts";
import type { AnalysedLap, LapSectorTimes, SectorBest, SectorBests, SectorPlan } from "./types.ts";

/** Start and end of every sector on the lap, metres; null where the lap did not pass. */
export function sectorBounds(trace: LapTrace, plan: SectorPlan): ([number, number] | null)[] {
  const list = plan.sectors;
  if (plan.covers_lap) {
    // Shared boundaries are resolved once, so adjacent sectors meet exactly.
    const at = resolveAnchors(trace, list.slice(0, -1).map((s) => s.end));
    const cuts = [0, ...at, trace.length];
    return list.map((_, k) => {
      const a = cuts[k];
      const b = cuts[k + 1];
      return a === null || b === null ? null : [a, b];
    });
  }
  const at = resolveAnchors(trace, list.flatMap((s) => [s.start, s.end]));
  return list.map((s, k) => {
    const a = s.start === null ? 0 : at[2 * k];
    const b = s.end === null ? trace.length : at[2 * k + 1];
    return a === null || b === null || b < a ? null : [a, b];
  });
}

/**
 * The lap's time through each sector of `plan`, s (unrounded, for
 * storing and combining). When the plan covers the lap and the lap passed
 * every boundary, the times sum to the lap's time. `start`: where the lap
 * the plan was laid on starts on its circuit map's loop; a lap cut more
 * than the anchor tolerance from there is timed from there
 * (lap_rotation.ts), its `bounds_m` in those metres.
 */
export function lapSectorTimes(
  lap: AnalysedLap,
  plan: SectorPlan,
  trace?: LapTrace,
  start: LoopStart | null = null,
): LapSectorTimes {
  const label = `lap ${lap.id}`;
  const own = trace ?? traceOf(lap.samples, label);
  const tr = start === null ? own : turnedToStart(own, start.start_m, start.map, label);
  const time = lapTimeMs(lap, tr);
  const clock = time / 1000 / tr.duration;
  const bounds = sectorBounds(tr, plan);
  return {
    lap_id: lap.id,
    time_ms: time,
    bounds_m: bounds,
    times_s: bounds.map((b) => (b ? (timeAt(tr, b[1]) - timeAt(tr, b[0])) * clock : null)),
  };
}

/**
 * The best time through each sector across `times` (each lap's times
 * against `plan`), the lap that set it, the fastest lap, and the
 * theoretical best. Guarantees: `theoretical_best_ms <= best_lap_ms`
 * whenever both exist; `theoretical_best_ms` is null unless the plan
 * covers the lap and every sector has a time. `start_m`/`end_m` are the
 * sector's bounds on the fastest lap; `lap_start_m` is `lapStart`, where
 * the lap the plan was laid on starts on the circuit map's loop.
 */
export function combineSectorBests(
  plan: SectorPlan,
  times: readonly LapSectorTimes[],
  lapStart: number | null = null,
): SectorBests {
  let fastest: LapSectorTimes | null = null;
  for (const t of times) if (!fastest || t.time_ms < fastest.time_ms) fastest = t;
  let sum: number | null = plan.covers_lap ? 0 : null;
  const sectors: SectorBest[] = plan.sectors.map((s, k) => {
    let best: number | null = null;
    let lapId: number | null = null;
    for (const t of times) {
      const v = t.times_s[k];
      if (v !== null && v !== undefined && (best === null || v < best)) {
        best = v;
        lapId = t.lap_id;
      }
    }
    sum = sum === null || best === null ? null : sum + best;
    const b = fastest?.bounds_m[k] ?? null;
    return {
      n: s.n,
      name: s.name,
      start_m: b ? round(b[0], 1) : null,
      end_m: b ? round(b[1], 1) : null,
      best_s: best === null ? null : round(best, 3),
      lap_id: lapId,
    };
  });
  return {
    source: plan.source,
    lap_start_m: lapStart,
    sectors,
    theoretical_best_ms: sum === null ? null : Math.round(sum * 1000),
    best_lap_ms: fastest?.time_ms ?? null,
    best_lap_id: fastest?.lap_id ?? null,
  };
}

/**
 * The body of `/api/analysis/sectors` over `laps` (every complete lap of a
 * circuit and car; the caller leaves incomplete laps out): sectors are laid
 * out on the fastest lap (see {@linkcode sectorPlan}) and every lap is timed
 * through them; with the circuit's map (`circuit`), a lap cut elsewhere on
 * the loop than the fastest is timed from where the fastest starts. Throws BadRequest on path `laps` when there are none.
 */
export function bestSectors(
  laps: readonly AnalysedLap[],
  bundle: BundleMarks | null = null,
  circuit: CornerMap | readonly CornerMap[] | null = null,
): SectorBests {
  if (laps.length === 0) {
    throw new BadRequest("no laps to take sector bests from", [{
      path: "laps",
      message: "must hold at least one lap",
    }]);
  }
  const traces = laps.map((l) => traceOf(l.samples, `lap ${l.id}`));
  let best = 0;
  for (let k = 1; k < laps.length; k++) {
    if (lapTimeMs(laps[k], traces[k]) < lapTimeMs(laps[best], traces[best])) best = k;
  }
  const plan = sectorPlan(traces[best], bundle);
  const start = loopStartOf(traces[best], circuit);
  const times = laps.map((l, k) => lapSectorTimes(l, plan, traces[k], start));
  return combineSectorBests(plan, times, start.start_m);
}
