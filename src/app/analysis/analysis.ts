/**
 * Lap analysis over stored laps (`/api/analysis/*`): loads the laps a
 * question names, each once, finds their circuit's hand-made marks, and
 * asks the pure engine (src/core/analysis). A lap's circuit is its
 * session's (the slug of its track name); its bundle is the stored bundle
 * of that slug, when there is one. Where laps come from is a port
 * (analysis_laps.ts): the logger's store (kv_analysis_laps.ts), or the team
 * hub's laps (src/app/hub/hub_analysis_laps.ts), under the same rules here.
 *
 * Which laps a question may take:
 * - a comparison or a corner report takes any stored laps, incomplete ones
 *   included, of one circuit (laps of unnamed sessions go with any);
 * - sectors and consistency take the laps that count (the port says which:
 *   on the logger those that count for best of one circuit and car, or of
 *   one session and car).
 *
 * @module
 */
import { BadRequest, type Issue, NotFound } from "../../core/errors.ts";
import { compareLaps } from "../../core/analysis/compare.ts";
import type { ChannelName } from "../../core/analysis/channel_names.ts";
import { consistency } from "../../core/analysis/consistency.ts";
import { cornerReport } from "../../core/analysis/corner_report.ts";
import {
  type CoachingNotes,
  coachingNotes,
  type NotedLap,
} from "../../core/analysis/coaching_notes.ts";
import { loopStartOf } from "../../core/analysis/lap_rotation.ts";
import { traceOf } from "../../core/analysis/lap_trace.ts";
import { type BundleMarks, sectorPlan } from "../../core/analysis/sector_plan.ts";
import { combineSectorBests, lapSectorTimes } from "../../core/analysis/sectors.ts";
import type {
  Comparison,
  Consistency,
  CornerReport,
  LapSectorTimes,
  SectorBests,
} from "../../core/analysis/types.ts";
import type { Lap } from "../../core/laps/lap.ts";
import type { Session } from "../../core/laps/session.ts";
import { circuitOf, slugify } from "../../core/bundle/slug.ts";
import type { BundleService } from "../bundles/bundles.ts";
import { CornerMaps } from "./corner_maps.ts";
import type { Corner } from "../../core/bundle/types.ts";
import type { CornerMap } from "../../core/analysis/corner_map.ts";
import type { AppDeps } from "../deps.ts";
import { checkLapSource, type LapSource } from "./lap_source.ts";
import type { AnalysisLaps, LoadedLap, RankedLaps } from "./analysis_laps.ts";
import { KvAnalysisLaps } from "./kv_analysis_laps.ts";

/** Most laps one comparison takes. */
export const MAX_COMPARED_LAPS = 20;

/** A comparison asked for (see {@linkcode AnalysisService.compare}). */
export interface CompareQuery {
  /** 1 to {@linkcode MAX_COMPARED_LAPS} distinct lap ids, in the order the answer lists them. */
  laps: readonly number[];
  /** The reference lap; by default the fastest of `laps`. */
  ref?: number;
  /** Grid step, metres (default 1; at least the engine's `MIN_STEP_M`). */
  step?: number;
  /** The channels compared (default speed, throttle, brake). */
  channels?: readonly ChannelName[];
}

/** A corner report asked for: a lap, and its reference when there is one. */
export interface CornersQuery {
  lap: number;
  ref?: number;
}

/** The reference of coaching notes, when not the default. */
export interface NotesQuery {
  ref?: number;
}

/** A circuit or session, and a car (see src/app/analysis/lap_source.ts). */
export type SectorsQuery = LapSource;

/** As {@linkcode SectorsQuery}, and how many of the fastest laps. */
export interface ConsistencyQuery extends LapSource {
  /** 2 to `MAX_CONSISTENCY_LAPS` laps. */
  n: number;
}

/** Laps read from the store at once when timing sectors, which reads every lap that counts. */
const READ_AHEAD = 4;

/** Where the service reads laps: the logger's store (`kv`), or another port's laps. */
export type AnalysisSource = Pick<AppDeps, "kv"> | { laps: AnalysisLaps };

/** What the analysis service calls on the other services. */
export interface AnalysisServices {
  /** The circuit's bundle, for its authored corners and sections. */
  bundles: Pick<BundleService, "marks">;
}

/** The answers of `/api/analysis/*` over stored laps. */
export class AnalysisService {
  readonly #laps: AnalysisLaps;
  readonly #bundles: AnalysisServices["bundles"];
  readonly #maps: CornerMaps;

