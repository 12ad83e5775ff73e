/**
 * The sectors of an unnamed session, for the analysis view: the session's
 * own sector bests (`GET /api/analysis/sectors?session=ID&car=ID`, through
 * `app.analysis.sectors`) and a lap's times through them, laid out as the
 * service lays them out: three sectors split at the corners of the
 * session's fastest lap that counts (an unnamed circuit has no bundle).
 *
 * @module
 */
import type { AppFace } from "../app/create_app.ts";
import { traceOf } from "../core/analysis/lap_trace.ts";
import { sectorPlan } from "../core/analysis/sector_plan.ts";
import { lapSectorTimes } from "../core/analysis/sectors.ts";
import type { LapSectorTimes, SectorBests } from "../core/analysis/types.ts";

/** A session's sector bests and the times of laps through them. */
export interface SessionSectors {
  sectors: SectorBests;
  /** The times of the laps asked for, in the order asked. */
  times: LapSectorTimes[];
}

/**
 * The sector bests of session `session` in car `car`, and the times of
 * laps `lapIds` through those sectors. Throws NotFound (from the service)
 * when no lap of the session in that car counts.
 */
export async function sessionSectors(
  app: AppFace,
  session: number,
  car: number,
  lapIds: readonly number[],
): Promise<SessionSectors> {
  const sectors = await app.analysis.sectors({ session, car });
  if (sectors.best_lap_id === null) return { sectors, times: [] };
  const fastest = await app.sessions.lap(sectors.best_lap_id);
  const plan = sectorPlan(traceOf(fastest.samples, `lap ${fastest.id}`), null);
  const times: LapSectorTimes[] = [];
  for (const id of lapIds) {
    const lap = id === fastest.id ? fastest : await app.sessions.lap(id);
    times.push(lapSectorTimes(lap, plan));
  }
  return { sectors, times };
}
