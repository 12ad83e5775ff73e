/**
 * Naming the live session while its lap is driven, from the reference lines:
 * every frame's position goes to a `LiveReferenceMatcher`, reset at each lap
 * start (an out-lap from the pits leaves every line), and the session is
 * named as soon as exactly one configuration remains. Only an unnamed
 * session is followed: once it has a name, by this or anything else, frames
 * cost one comparison. While a labelled survey runs the driver has said
 * which circuit this is, and nothing is matched.
 *
 * The index of reference lines is built on first need, a couple of
 * milliseconds of steps per frame, so the first frames of a drive never
 * hold the event loop for the whole build.
 *
 * An import names its sessions by the same matcher, fed each stored lap's
 * positions as they were driven ({@linkcode matchLapPositions}), so a lap
 * named live is named imported, and one live naming would leave unnamed
 * stays unnamed.
 *
 * @module
 */
import type { Frame } from "../../core/gt7/frame.ts";
import { LiveReferenceMatcher, type StandingName } from "../../core/identify/live_match.ts";
import type { ReferenceMatch } from "../../core/identify/reference_match.ts";
import {
  type ReferenceIndex,
  stepDefaultReferenceIndex,
} from "../../core/identify/reference_index.ts";
import type { LiveService } from "./live.ts";
import type { SurveyService } from "../survey/survey.ts";

/** Most milliseconds of index building done on one frame. */
export const WARM_BUDGET_MS = 2;

/** What live naming reads and calls. */
export interface LiveNamingServices {
  live: Pick<LiveService, "tap" | "session" | "epoch">;
  /** A labelled survey (a slug) means the driver named the circuit. */
  survey: Pick<SurveyService, "slug">;
  /** Names the live session after `match` (only if it is still unnamed then). */
  name(match: ReferenceMatch): Promise<void>;
}

/**
 * The reference index after at most `budgetMs` more of building it in
 * steps, or null while it is not built yet.
 */
export function warmDefaultIndex(budgetMs: number): ReferenceIndex | null {
  const until = performance.now() + budgetMs;
  for (;;) {
    const index = stepDefaultReferenceIndex();
    if (index !== null || performance.now() >= until) return index;
  }
}

/**
 * What live naming would have named during a lap whose positions are
 * `pos_x` and `pos_z`, in the order driven: the same matcher, reset at the
 * lap's start and fed every position. Null when no configuration is
 * certain by the lap's end (live naming leaves such a lap unnamed).
 */
export function matchLapPositions(
  index: ReferenceIndex,
  lap: { readonly pos_x: ArrayLike<number>; readonly pos_z: ArrayLike<number> },
): ReferenceMatch | null {
  const matcher = new LiveReferenceMatcher(index);
  const n = Math.min(lap.pos_x.length, lap.pos_z.length);
  for (let i = 0; i < n; i++) {
    const match = matcher.push(lap.pos_x[i], lap.pos_z[i]);
    if (match !== null) return match;
  }
  return null;
}

/** Follows the live frames and names an unnamed session mid-lap. */
export class LiveNaming {
  readonly #services: LiveNamingServices;
  readonly #index: ReferenceIndex | null;
  #matcher: LiveReferenceMatcher | null = null;
  #lap = Number.NaN;
  #epoch = -1;
  /** A frame was skipped since the matcher was last fed: restart it before the next. */
  #stale = true;
  /** The matcher named this lap: nothing more to do until it restarts. */
  #matched = false;
  /** The standing names, kept while the number of standing candidates stays the same. */
  #names: { matcher: number; standing: number; names: readonly StandingName[] } | null = null;
  /** Counts the matcher's restarts, so kept names never outlive the lap they were for. */
  #restarts = 0;

  /**
   * Live naming over `index`, or over every line the project ships (built
   * on first need) when null.
   */
  constructor(services: LiveNamingServices, index: ReferenceIndex | null = null) {
    this.#services = services;
    this.#index = index;
  }

  /** Starts following the live frames; returns the function that stops it. */
  watch(): () => void {
    return this.#services.live.tap((frame) => this.frame(frame));
  }

  /** Takes one live frame. Never throws; never waits. */
  frame(frame: Frame): void {
    const { live, survey } = this.#services;
    const session = live.session;
    if ((session !== null && session.track_name !== "") || survey.slug !== null) {
      this.#stale = true;
      return;
    }
    const matcher = this.#matcher ?? this.#build();
    if (matcher === null) {
      this.#stale = true;
      return;
    }
    if (this.#stale || frame.currentLap !== this.#lap || live.epoch !== this.#epoch) {
      matcher.reset();
      this.#restarts++;
      this.#lap = frame.currentLap;
      this.#epoch = live.epoch;
      this.#stale = false;
      this.#matched = false;
    }
    if (this.#matched) return;
    const match = matcher.push(frame.posX, frame.posZ);
    if (match === null) return;
    this.#matched = true;
    // The service logs a failure; a lap end can still name the session.
    this.#services.name(match).catch(() => {});
  }

  /**
   * While an unnamed session's lap `frame` belongs to is followed, the
   * names of the layouts whose road the lap may still be (see
   * {@linkcode LiveReferenceMatcher.standingNames}), as of the frames fed
   * before `frame`; null when this lap is not followed (a named session, a
   * labelled survey, the index not built yet, another lap or session).
   * Cheap: the names are worked out again only when candidates fell.
   */
  candidates(frame: Frame): readonly StandingName[] | null {
    const matcher = this.#matcher;
    if (
      matcher === null || this.#stale || frame.currentLap !== this.#lap ||
      this.#services.live.epoch !== this.#epoch
    ) return null;
    const kept = this.#names;
    if (kept?.matcher === this.#restarts && kept.standing === matcher.standing) return kept.names;
    const names = matcher.standingNames();
    this.#names = { matcher: this.#restarts, standing: matcher.standing, names };
    return names;
  }

  #build(): LiveReferenceMatcher | null {
    const index = this.#index ?? warmDefaultIndex(WARM_BUDGET_MS);
    if (index === null) return null;
    this.#matcher = new LiveReferenceMatcher(index);
    return this.#matcher;
  }
}
