/**
 * The corner map of a named circuit (docs/analysis.md, "One corner map per
 * circuit"): from the reference line of its configuration when the project
 * ships one (the configuration the bundle's confirmed official match names,
 * else the one the circuit's name is), otherwise from the circuit's best
 * complete lap. A map made from a lap is stored with that lap's id and
 * position hash and kept while the lap is stored unchanged in a session of
 * the circuit, so the circuit's corners keep their numbers as faster laps
 * come; one that fails a check is made again from the current best lap.
 * Where laps and kept maps come from is a {@linkcode CornerMapSource}: the
 * logger's store by default (kvCornerMapSource), the team hub's laps on the
 * hub (src/app/hub/hub_analysis_laps.ts).
 *
 * @module
 */
import type { Official } from "../../core/bundle/types.ts";
import { configurationsNamed, referenceCornerMap } from "../../core/analysis/circuit_corners.ts";
import { type CornerMap, cornerMapOfPath, pathHash } from "../../core/analysis/corner_map.ts";
import { configurationById, type OfficialConfiguration } from "../../core/catalog/tracks.ts";
import type { Lap } from "../../core/laps/lap.ts";
import { fastestOfCircuit } from "../../storage/bests.ts";
import { getCornerMap, putCornerMap, type StoredCornerMap } from "../../storage/corner_maps.ts";
import { circuitOf } from "../../core/bundle/slug.ts";
import { getLap } from "../../storage/laps.ts";
import { getSession } from "../../storage/sessions.ts";
import type { AppDeps } from "../deps.ts";

/** Where a circuit's best lap and its kept corner map come from. */
export interface CornerMapSource {
  /** The map kept for `circuit` (checked by the caller against its lap), or null. */
  stored(circuit: string): Promise<StoredCornerMap | null>;
  /** Keeps `map` as `circuit`'s (a source that keeps nothing drops it). */
  store(circuit: string, map: StoredCornerMap): Promise<void>;
  /** The id of the fastest lap that counts for best at `circuit` in any car, or null. */
  fastest(circuit: string): Promise<number | null>;
  /** Lap `id` when it is a lap of `circuit`, else null. */
  lapOf(id: number, circuit: string): Promise<Lap | null>;
}

/** The logger's source: laps, bests and kept maps of the store `kv`. */
export function kvCornerMapSource(kv: Deno.Kv): CornerMapSource {
  return {
    stored: (circuit) => getCornerMap(kv, circuit),
    store: (circuit, map) => putCornerMap(kv, circuit, map),
    fastest: async (circuit) => (await fastestOfCircuit(kv, circuit))?.lap_id ?? null,
    lapOf: async (id, circuit) => {
      const lap = await getLap(kv, id);
      if (!lap) return null;
      const session = await getSession(kv, lap.session_id);
      return session && circuitOf(session.track_name) === circuit ? lap : null;
    },
  };
}

/** Corner maps of named circuits. */
export class CornerMaps {
  readonly #source: CornerMapSource;

  /** Reads laps and kept maps from `from.kv`, or from the source given. */
  constructor(from: Pick<AppDeps, "kv"> | CornerMapSource) {
    this.#source = "kv" in from ? kvCornerMapSource(from.kv) : from;
  }

  /**
   * The corner maps of the circuit named `trackName`, given its bundle's
   * confirmed official match, if any: one map, or two when the name is a
   * venue's whose layout GT7 drives both ways round (the forward one
   * first; each lap takes the one it fits). Empty for an unnamed circuit,
   * or one with neither a reference line nor a lap that counts for best.
   */
  async of(trackName: string, official: Official | null = null): Promise<CornerMap[]> {
    const circuit = circuitOf(trackName);
    if (circuit === null) return [];
    const confirmed = official && configurationById(official.official_id);
    const configs = confirmed ? [confirmed] : configurationsNamed(trackName);
    const fromLines = configs.map(referenceCornerMap).filter((m) => m !== null);
    if (fromLines.length > 0) return fromLines;
    const map = await this.#fromBestLap(circuit, configs.length === 1 ? configs[0] : null);
    return map === null ? [] : [map];
  }

  async #fromBestLap(
    circuit: string,
    config: OfficialConfiguration | null,
  ): Promise<CornerMap | null> {
    const stored = await this.#source.stored(circuit);
    if (stored !== null) {
      const lap = await this.#source.lapOf(stored.lap_id, circuit);
      if (lap !== null && pathHash(lap.samples.pos_x, lap.samples.pos_z) === stored.lap_hash) {
        return stored.map;
      }
    }
    const best = await this.#source.fastest(circuit);
    const lap = best !== null && await this.#source.lapOf(best, circuit);
    if (!lap || !lap.complete) return null;
    let map: CornerMap;
    try {
      map = cornerMapOfPath(lap.samples.pos_x, lap.samples.pos_z, true, config?.turns ?? null);
    } catch {
      return null; // a lap with no positions to speak of has no map
    }
    const lap_hash = pathHash(lap.samples.pos_x, lap.samples.pos_z);
    await this.#source.store(circuit, { lap_id: lap.id, lap_hash, map });
    return map;
  }
}
