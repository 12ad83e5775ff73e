/**
 * The logger's laps for analysis (the {@linkcode AnalysisLaps} port over
 * the store): laps and sessions as stored, and the laps that count from
 * the lap index (src/storage/lap_index.ts), which a repair rebuilds.
 *
 * Which laps count: those that count for best of one circuit and car, from
 * sessions not excluded from bests (complete laps, and for live laps those
 * the span guard passed); or those of one session and car (a session not
 * excluded), named or not: an unnamed session's laps count for that session.
 *
 * @module
 */
import { NotFound } from "../../core/errors.ts";
import type { Lap } from "../../core/laps/lap.ts";
import type { Session } from "../../core/laps/session.ts";
import { circuitOf, slugify } from "../../core/bundle/slug.ts";
import { rankedRows, rebuildLapIndex, sessionRankedRows } from "../../storage/bests.ts";
import { type LapRow, rankingCircuit, ranks, rowOf, sessionRows } from "../../storage/lap_index.ts";
import { getLap } from "../../storage/laps.ts";
import { getSession } from "../../storage/sessions.ts";
import type { AnalysisLaps, LoadedLap, RankedLaps } from "./analysis_laps.ts";
import { type CornerMapSource, kvCornerMapSource } from "./corner_maps.ts";

/** The analysis port over the store `kv`. */
export class KvAnalysisLaps implements AnalysisLaps {
  readonly #kv: Deno.Kv;
  /** Corner maps: made from the store's bests and kept in it. */
  readonly cornerMaps: CornerMapSource;

  /** Reads laps, sessions and the lap index from `kv`. */
  constructor(kv: Deno.Kv) {
    this.#kv = kv;
    this.cornerMaps = kvCornerMapSource(kv);
  }

  /** Laps `ids` with their sessions, in order; each lap read once, each session once. */
  async load(ids: readonly number[]): Promise<(LoadedLap | null)[]> {
    const laps = await Promise.all(ids.map((id) => getLap(this.#kv, id)));
    const sessions = new Map<number, Session | null>();
    for (const lap of laps) {
      if (lap && !sessions.has(lap.session_id)) {
        sessions.set(lap.session_id, await getSession(this.#kv, lap.session_id));
      }
    }
    return laps.map((lap) => {
      const session = lap ? sessions.get(lap.session_id) : null;
      return lap && session ? { lap, session } : null;
    });
  }

  /** The laps that count of circuit `track` in `car`, from every session ranking there. */
  async circuitLaps(track: string, car: number): Promise<RankedLaps> {
    const circuit = slugify(track);
    const rows = await rankedRows(this.#kv, circuit, car);
    if (rows.length === 0) throw new NotFound(`no lap of "${track}" in car ${car} counts for best`);
    return {
      rows,
      track,
      holds: ({ lap, session }) =>
        lap.car_id === car && ranks(rowOf(lap)) && rankingCircuit(session) === circuit,
    };
  }

  /**
   * The laps that count of session `id` in `car`, named or not; none when
   * the session is kept out of bests. Laid out by the session's track name
   * as read now; a lap read after the session was renamed is a mismatch.
   */
  async sessionLaps(id: number, car: number): Promise<RankedLaps> {
    const session = await getSession(this.#kv, id);
    if (!session) throw new NotFound(`session ${id} not found`);
    const none = `no lap of session ${id} in car ${car} counts for best`;
    if (session.bests_excluded) throw new NotFound(`${none}: the session is kept out of bests`);
    const rows = await sessionRankedRows(this.#kv, id, car);
    if (rows.length === 0) throw new NotFound(none);
    const track = session.track_name;
    return {
      rows,
      track,
      holds: ({ lap, session: s }) =>
        lap.car_id === car && ranks(rowOf(lap)) && s.id === id && s.track_name === track &&
        s.bests_excluded !== true,
    };
  }

  /** Rebuilds the lap index, which disagreed with the laps twice in a row. */
  async repair(): Promise<void> {
    await rebuildLapIndex(this.#kv);
  }

  /**
   * The fastest lap that counts for best at the lap's circuit in its car
   * (from sessions not excluded from bests), else the fastest complete timed
   * lap of its own session; never the lap itself. Null when there is neither.
   */
  async defaultReference(
    lap: Pick<Lap, "id" | "car_id" | "session_id">,
    session: Session,
  ): Promise<number | null> {
    const circuit = circuitOf(session.track_name);
    if (circuit !== null) {
      const best = (await rankedRows(this.#kv, circuit, lap.car_id)).find((r) => r.id !== lap.id);
      if (best) return best.id;
    }
    let best: LapRow | null = null;
    for (const r of await sessionRows(this.#kv, lap.session_id)) {
      if (r.id === lap.id || !r.complete || r.time_ms <= 0) continue;
      if (best === null || r.time_ms < best.time_ms) best = r;
    }
    return best?.id ?? null;
  }
}
