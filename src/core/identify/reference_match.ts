/**
 * Naming a whole lap from the reference lines (the third kind of knowledge,
 * after the user's signatures and the surveyed bundles). The lap is followed
 * along every line at once (reference_follow.ts) and each line is judged
 * both ways round:
 * - the lap must stay on the line: at most {@linkcode OFF_ALLOW_M} of the
 *   lap further than NEAR_M from it (this tells look-alikes apart: Monza
 *   with and without its chicane, a longer layout on a shorter one's line);
 * - the lap must pass the whole line: at most {@linkcode missAllowance} of
 *   its recorded road missed (this tells a nested layout from the one
 *   around it, and refuses partial laps);
 * - the lap must visit the line in one order (the direction test).
 * A line that passes names its configuration when driven forward, and the
 * catalogue's reverse configuration when driven the other way round (none
 * when GT7 has no reverse of it). A name is given only when every line that
 * passes names the same configuration, or the same set of twins (layouts
 * GT7 gives the same length and turns and that drive the same road: those
 * name the circuit). When no line passes, a line that fits closely (at most
 * {@linkcode CLOSE_SHARE} of the lap off it and of its road missed: a
 * driver on their own line of a wide road) names the lap when it fits
 * clearly better than every line that would name anything else (by
 * {@linkcode MARGIN_M} and by half). Otherwise the lap stays unnamed and
 * the candidates are returned as suggestions. A wrong name is worse than
 * none.
 *
 * @module
 */
import type { OfficialConfiguration } from "../catalog/tracks.ts";
import type { ReferenceLine } from "../catalog/reference_lines.ts";
import { forwardShare, type TravelDirection, travelDirection } from "./direction.ts";
import { LineFollower } from "./reference_follow.ts";
import { defaultReferenceIndex, type ReferenceIndex } from "./reference_index.ts";

/** Most lap metres off a line (further than NEAR_M) for the line to fit. */
export const OFF_ALLOW_M = 60;
/**
 * Most metres of holes in a lap (positions more than 60 m apart) for it to
 * be named at all: this, or {@linkcode HOLE_ALLOW_SHARE} of the lap,
 * whichever is more. A hole is bridged on a line the lap comes back onto
 * (reference_follow.ts), and a longer one could hide where two layouts part.
 */
export const HOLE_ALLOW_M = 120;
/** See {@linkcode HOLE_ALLOW_M}. */
export const HOLE_ALLOW_SHARE = 0.05;
/**
 * A line fits closely when at most this share of the lap is off it (or
 * {@linkcode OFF_ALLOW_M}, whichever is more) and at most this share of its
 * recorded road is missed (or {@linkcode MISS_ALLOW_M}).
 */
export const CLOSE_SHARE = 0.05;
/**
 * A closely fitting line names the lap only when every line that would name
 * something else misfits by this many metres more (off plus missed) ...
 */
export const MARGIN_M = 150;
/** ... and by at least this many times as much. */
export const MARGIN_RATIO = 2;

/** The metres of holes a lap of `lap_m` followed metres may have and still be named. */
export function holeAllowance(lap_m: number): number {
  return Math.max(HOLE_ALLOW_M, HOLE_ALLOW_SHARE * lap_m);
}
/** Most recorded metres of a line a lap may miss: this, ... */
export const MISS_ALLOW_M = 100;
/** ... or this share of the line's recorded metres, whichever is larger. */
export const MISS_ALLOW_SHARE = 0.025;

/** The recorded metres of `line` a whole lap may leave unpassed. */
export function missAllowance(recorded_m: number): number {
  return Math.max(MISS_ALLOW_M, MISS_ALLOW_SHARE * recorded_m);
}

/** Positions the matcher reads: world x and z, parallel arrays (a lap's samples). */
export interface LapPositions {
  readonly pos_x: ArrayLike<number>;
  readonly pos_z: ArrayLike<number>;
}

