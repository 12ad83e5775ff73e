/**
 * The team hub's laps for analysis (the {@linkcode AnalysisLaps} port over
 * {@linkcode HubLapSource}), so the hub answers compare, corners, notes,
 * sectors and consistency with the logger's own service and engine.
 *
 * A lap is its lap file, decoded by the lap-file reader an import uses
 * (src/core/laps/lap_file.ts: validated, metrics and coverage recomputed),
 * with the hub's id; it stands in a session of its own (as an imported lap
 * does on the logger) named by the file's track and car names. The hub
 * has no sessions to ask by, and the laps that count in a car at a circuit
 * are the team's complete timed laps there, of every driver, from the
 * latest {@linkcode MAX_LAP_LIMIT} the listing gives (fastest first); sector
 * bests take the fastest {@linkcode HUB_SECTOR_LAPS} of them, since every lap
 * a question takes is a whole lap file fetched and decoded (about 80 ms for
 * 6,000 samples on the CI machine). Corner maps made from a circuit's best
 * lap are made again on each question: a hub keeps no state between
 * requests.
 *
 * @module
 */
import { BadRequest, ImportRejected, NotFound } from "../../core/errors.ts";
import { buildImportedLap, parseLapFile } from "../../core/laps/lap_file.ts";
import type { Lap } from "../../core/laps/lap.ts";
import type { Session } from "../../core/laps/session.ts";
import { circuitOf, slugify } from "../../core/bundle/slug.ts";
import { MAX_LAP_LIMIT } from "../laps/lap_listing.ts";
import type { AnalysisLaps, LoadedLap, RankedLaps } from "../analysis/analysis_laps.ts";
import type { CornerMapSource } from "../analysis/corner_maps.ts";
import type { HubLapRow, HubLapSource } from "./hub_analysis_source.ts";

/**
 * Most laps the hub's sector bests read: the team's fastest, so that a
 * question costs a second or two, not minutes.
 */
export const HUB_SECTOR_LAPS = 20;

/** The analysis port over the hub's laps. */
export class HubAnalysisLaps implements AnalysisLaps {
  readonly #source: HubLapSource;
  /** Corner maps from the team's best lap of a circuit, kept nowhere. */
  readonly cornerMaps: CornerMapSource;

  /** Reads laps through `source.lapFile` and `source.laps`. */
  constructor(source: HubLapSource) {
    this.#source = source;
    this.cornerMaps = {
      stored: () => Promise.resolve(null),
      store: () => Promise.resolve(),
      fastest: async (circuit) => (await this.#ranked({ circuit }))[0]?.id ?? null,
      lapOf: async (id, circuit) => {
        const [found] = await this.load([id]);
        return found && circuitOf(found.session.track_name) === circuit ? found.lap : null;
      },
    };
  }

  /**
   * Laps `ids` decoded from their files, each fetched once; null where the
   * hub holds none.
   *
   * @throws {Error} naming the lap and the first fault when a file the hub
   *   holds is not a lap file (the hub's store is damaged: a 500, not the
   *   caller's fault).
   */
  async load(ids: readonly number[]): Promise<(LoadedLap | null)[]> {
    const unique = [...new Set(ids)];
    const files = await Promise.all(unique.map((id) => this.#source.lapFile(id)));
    const byId = new Map(unique.map((id, k) => [id, files[k]]));
    return ids.map((id) => {
      const file = byId.get(id);
      return file === null || file === undefined ? null : decodeLap(id, file);
    });
  }

  /**
   * The team's complete timed laps of the circuit named `track` in `car`,
   * fastest first: the fastest `most`, or {@linkcode HUB_SECTOR_LAPS} when
   * the question would read every one.
   *
   * @throws {NotFound} when there is none.
   */
  async circuitLaps(track: string, car: number, most?: number): Promise<RankedLaps> {
    const circuit = slugify(track);
    const rows = (await this.#ranked({ circuit, car })).slice(0, most ?? HUB_SECTOR_LAPS);
    if (rows.length === 0) {
      throw new NotFound(`no complete lap of "${track}" in car ${car} is on the hub`);
    }
    return {
      rows,
      track,
      holds: ({ lap, session }) =>
        lap.car_id === car && counts(lap) && circuitOf(session.track_name) === circuit,
    };
  }

  /**
   * Always refused: the hub keeps laps, not the sessions they were driven in.
   *
   * @throws {BadRequest} at `session`.
   */
  sessionLaps(): Promise<RankedLaps> {
    const message = "is not known on the hub, which keeps laps without their sessions: " +
      "ask by track";
    return Promise.reject(new BadRequest(`session ${message}`, [{ path: "session", message }]));
  }

  /** Nothing to mend: the hub's listing is its store, not an index derived from it. */
  repair(): Promise<void> {
    return Promise.resolve();
  }

  /** The team's fastest complete lap of the lap's circuit and car, not the lap itself; else null. */
  async defaultReference(lap: Pick<Lap, "id" | "car_id">, session: Session): Promise<
    number | null
  > {
    const circuit = circuitOf(session.track_name);
    if (circuit === null) return null;
    const rows = await this.#ranked({ circuit, car: lap.car_id });
    return rows.find((r) => r.id !== lap.id)?.id ?? null;
  }

  /** The complete timed laps the listing gives for `q`, fastest first, then by id. */
  async #ranked(q: { circuit: string; car?: number }): Promise<HubLapRow[]> {
    const rows = await this.#source.laps({ ...q, limit: MAX_LAP_LIMIT });
    return rows
      .filter((r) => r.complete && r.time_ms !== null && r.time_ms > 0)
      .sort((a, b) => a.time_ms! - b.time_ms! || a.id - b.id);
  }
}

/** Whether a decoded lap counts for a best on the hub: complete and timed. */
function counts(lap: Lap): boolean {
  return lap.complete && lap.time_ms > 0;
}

/**
 * Lap `id` of the hub from its `file`, in a session of its own (id `id`,
 * `imported`) that carries the file's track and car names.
 */
export function decodeLap(id: number, file: unknown): LoadedLap {
  let parsed;
  try {
    parsed = parseLapFile(file);
  } catch (err) {
    if (!(err instanceof ImportRejected)) throw err;
    throw new Error(`lap ${id}'s file on the hub is not a lap file: ${err.message}`);
  }
  const lap: Lap = { ...buildImportedLap(parsed), id, session_id: id };
  const at = lap.finished_at;
  const session: Session = {
    id,
    kind: "imported",
    started_at: at,
    updated_at: at,
    car_id: lap.car_id,
    car_name: parsed.car_name ?? "",
    track_name: parsed.track_name ?? "",
    track_source: parsed.track_name ? "user" : "",
    lap_count: 1,
    best_lap_time_ms: lap.counts_for_best ? lap.time_ms : null,
    bests_excluded: false,
    notes: "",
  };
  return { lap, session };
}
