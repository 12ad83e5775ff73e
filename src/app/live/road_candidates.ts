/**
 * The gap while live naming still hesitates between layouts whose roads
 * agree so far (Suzuka's full circuit and East course share their first
 * 2 km): each candidate layout's best lap is followed as a road, and the
 * gap runs against one whose path the car is on. A road whose path the car
 * has left for more than OFF_ALLOW_M of this lap (the allowance the
 * reference lines' matcher gives a line) is out until the next lap, so the
 * gap never runs against a lap of another road, even where that road
 * comes back near this one. The road picked stays picked while the car is
 * on it, so the gap does not jump between laps of the same road; a new
 * pick is the fastest lap the car is on.
 *
 * @module
 */
import { deltaToTrace } from "../../core/analysis/live_delta.ts";
import { OFF_ALLOW_M } from "../../core/identify/reference_match.ts";
import type { LiveReference } from "./live_reference.ts";

/** The gap to a road's lap, and where on it the car was matched. */
export interface RoadGap {
  ref: LiveReference;
  deltaMs: number;
  /** The reference sample nearest the car. */
  index: number;
}

interface Road {
  ref: LiveReference;
  hint: number | null;
  /** Metres of this lap driven off the road's path. */
  offM: number;
}

/** The roads of one lap, followed frame by frame. */
export class RoadCandidates {
  #roads = new Map<string, Road>();
  #pick: Road | null = null;

  /** Starts a new lap: every road stands again, none picked. */
  restart(): void {
    this.#roads.clear();
    this.#pick = null;
  }

  /** The road picked this lap and still standing, or null. */
  get picked(): LiveReference | null {
    return this.#pick?.ref ?? null;
  }

  /** The matched sample on reference `key` as of the last frame, for a gap that moves onto it. */
  hintOf(key: string): number | null {
    return this.#roads.get(key)?.hint ?? null;
  }

  /**
   * The gap for a car at (`x`, `z`), `clockMs` and `distanceM` into its
   * lap, `movedM` metres on since the last frame, to the road it is on
   * among `refs` (the picked road alone when null). Null when it is on none.
   * A road first looked at mid-lap (its lap was read meanwhile) is searched
   * from the car's distance, not its clock: a car seconds slower than the
   * reference is behind where the reference's clock would look.
   */
  measure(
    refs: readonly LiveReference[] | null,
    car: { x: number; z: number; clockMs: number; distanceM: number; movedM: number },
  ): RoadGap | null {
    const { x, z, clockMs, movedM } = car;
    const list = refs ?? (this.#pick ? [this.#pick.ref] : []);
    let pickGap: RoadGap | null = null;
    let best: { road: Road; gap: RoadGap } | null = null;
    for (const ref of list) {
      let road = this.#roads.get(ref.key);
      if (road === undefined) {
        road = { ref, hint: null, offM: 0 };
        this.#roads.set(ref.key, road);
      }
      if (road.offM > OFF_ALLOW_M) continue;
      const hint = road.hint ??
        (car.distanceM > 0 ? indexAtDistance(ref.dist, car.distanceM) : null);
      const d = deltaToTrace(ref.path, x, z, clockMs, hint);
      if (d === null) {
        road.offM += movedM;
        continue;
      }
      road.hint = d.index;
      const gap = { ref, deltaMs: d.deltaMs, index: d.index };
      if (road === this.#pick) pickGap = gap;
      if (best === null || ref.timeMs < best.road.ref.timeMs) best = { road, gap };
    }
    const pick = this.#pick;
    // A moment off the picked road's line is no reason to change laps: no gap until it is back.
    if (pick !== null && pick.offM <= OFF_ALLOW_M && list.includes(pick.ref)) return pickGap;
    this.#pick = best?.road ?? null;
    return best?.gap ?? null;
  }
}

/** The first sample at or past `m` metres (the last one when the lap is shorter). */
function indexAtDistance(dist: ArrayLike<number>, m: number): number {
  let lo = 0;
  let hi = dist.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (dist[mid] < m) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