/** A name given from the reference lines. */
export interface ReferenceMatch {
  /**
   * The name for the session: the configuration's official name, or the
   * circuit's name when twins (configurations that drive the same road)
   * cannot be told apart.
   */
  name: string;
  /** The circuit. */
  track: string;
  /** The configuration, or null when it is one of `twins` and cannot be told apart. */
  configuration: OfficialConfiguration | null;
  /** Every configuration the name covers (just `configuration` unless twins). */
  configurations: OfficialConfiguration[];
  /** Whether the lap drove the reference line the way it was recorded or the other way round. */
  direction: "forward" | "reverse";
}

/** How one reference line scored against the lap, and what was decided about it. */
export interface ReferenceCandidate {
  /** The configuration the line was recorded on. */
  official_id: string;
  official_name: string;
  /**
   * What the line names the lap when it fits, given the direction driven:
   * the name and the configurations it covers; null when nothing (a line
   * driven backwards that GT7 has no reverse of, or no direction yet).
   */
  names: { name: string; official_ids: string[] } | null;
  /**
   * How far from the line a position is on it: its road's half-width plus
   * a margin (see road_widths.ts), metres.
   */
  near_m: number;
  /** Lap metres within near_m of the line, and their share of the lap. */
  on_m: number;
  near_share: number;
  /** Lap metres further than near_m from the line. */
  off_m: number;
  /** Recorded metres of the line the lap passed, and their share. */
  covered_m: number;
  covered_share: number;
  /** Recorded metres of the line the lap did not pass. */
  missed_m: number;
  /** The direction test over the line, and the share of progress in the line's order. */
  direction: TravelDirection;
  forward_share: number;
  /**
   * How far the line is from fitting: the larger of off_m over its allowance
   * and missed_m over its allowance (at most 1 on both counts to fit).
   */
  misfit: number;
  /** True when the line fits the lap (the three tests pass). */
  fits: boolean;
  /**
   * True when it fits closely (see {@linkcode CLOSE_SHARE}) and goes round
   * one way, naming something: it may name the lap by margin when no line fits.
   */
  close: boolean;
  /** Why the line fits or does not, in words. */
  reason: string;
}

/** The verdict of {@linkcode matchReferenceLines}: a name or none, and why. */
export interface ReferenceVerdict {
  /** The name, or null when no line fits or the fitting lines disagree. */
  match: ReferenceMatch | null;
  /** Configurations to offer a person when the lap is not named (or named by circuit). */
  suggestions: OfficialConfiguration[];
  /** Why the lap was or was not named. */
  reason: string;
  /** Lap metres followed, and straight-line metres of its holes (unseen stretches). */
  lap_m: number;
  hole_m: number;
  /**
   * How much better the best line fits than the best line naming anything
   * else, in metres of off plus missed; null when the lap comes near no
   * line, or near none that would name anything else.
   */
  margin_m: number | null;
  /** Every reference line, those that fit first, then by how closely they fit. */
  candidates: ReferenceCandidate[];
}

/** What a fitting line names, keyed so that twins and repeats group together. */
export interface ReferenceNaming {
  /** The sorted official ids, joined: equal keys name the same thing. */
  key: string;
  configurations: OfficialConfiguration[];
  direction: "forward" | "reverse";
}

/**
 * What line `line` names when driven in `direction`: its configuration and
 * its twins forward; the catalogue's reverse configuration of its layout the
 * other way round; null when GT7 has no reverse of it.
 */
export function namingOf(
  line: ReferenceLine,
  direction: "forward" | "reverse",
): ReferenceNaming | null {
  let configurations: OfficialConfiguration[];
  if (direction === "forward") configurations = [line.configuration, ...line.twins];
  else {
    if (line.reverse === null) return null;
    configurations = [line.reverse];
  }
  const ids = configurations.map((c) => c.official_id).sort();
  return { key: ids.join("+"), configurations, direction };
}

