/**
 * What the analysis view reads from the application, in the background:
 * which lap to analyse against which reference (by default, or as asked),
 * the laps a driver may pick instead, and the analysis of a pair (the
 * comparison over distance, the corner report, the sector bests and both
 * laps' sector times). Every read goes through the application services.
 *
 * @module
 */
import type { AppFace } from "../app/create_app.ts";
import { sessionSectors } from "./session_sectors.ts";
import type { LapListItem } from "../app/laps/lap_listing.ts";
import { NotFound } from "../core/errors.ts";
import type { CoachingNotes } from "../core/analysis/coaching_notes.ts";
import type {
  Comparison,
  CornerReport,
  LapSectorTimes,
  SectorBests,
} from "../core/analysis/types.ts";

/** Sessions searched, newest first, for the last complete lap. */
const SESSIONS_SEARCHED = 20;

/** Laps a picker lists at most. */
export const PICK_LIMIT = 1000;

/** Channels compared: those drawn and read out, and the line for the map. */
export const ANALYSIS_CHANNELS = ["speed", "throttle", "brake", "gear", "pos_x", "pos_z"] as const;

/** A lap to analyse, its reference, and the laps either may be swapped for. */
export interface AnalysisChoice {
  lap: LapListItem;
  /** Null when no other lap qualifies: the lap is then shown alone. */
  ref: LapListItem | null;
  /** Laps of the lap's circuit and car (of its session while unnamed), fastest first. */
  laps: LapListItem[];
}

/** The analysis of a lap against its reference. */
export interface AnalysisData {
  /** Over the reference's distance; `laps[0]` is the lap, `laps[1]` the reference (when one). */
  comparison: Comparison;
  corners: CornerReport;
  /** The sector bests of the circuit (of the session while unnamed) and car; null when no lap counts. */
  sectors: SectorBests | null;
  /**
   * The session whose own sectors `sectors` are (the lap's session is
   * unnamed); null when they are the named circuit's.
   */
  sectorsOf: number | null;
  /** The lap's and the reference's times through those sectors (null with no sectors). */
  sectorTimes: { lap: LapSectorTimes; ref: LapSectorTimes | null } | null;
  /** The lap's coaching notes against the reference; null without one. */
  notes: CoachingNotes | null;
}

/** True when `lap` may be a reference: complete, timed, counting for best, not kept out. */
export function qualifies(lap: LapListItem): boolean {
  return lap.complete && lap.counts_for_best && !lap.bests_excluded && lap.time_ms > 0;
}

/**
 * The default reference of `lapId` among `laps` (fastest first): the
 * fastest lap that {@linkcode qualifies}, or the next one when that is the
 * lap itself (a lap against itself says nothing); null when none.
 */
export function defaultRef(laps: readonly LapListItem[], lapId: number): LapListItem | null {
  return laps.find((l) => l.id !== lapId && qualifies(l)) ?? null;
}

/**
 * The laps `lap` may be compared with: those of its circuit in its car,
 * fastest first; for a lap of an unnamed session, that session's laps.
 */
export async function lapsLike(app: AppFace, lap: LapListItem): Promise<LapListItem[]> {
  const all = await app.sessions.listAcross({
    car: lap.car_id,
    order: "time",
    limit: PICK_LIMIT,
    ...(lap.track === "" ? {} : { track: lap.track }),
  });
  return lap.track === "" ? all.filter((l) => l.session_id === lap.session_id) : all;
}

/**
 * The default choice: the last complete lap of the newest session that has
 * one, against {@linkcode defaultRef}; null when no session has a complete
 * lap.
 */
export async function chooseDefault(app: AppFace): Promise<AnalysisChoice | null> {
  const sessions = (await app.sessions.list()).slice(0, SESSIONS_SEARCHED);
  for (const s of sessions) {
    const last = (await app.sessions.laps(s.id)).findLast((l) => l.complete && l.time_ms > 0);
    if (!last) continue;
    return await chooseFor(app, last.id, null);
  }
  return null;
}

/**
 * Lap `lapId` against lap `refId`, or against {@linkcode defaultRef} when
 * `refId` is null. Throws {@linkcode NotFound} for an unknown lap.
 */
export async function chooseFor(
  app: AppFace,
  lapId: number,
  refId: number | null,
): Promise<AnalysisChoice> {
  const lap = await listed(app, lapId);
  const laps = await lapsLike(app, lap);
  let ref: LapListItem | null;
  if (refId === null) ref = defaultRef(laps, lap.id);
  else if (refId === lap.id) ref = null;
  else ref = laps.find((l) => l.id === refId) ?? await listed(app, refId);
  return { lap: laps.find((l) => l.id === lap.id) ?? lap, ref, laps };
}

/** Lap `id` as the lap list shows it; {@linkcode NotFound} when it is not stored. */
async function listed(app: AppFace, id: number): Promise<LapListItem> {
  const summary = await app.sessions.lapSummary(id);
  const session = await app.sessions.get(summary.session_id);
  const found = (await app.sessions.listAcross({
    car: summary.car_id,
    limit: PICK_LIMIT,
    ...(session.track_name === "" ? {} : { track: session.track_name }),
  })).find((l) => l.id === id);
  if (!found) throw new NotFound(`lap ${id} not found`);
  return found;
}

/** Reads the analysis of `choice` (see {@linkcode AnalysisData}). */
export async function loadAnalysis(app: AppFace, choice: AnalysisChoice): Promise<AnalysisData> {
  const { lap, ref } = choice;
  const ids = ref ? [lap.id, ref.id] : [lap.id];
  const [comparison, corners, sectors, notes] = await Promise.all([
    app.analysis.compare({
      laps: ids,
      ref: ref?.id ?? lap.id,
      channels: ANALYSIS_CHANNELS,
    }),
    app.analysis.corners({ lap: lap.id, ref: ref?.id }),
    lap.track === "" ? null : orNull(app.analysis.sectors({ track: lap.track, car: lap.car_id })),
    ref ? app.analysis.notes(lap.id, { ref: ref.id }) : null,
  ]);
  if (lap.track === "") {
    // An unnamed session's own sectors, as the API serves them by session.
    const own = await orNull(sessionSectors(app, lap.session_id, lap.car_id, ids));
    const sectorTimes = own && own.times.length === ids.length
      ? { lap: own.times[0], ref: own.times[1] ?? null }
      : null;
    return {
      comparison,
      corners,
      sectors: own?.sectors ?? null,
      sectorsOf: own ? lap.session_id : null,
      sectorTimes,
      notes,
    };
  }
  let sectorTimes: AnalysisData["sectorTimes"] = null;
  if (sectors) {
    const times = await orNull(
      app.analysis.sectorTimes(lap.track, lap.car_id, ref ? [lap.id, ref.id] : [lap.id]),
    );
    if (times) sectorTimes = { lap: times[0], ref: times[1] ?? null };
  }
  return { comparison, corners, sectors, sectorsOf: null, sectorTimes, notes };
}

/** `p`'s value, or null when it fails with {@linkcode NotFound}. */
async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof NotFound) return null;
    throw err;
  }
}