  /**
   * Reads laps from `source.kv` (the logger's store) or through
   * `source.laps`, and bundles through `services.bundles`.
   */
  constructor(source: AnalysisSource, services: AnalysisServices) {
    this.#laps = "kv" in source ? new KvAnalysisLaps(source.kv) : source.laps;
    this.#bundles = services.bundles;
    this.#maps = new CornerMaps(this.#laps.cornerMaps);
  }

  /**
   * The corners of the circuit named `trackName`, as every report lays
   * them: its bundle's authored corners (null when it has none) and its
   * corner map (empty for an unnamed circuit). Authored corners outrank
   * the map where a lap passed them. `marks`: the circuit's bundle marks when
   * the caller has just read them, so they are not read again.
   */
  async cornerSources(
    trackName: string,
    marks?: BundleMarks | null,
  ): Promise<{ authored: readonly Corner[] | null; circuit: CornerMap[] }> {
    if (marks === undefined) marks = await this.#bundles.marks(circuitOf(trackName));
    const circuit = await this.#maps.of(trackName, marks?.official ?? null);
    return { authored: marks?.corners ?? null, circuit };
  }

  /**
   * Compares laps `laps` (1 to {@linkcode MAX_COMPARED_LAPS} distinct ids)
   * against `ref` over distance (see `compareLaps`).
   * Without `ref`, the reference is the fastest complete lap among `laps`
   * (the first of equal times), or the fastest of them when none is
   * complete. `step` is the grid step in metres (default 1), `channels` the
   * channels drawn (default speed, throttle, brake). Each lap is read once.
   *
   * @throws {BadRequest} for a bad value, or laps of different circuits
   *   (the issues name each lap by its field, `laps[k]` or `ref`, and circuit);
   *   {@linkcode NotFound} for an unknown lap.
   */
  async compare(q: CompareQuery): Promise<Comparison> {
    const ids = q.laps;
    const refId = q.ref ?? null;
    const step = q.step;
    const channels = q.channels;
    const wanted = refId === null || ids.includes(refId) ? ids : [...ids, refId];
    const loaded = await this.#load(wanted);
    sameCircuit(loaded, wanted.map((_, k) => k < ids.length ? `laps[${k}]` : "ref"));
    const laps = loaded.slice(0, ids.length).map((l) => l.lap);
    const ref = refId === null ? defaultRef(laps) : loaded[wanted.indexOf(refId)].lap;
    // The circuit's map says where each lap starts on the loop, so laps cut elsewhere line up.
    const named = loaded.find((l) => l.session.track_name !== "");
    const { circuit } = await this.cornerSources(named?.session.track_name ?? "");
    return compareLaps({ ref, laps, step, channels, circuit });
  }

  /**
   * The corner report of lap `lap` against lap `ref` (optional: without it
   * the `ref_*` fields and `delta_s` are null), on the authored corners of
   * the lap's circuit's bundle when it has any the lap passed, else on the
   * circuit's corner map (see corner_maps.ts), otherwise (an unnamed
   * circuit) on corners detected from the lap's line.
   *
   * @throws {BadRequest} for a bad value or laps of different
   *   circuits; {@linkcode NotFound} for an unknown lap.
   */
  async corners(q: CornersQuery): Promise<CornerReport> {
    const id = q.lap;
    const refId = q.ref ?? null;
    const wanted = refId === null || refId === id ? [id] : [id, refId];
    const loaded = await this.#load(wanted);
    sameCircuit(loaded, ["lap", "ref"]);
    const [mine] = loaded;
    const ref = refId === null ? null : loaded[wanted.indexOf(refId)].lap;
    const { authored, circuit } = await this.cornerSources(mine.session.track_name);
    return cornerReport(mine.lap, ref, authored, { circuit });
  }

  /**
   * The coaching notes of lap `id` against `query.ref` (see
   * src/core/analysis/coaching_notes.ts), on the corners the corner report
   * uses. Without `ref`, the reference is {@linkcode defaultReference}'s.
   *
   * @throws {BadRequest} for a bad `ref` or laps of different circuits;
   *   {@linkcode NotFound} for an unknown lap, or when no reference exists.
   */
  async notes(id: number, q: NotesQuery = {}): Promise<CoachingNotes> {
    const [mine] = await this.#load([id]);
    return await this.lapNotes(mine.lap, mine.session, q.ref ?? null);
  }