/** The match a group of equally named lines gives. */
export function matchOf(naming: ReferenceNaming): ReferenceMatch {
  const configurations = [...naming.configurations].sort((a, b) =>
    a.official_id < b.official_id ? -1 : 1
  );
  const one = configurations.length === 1 ? configurations[0] : null;
  return {
    name: one !== null ? one.official_name : configurations[0].track,
    track: configurations[0].track,
    configuration: one,
    configurations,
    direction: naming.direction,
  };
}

/** What a line names each way round, and as candidates show it: pure, so worked out once. */
interface LineNaming {
  naming: ReferenceNaming | null;
  names: ReferenceCandidate["names"];
}
const lineNamings = new WeakMap<ReferenceLine, Map<string, LineNaming>>();

function namingEntry(line: ReferenceLine, direction: "forward" | "reverse"): LineNaming {
  let byDirection = lineNamings.get(line);
  if (byDirection === undefined) lineNamings.set(line, byDirection = new Map());
  let entry = byDirection.get(direction);
  if (entry === undefined) {
    const naming = namingOf(line, direction);
    const match = naming && matchOf(naming);
    entry = {
      naming,
      names: match && {
        name: match.name,
        official_ids: match.configurations.map((x) => x.official_id),
      },
    };
    byDirection.set(direction, entry);
  }
  return entry;
}

/** {@linkcode namingOf}, worked out once per line and direction (read-only: shared). */
function lineNaming(line: ReferenceLine, direction: "forward" | "reverse"): ReferenceNaming | null {
  return namingEntry(line, direction).naming;
}

function namesOf(line: ReferenceLine, naming: ReferenceNaming): ReferenceCandidate["names"] {
  const names = namingEntry(line, naming.direction).names;
  // A copy: a caller may change the verdict it is given.
  return names && { name: names.name, official_ids: [...names.official_ids] };
}

const followers = new WeakMap<ReferenceIndex, LineFollower>();

/**
 * Follows the lap's positions along every line of `index` and returns the
 * per-line tallies (valid until the next call). Positions are read in
 * order; non-finite ones are skipped.
 */
function followLap(lap: LapPositions, index: ReferenceIndex): LineFollower {
  // One follower per index, reset for each lap: its arrays are large and the matcher is not
  // re-entered while it runs.
  let follower = followers.get(index);
  if (follower === undefined) {
    follower = new LineFollower(index);
    followers.set(index, follower);
  } else follower.reset();
  const n = Math.min(lap.pos_x.length, lap.pos_z.length);
  for (let i = 0; i < n; i++) follower.push(lap.pos_x[i], lap.pos_z[i]);
  return follower;
}

/**
 * Judges line number `k` of the follower's index against the lap it
 * followed: the scores, whether it fits and why.
 */
