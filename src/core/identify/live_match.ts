/**
 * Naming a session while its lap is driven: every reference line, each way
 * round, starts as a candidate, and positions eliminate candidates as they
 * arrive (a candidate drops out for good once more than OFF_ALLOW_M of the
 * lap has been off its line, or once the lap has gone WRONG_WAY_M further
 * against its direction than with it). The configuration is named as soon
 * as every candidate still standing names it (the same configuration, or
 * the same twins, which name the circuit), at least LIVE_MIN_M have been
 * driven and at least LIVE_MIN_COVER of its line has been passed. A nested
 * layout that could still turn off stays a candidate until it does, so it
 * blocks the name until then; a candidate that names nothing (a line driven
 * backwards that GT7 has no reverse of) blocks it for good.
 *
 * Feed it the positions of one lap: call {@linkcode LiveReferenceMatcher.reset}
 * when a lap starts (a pit lane or an out-lap leaves every line and would
 * eliminate every candidate). The elimination rules are the whole-lap
 * matcher's, so a candidate dropped live also fails the whole lap.
 *
 * @module
 */
import { LineFollower } from "./reference_follow.ts";
import { defaultReferenceIndex, type ReferenceIndex } from "./reference_index.ts";
import {
  matchOf,
  namingOf,
  OFF_ALLOW_M,
  type ReferenceMatch,
  type ReferenceNaming,
} from "./reference_match.ts";

/** Least metres driven since the lap began before a name is given. */
export const LIVE_MIN_M = 400;
/** Least share of the named line's recorded road passed before a name is given. */
export const LIVE_MIN_COVER = 0.2;
/** Net metres driven against a candidate's direction that eliminate it. */
export const WRONG_WAY_M = 30;
/** Names are looked for only once this few candidates remain (each names one thing or none). */
const MAX_NAMING_CANDIDATES = 8;

/** Why a candidate was eliminated. */
export type Elimination = "off the line" | "wrong way";

/** One candidate: a reference line driven one way round, and its state. */
export interface LiveCandidate {
  official_id: string;
  official_name: string;
  direction: "forward" | "reverse";
  /** Null while it stands; otherwise why it fell and after how many metres of the lap. */
  eliminated: { why: Elimination; at_m: number } | null;
}

/** A name a standing candidate would give, and the track (circuit) it is a layout of. */
export interface StandingName {
  name: string;
  track: string;
}

/** Eliminates candidates point by point and names the configuration once it is certain. */
export class LiveReferenceMatcher {
  readonly index: ReferenceIndex;
  readonly #follower: LineFollower;
  readonly #standing: Int32Array;
  #count = 0;
  readonly #why: Uint8Array;
  readonly #at: Float64Array;
  #match: ReferenceMatch | null = null;

  /** A matcher over `index` (by default every reference line the project ships). */
  constructor(index: ReferenceIndex = defaultReferenceIndex()) {
    this.index = index;
    this.#follower = new LineFollower(index);
    const candidates = 2 * index.lines.length;
    this.#standing = new Int32Array(candidates);
    this.#why = new Uint8Array(candidates);
    this.#at = new Float64Array(candidates);
    this.reset();
  }

  /** Starts a new lap: every candidate stands again and no name is held. */
  reset(): void {
    this.#follower.reset();
    this.#count = this.#standing.length;
    for (let c = 0; c < this.#count; c++) this.#standing[c] = c;
    this.#why.fill(0);
    this.#at.fill(0);
    this.#match = null;
  }

  /**
   * Takes the car's next position (world x and z, metres). Returns the name
   * once it is decided, and from then on until {@linkcode reset}; null
   * before. Positions under 4 m from the last one looked at cost one
   * distance check.
   */
  push(x: number, z: number): ReferenceMatch | null {
    if (this.#follower.push(x, z) > 0 && this.#count > 0) this.#judge();
    return this.#match;
  }

  /** The name decided for this lap, or null. */
  get match(): ReferenceMatch | null {
    return this.#match;
  }

  /** Metres of the lap followed since the last reset. */
  get driven_m(): number {
    return this.#follower.total_m;
  }

  /** Number of candidates still standing. */
  get standing(): number {
    return this.#count;
  }

  /**
   * The names the standing candidates would give the lap, each once, in the
   * index's order (a candidate naming nothing gives none): while the lap
   * hesitates between layouts whose roads agree so far, the circuits whose
   * road it may be. Allocates; ask again only when {@linkcode standing} moved.
   */
  standingNames(): StandingName[] {
    const names = new Map<string, StandingName>();
    for (let k = 0; k < this.#count; k++) {
      const c = this.#standing[k];
      const n = namingOf(this.index.lines[c >> 1], (c & 1) === 0 ? "forward" : "reverse");
      if (n === null) continue;
      const { name, track } = matchOf(n);
      if (!names.has(name)) names.set(name, { name, track });
    }
    return [...names.values()];
  }

  /** Every candidate with its state, standing ones first, in the index's order. */
  candidates(): LiveCandidate[] {
    const out: LiveCandidate[] = [];
    for (let c = 0; c < 2 * this.index.lines.length; c++) {
      const line = this.index.lines[c >> 1];
      const why = this.#why[c];
      out.push({
        official_id: line.configuration.official_id,
        official_name: line.configuration.official_name,
        direction: c % 2 === 0 ? "forward" : "reverse",
        eliminated: why === 0
          ? null
          : { why: why === 1 ? "off the line" : "wrong way", at_m: round1(this.#at[c]) },
      });
    }
    return out.sort((a, b) => Number(a.eliminated !== null) - Number(b.eliminated !== null));
  }

  #judge(): void {
    const f = this.#follower;
    const total = f.total_m;
    const standing = this.#standing;
    let kept = 0;
    for (let k = 0; k < this.#count; k++) {
      const c = standing[k];
      const line = c >> 1;
      let why = 0;
      if (total - f.on_m[line] > OFF_ALLOW_M) why = 1;
      else {
        const net = f.with_m[line] - f.against_m[line];
        if ((c & 1) === 0 ? -net > WRONG_WAY_M : net > WRONG_WAY_M) why = 2;
      }
      if (why === 0) standing[kept++] = c;
      else {
        this.#why[c] = why;
        this.#at[c] = total;
      }
    }
    this.#count = kept;
    if (this.#match === null && kept > 0 && kept <= MAX_NAMING_CANDIDATES && total >= LIVE_MIN_M) {
      this.#match = this.#decide();
    }
  }

  /** The name every standing candidate agrees on, or null. */
  #decide(): ReferenceMatch | null {
    const f = this.#follower;
    let key: string | null = null;
    let naming: ReferenceNaming | null = null;
    for (let k = 0; k < this.#count; k++) {
      const c = this.#standing[k];
      const line = c >> 1;
      const n = namingOf(this.index.lines[line], (c & 1) === 0 ? "forward" : "reverse");
      if (n === null || (key !== null && n.key !== key)) return null;
      if (f.covered_m[line] < LIVE_MIN_COVER * this.index.recordedM[line]) return null;
      key = n.key;
      naming = n;
    }
    return naming === null ? null : matchOf(naming);
  }
}

function round1(v: number): number {
  return Math.round(v * 10) / 10;
}