  /**
   * The notes of `lap` (of `session`, as held: a lap just stored need not
   * be read back) against lap `refId`, or the {@linkcode defaultReference}
   * when null.
   *
   * @throws {BadRequest} for laps of different circuits; {@linkcode NotFound}
   *   for an unknown reference, or when no reference exists.
   */
  async lapNotes(lap: Lap, session: Session, refId: number | null): Promise<CoachingNotes> {
    const chosen = refId ?? await this.defaultReference(lap, session);
    if (chosen === null) {
      throw new NotFound(
        `lap ${lap.id} has no reference: no other complete lap of its circuit and car, nor of its session`,
      );
    }
    const mine = { lap, session };
    const ref = chosen === lap.id ? mine : (await this.#load([chosen]))[0];
    sameCircuit([mine, ref], ["id", "ref"]);
    return await this.notesAgainst(lap, session, ref.lap);
  }

  /**
   * The notes of `lap` (of `session`) against `ref`, a lap held rather than
   * looked up (the team's best from the hub, which is not in this store),
   * by the same rule and on the same corners as {@linkcode lapNotes}. The
   * notes' `ref_id` is `ref.id`: a caller whose reference is not stored
   * sets the reference fields itself. The caller answers for `ref` being a
   * lap of the session's circuit.
   *
   * @throws {BadRequest} for a lap or reference that covers no distance.
   */
  async notesAgainst(lap: Lap, session: Session, ref: NotedLap): Promise<CoachingNotes> {
    const { authored, circuit } = await this.cornerSources(session.track_name);
    return coachingNotes(lap, ref, authored, { circuit });
  }

  /**
   * The lap a lap's notes are against by default, never the lap itself; null
   * when there is none. On the logger: the fastest lap that counts for best
   * at its circuit in its car (from sessions not excluded from bests), else
   * the fastest complete timed lap of its own session; on the hub: the
   * team's fastest complete lap of its circuit and car.
   */
  defaultReference(
    lap: Pick<Lap, "id" | "car_id" | "session_id">,
    session: Session,
  ): Promise<number | null> {
    return this.#laps.defaultReference(lap, session);
  }

  /**
   * The sector bests in car `car` over every lap that counts for best (see
   * the module) of circuit `track`, or of session `session`: the sectors
   * are the bundle's sections of the circuit (a session's, when it is
   * named), else three split at the corners, laid out on the fastest lap;
   * each lap is read once, {@linkcode READ_AHEAD} at a time, so memory
   * holds a few laps whatever their number.
   *
   * @throws {BadRequest} for a bad value; {@linkcode NotFound} for an
   *   unknown session, or when no lap of that circuit (session) and car
   *   counts.
   */
  async sectors(q: SectorsQuery): Promise<SectorBests> {
    return await this.#overRanked(q, async ({ rows, track, holds }) => {
      const marks = await this.#bundles.marks(circuitOf(track));
      // The plan is laid out on the fastest lap, as bestSectors does.
      const [fastest] = await this.#loadCounting(rows.slice(0, 1), holds);
      const trace = traceOf(fastest.samples, `lap ${fastest.id}`);
      const plan = sectorPlan(trace, marks);
      const start = loopStartOf(trace, (await this.cornerSources(track, marks)).circuit);
      const times: LapSectorTimes[] = [lapSectorTimes(fastest, plan, trace, start)];
      for (let i = 1; i < rows.length; i += READ_AHEAD) {
        for (const lap of await this.#loadCounting(rows.slice(i, i + READ_AHEAD), holds)) {
          times.push(lapSectorTimes(lap, plan, undefined, start));
        }
      }
      return combineSectorBests(plan, times, start.start_m);
    });
  }

  /**
   * The times of laps `lapIds` through the sectors of circuit `track` in car
   * `car`, laid out as {@linkcode sectors} lays them (on the fastest lap that
   * counts), in the order asked; for the dashboard, which shows a lap and its
   * reference beside the sector bests. The laps may be of any car; laps of
   * another circuit get times through places they never passed (null there).
   *
   * @throws {NotFound} when no lap of that circuit and car counts, or for an
   *   unknown lap.
   */
  async sectorTimes(
    track: string,
    car: number,
    lapIds: readonly number[],
  ): Promise<LapSectorTimes[]> {
    return await this.#overRanked({ track, car }, async ({ rows, holds }) => {
      const marks = await this.#bundles.marks(slugify(track));
      const [fastest] = await this.#loadCounting(rows.slice(0, 1), holds);
      const trace = traceOf(fastest.samples, `lap ${fastest.id}`);
      const plan = sectorPlan(trace, marks);
      const start = loopStartOf(trace, (await this.cornerSources(track, marks)).circuit);
      return (await this.#load(lapIds)).map(({ lap }) =>
        lapSectorTimes(lap, plan, undefined, start)
      );
    });
  }

  /**
   * Consistency over the fastest `n` (2 to 100, default 5) laps that count
   * for best in car `car` of circuit `track`, or of session `session`; only
   * those `n` are read. The hotspots are named by the circuit's corners
   * (authored, else its map); an unnamed session's are detected.
   *
   * @throws {BadRequest} for a bad value; {@linkcode NotFound} for an
   *   unknown session, or when no lap of that circuit (session) and car
   *   counts.
   */
  async consistency(q: ConsistencyQuery): Promise<Consistency> {
    const n = q.n;
    return await this.#overRanked(q, async ({ rows, track, holds }) => {
      const laps = await this.#loadCounting(rows.slice(0, n), holds);
      const { authored, circuit } = await this.cornerSources(track);
      return consistency(laps, { n, corners: authored, circuit });
    }, n);
  }

  /** Laps `ids` with their sessions, each read once, in order; NotFound for the first unknown. */
  async #load(ids: readonly number[]): Promise<LoadedLap[]> {
    const loaded = await this.#laps.load(ids);
    return ids.map((id, k) => {
      const found = loaded[k];
      if (!found) throw new NotFound(`lap ${id} not found`);
      return found;
    });
  }

  /**
   * Laps of `rows` as read, each checked against what the index said
   * (`holds`: it still counts, in this car, where the rows came from).
   * {@linkcode IndexMismatch} otherwise.
   */
  async #loadCounting(
    rows: RankedLaps["rows"],
    holds: RankedLaps["holds"],
  ): Promise<Lap[]> {
    let loaded: LoadedLap[];
    try {
      loaded = await this.#load(rows.map((r) => r.id));
    } catch (err) {
      if (err instanceof NotFound) throw new IndexMismatch();
      throw err;
    }
    if (!loaded.every(holds)) throw new IndexMismatch();
    return loaded.map((l) => l.lap);
  }

  /**
   * Runs `fn` over the laps that count in a car, of a circuit or of a
   * session, exactly one (`most`: how many of the fastest `fn` reads, all
   * when absent) (see {@linkcode RankedLaps}; NotFound when there
   * are none). When a lap it reads does not match the listing, the rows are
   * read again first (a write may have landed between two reads; a rebuild
   * would hold every live lap write behind it); only a second mismatch in a
   * row, a damaged index, has the port repair it once before `fn` runs on a
   * fresh choice.
   */
  async #overRanked<T>(
    source: LapSource,
    fn: (ranked: RankedLaps) => Promise<T>,
    most?: number,
  ): Promise<T> {
    checkLapSource(source);
    for (let attempt = 0;; attempt++) {
      const ranked = source.session === undefined
        ? await this.#laps.circuitLaps(source.track!, source.car, most)
        : await this.#laps.sessionLaps(source.session, source.car);
      try {
        return await fn(ranked);
      } catch (err) {
        if (!(err instanceof IndexMismatch) || attempt > 1) throw err;
      }
      if (attempt === 1) await this.#laps.repair();
    }
  }
}