function judgeLine(follower: LineFollower, k: number): ReferenceCandidate {
  const index = follower.index;
  const line = index.lines[k];
  const total = follower.total_m;
  const on = follower.on_m[k];
  const recorded = index.recordedM[k];
  const covered = follower.covered_m[k];
  const off = Math.max(0, total - on);
  const missed = Math.max(0, recorded - covered);
  const tally = { with_m: follower.with_m[k], against_m: follower.against_m[k] };
  const direction = travelDirection(tally);
  const naming = direction === "forward" || direction === "reverse"
    ? lineNaming(line, direction)
    : null;
  const allowed = missAllowance(recorded);
  const c = line.configuration;
  let reason: string;
  let fits = false;
  const near = index.nearM[k];
  if (on === 0) reason = `the lap never comes within ${m(near)} of the line`;
  else if (off > OFF_ALLOW_M) {
    reason = `${m(off)} of the lap is off the line (at most ${OFF_ALLOW_M} m may be)`;
  } else if (missed > allowed) {
    reason = `the lap misses ${m(missed)} of the line (at most ${m(allowed)} may be missed)`;
  } else if (direction === "mixed" || direction === "unknown") {
    reason = `the lap does not go round the line one way (${pct(forwardShare(tally))} forward)`;
  } else if (naming === null) {
    fits = true;
    reason = `fits, driven the other way round; GT7 has no reverse layout of ${c.official_name}`;
  } else {
    fits = true;
    reason = direction === "forward"
      ? `fits, driven the way it was recorded`
      : `fits, driven the other way round: ${naming.configurations[0].official_name}`;
  }
  const close = on > 0 && naming !== null && off <= Math.max(OFF_ALLOW_M, CLOSE_SHARE * total) &&
    missed <= Math.max(MISS_ALLOW_M, CLOSE_SHARE * recorded);
  return {
    official_id: c.official_id,
    official_name: c.official_name,
    near_m: round1(near),
    names: naming === null ? null : namesOf(line, naming),
    on_m: round1(on),
    near_share: total > 0 ? round4(on / total) : 0,
    off_m: round1(off),
    covered_m: round1(covered),
    covered_share: recorded > 0 ? round4(covered / recorded) : 0,
    missed_m: round1(missed),
    direction,
    forward_share: round4(forwardShare(tally)),
    misfit: round4(Math.max(off / OFF_ALLOW_M, missed / allowed)),
    fits,
    close,
    reason,
  };
}

/**
 * Names the lap from the reference lines of `index` (by default every line
 * the project ships). The lap is named only when every line that fits it
 * names the same configuration (or the same twins, which name the circuit);
 * otherwise `match` is null and `suggestions` lists what fitted. Never
 * throws on odd input: a lap with no usable position simply fits nothing.
 * Costs one spatial look-up per 4 m of lap.
 */
export function matchReferenceLines(
  lap: LapPositions,
  index: ReferenceIndex = defaultReferenceIndex(),
): ReferenceVerdict {
  const follower = followLap(lap, index);
  const candidates = index.lines.map((_, k) => judgeLine(follower, k));
  const fitting = candidates.filter((c) => c.fits);
  candidates.sort((a, b) =>
    Number(b.fits) - Number(a.fits) || a.misfit - b.misfit ||
    (a.official_id < b.official_id ? -1 : 1)
  );
  const lap_m = round1(follower.total_m);
  const hole_m = round1(follower.hole_m);
  const holesAllowed = holeAllowance(follower.total_m + follower.hole_m);
  const margin = marginOf(candidates);
  const margin_m = margin === null || !Number.isFinite(margin.margin)
    ? null
    : round1(margin.margin);
  const groups = new Map<string, ReferenceNaming>();
  let backwards = 0;
  for (const c of fitting) {
    const k = index.lines.findIndex((l) => l.configuration.official_id === c.official_id);
    const naming = namingOf(index.lines[k], c.direction as "forward" | "reverse");
    if (naming === null) backwards++;
    else groups.set(naming.key, naming);
  }
  const suggestions = [...groups.values()].flatMap((g) => g.configurations);
  if (follower.hole_m > holesAllowed && (fitting.length > 0 || margin?.best.close)) {
    return {
      match: null,
      suggestions: fitting.length > 0 ? suggestions : [],
      reason: `${m(hole_m)} of the lap went unseen (positions more than 60 m apart); ` +
        `at most ${m(holesAllowed)} may be`,
      lap_m,
      hole_m,
      margin_m,
      candidates,
    };
  }
  if (fitting.length === 0) {
    const best = margin?.best;
    if (best && best.close && best.names && margin.clear) {
      const k = index.lines.findIndex((l) => l.configuration.official_id === best.official_id);
      const naming = namingOf(index.lines[k], best.direction as "forward" | "reverse")!;
      const match = matchOf(naming);
      const runner = margin.runner_up;
      return {
        match,
        suggestions: match.configuration === null ? match.configurations : [],
        reason: `named ${match.name} by margin: its line fits closely (${m(best.off_m)} off, ` +
          `${m(best.missed_m)} missed) and ${
            runner === null
              ? "no line naming anything else comes near"
              : `${m(margin.margin)} better than the next, ${runner.official_name}`
          }`,
        lap_m,
        hole_m,
        margin_m,
        candidates,
      };
    }
    const closest = candidates[0];
    const reason = closest === undefined || closest.on_m === 0
      ? "no reference line passes near the lap"
      : `no reference line fits the lap; closest: ${closest.official_name} (${closest.reason})` +
        (best?.close && !margin?.clear
          ? `; it fits closely but not clearly better than ${margin!.runner_up!.official_name}`
          : "");
    return { match: null, suggestions: [], reason, lap_m, hole_m, margin_m, candidates };
  }
  if (groups.size === 1 && backwards === 0) {
    const match = matchOf([...groups.values()][0]);
    const reason = match.configuration !== null
      ? `named ${match.name}: the only configuration whose reference line fits the lap`
      : `named by its circuit: ${match.configurations.map((c) => c.official_name).join(" and ")} ` +
        `drive the same road`;
    return {
      match,
      suggestions: match.configuration === null ? match.configurations : [],
      reason,
      lap_m,
      hole_m,
      margin_m,
      candidates,
    };
  }
  if (groups.size === 0) {
    return {
      match: null,
      suggestions: [],
      reason: `the lap fits ${fitting.map((c) => c.official_name).join(" and ")} driven the ` +
        `other way round, which GT7 does not have`,
      lap_m,
      hole_m,
      margin_m,
      candidates,
    };
  }
  return {
    match: null,
    suggestions,
    reason: `${fitting.length} reference lines fit the lap and name different configurations: ` +
      fitting.map((c) => c.names?.name ?? `${c.official_name} backwards`).join(", "),
    lap_m,
    hole_m,
    margin_m,
    candidates,
  };
}

