/**
 * The corner map of a named circuit (docs/analysis.md, "One corner map per
 * circuit"): from the reference line of its configuration when the project
 * ships one (the configuration the bundle's confirmed official match names,
 * else the one the circuit's name is), otherwise from the circuit's best
 * complete lap. A map made from a lap is stored with that lap's id and
 * position hash and kept while the lap is stored unchanged in a session of
 * the circuit, so the circuit's corners keep their numbers as faster laps
 * come; one that fails a check is made again from the current best lap.
 *
 * @module
 */
import type { Official } from "../../core/bundle/types.ts";
import { configurationsNamed, referenceCornerMap } from "../../core/analysis/circuit_corners.ts";
import { type CornerMap, cornerMapOfPath, pathHash } from "../../core/analysis/corner_map.ts";
import { configurationById, type OfficialConfiguration } from "../../core/catalog/tracks.ts";
import type { Lap } from "../../core/laps/lap.ts";
import { fastestOfCircuit } from "../../storage/bests.ts";
import { getCornerMap, putCornerMap } from "../../storage/corner_maps.ts";
import { circuitOf } from "../../core/bundle/slug.ts";
import { getLap } from "../../storage/laps.ts";
import { getSession } from "../../storage/sessions.ts";
import type { AppDeps } from "../deps.ts";

/** Corner maps of named circuits. */
export class CornerMaps {
  readonly #kv: Deno.Kv;

  /** Reads laps and stored maps from `deps.kv`. */
  constructor(deps: Pick<AppDeps, "kv">) {
    this.#kv = deps.kv;
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
    const stored = await getCornerMap(this.#kv, circuit);
    if (stored !== null) {
      const lap = await this.#lapOf(stored.lap_id, circuit);
      if (lap !== null && pathHash(lap.samples.pos_x, lap.samples.pos_z) === stored.lap_hash) {
        return stored.map;
      }
    }
    const best = await fastestOfCircuit(this.#kv, circuit);
    const lap = best && await this.#lapOf(best.lap_id, circuit);
    if (!lap || !lap.complete) return null;
    let map: CornerMap;
    try {
      map = cornerMapOfPath(lap.samples.pos_x, lap.samples.pos_z, true, config?.turns ?? null);
    } catch {
      return null; // a lap with no positions to speak of has no map
    }
    const lap_hash = pathHash(lap.samples.pos_x, lap.samples.pos_z);
    await putCornerMap(this.#kv, circuit, { lap_id: lap.id, lap_hash, map });
    return map;
  }

  /** Lap `id` when it is stored in a session of `circuit`, else null. */
  async #lapOf(id: number, circuit: string): Promise<Lap | null> {
    const lap = await getLap(this.#kv, id);
    if (!lap) return null;
    const session = await getSession(this.#kv, lap.session_id);
    return session && circuitOf(session.track_name) === circuit ? lap : null;
  }
}