/** A lap the index chose did not match its record. */
class IndexMismatch extends Error {
  constructor() {
    super("a lap does not match the lap index");
    this.name = "IndexMismatch";
  }
}

/**
 * Refuses laps of more than one named circuit, naming each lap by the
 * question's field that asked for it (`fields[k]` for `loaded[k]`). Laps
 * of unnamed sessions go with any circuit.
 */
function sameCircuit(loaded: readonly LoadedLap[], fields: readonly string[]): void {
  const circuits = new Set(
    loaded.map((l) => circuitOf(l.session.track_name)).filter((c) => c !== null),
  );
  if (circuits.size <= 1) return;
  const issues: Issue[] = loaded
    .map((l, k) => ({ l, k }))
    .filter(({ l }) => l.session.track_name !== "")
    .map(({ l, k }) => ({
      path: fields[k],
      message: `lap ${l.lap.id} is of "${l.session.track_name}"`,
    }));
  throw new BadRequest(
    `laps of different circuits cannot be compared: ${issues.map((i) => i.message).join(", ")}`,
    issues,
  );
}

/** The fastest complete lap of `laps` (first of equal times), else the fastest, else the first. */
function defaultRef(laps: readonly Lap[]): Lap {
  const timed = (l: Lap) => l.time_ms > 0;
  const pick = (pool: readonly Lap[]) =>
    pool.reduce<Lap | null>((a, l) => (a === null || l.time_ms < a.time_ms ? l : a), null);
  return pick(laps.filter((l) => l.complete && timed(l))) ?? pick(laps.filter(timed)) ?? laps[0];
}