/** Off plus missed metres: how far a line is from fitting the lap. */
function misfitM(c: ReferenceCandidate): number {
  return c.off_m + c.missed_m;
}

/** What a candidate names, as a key (null: nothing). */
function nameKey(c: ReferenceCandidate): string | null {
  return c.names === null ? null : c.names.official_ids.join("+");
}

/**
 * The line that fits best (least off plus missed, among those the lap came
 * near), the best line that would name anything else (or nothing), the
 * margin between them in metres, and whether it is clear (see
 * {@linkcode MARGIN_M}); null when the lap came near no line.
 */
function marginOf(candidates: readonly ReferenceCandidate[]): {
  best: ReferenceCandidate;
  runner_up: ReferenceCandidate | null;
  margin: number;
  clear: boolean;
} | null {
  const near = candidates.filter((c) => c.on_m > 0);
  if (near.length === 0) return null;
  const best = near.reduce((a, c) => (misfitM(c) < misfitM(a) ? c : a));
  const key = nameKey(best);
  const others = key === null
    ? near.filter((c) => c !== best)
    : near.filter((c) => c !== best && (c.names === null || nameKey(c) !== key));
  const runner_up = others.length === 0
    ? null
    : others.reduce((a, c) => (misfitM(c) < misfitM(a) ? c : a));
  const b = misfitM(best);
  // A line the lap never came near is as far from fitting as the lap is long.
  const r = runner_up === null ? Infinity : misfitM(runner_up);
  return {
    best,
    runner_up,
    margin: r - b,
    clear: r >= b + MARGIN_M && r >= MARGIN_RATIO * b,
  };
}

function m(v: number): string {
  return `${Math.round(v)} m`;
}

function pct(share: number): string {
  return `${(share * 100).toFixed(0)} %`;
}

function round1(v: number): number {
  return Math.round(v * 10) / 10;
}

function round4(v: number): number {
  return Math.round(v * 10000) / 10000;
}
