/**
 * Every word the coaching notes say, in one table, so the notes can be
 * translated by adding a table and nothing else. Figures arrive already
 * rounded and as text (the table decides nothing about numbers).
 *
 * @module
 */

/** What a cause of a note is: a figure against the reference, or an event of the lap. */
export type CauseKind =
  | "brake_earlier"
  | "brake_later"
  | "min_slower"
  | "min_faster"
  | "throttle_later"
  | "throttle_earlier"
  | "exit_slower"
  | "exit_faster"
  | "lockup"
  | "wheelspin"
  | "off_track"
  | "kerb";

/** The phrasing of notes and cues. A translation supplies one of these. */
export interface CoachingWords {
  /** A corner by its stable number. */
  turn(n: string): string;
  /** A corner with the name its bundle gives it. */
  named(turn: string, name: string): string;
  /** Time lost in a corner (seconds, already formatted). */
  lost(s: string): string;
  /** Time gained in a corner. */
  gained(s: string): string;
  /** Each cause; `v` is its figure formatted (metres or km/h), empty for an event. */
  causes: Record<CauseKind, (v: string) => string>;
  /** Between causes. */
  join: string;
  /** A whole note. */
  note(corner: string, time: string, causes: string): string;
  /** A whole note without a cause past its threshold. */
  bare(corner: string, time: string): string;
  /** What to do about a note's first cause, as a cue before the corner. */
  actions: Record<CauseKind, string>;
  /** The cue of a note without a cause. */
  watch: string;
  /** A cue. */
  cue(corner: string, action: string): string;
  /** The lap's total against the reference and the sum of the notes (seconds, signed, formatted). */
  summary(total: string, sum: string, count: number): string;
  /** What the notes cannot know when a lap carries no such pedal channel. */
  unknown: Record<"brake" | "throttle", string>;
  /** Between the summary and each thing the notes cannot know. */
  clause: string;
}

/** English, the notes' language today. */
export const ENGLISH: CoachingWords = {
  turn: (n) => `Turn ${n}`,
  named: (turn, name) => `${turn} (${name})`,
  lost: (s) => `${s} s lost`,
  gained: (s) => `${s} s gained`,
  causes: {
    brake_earlier: (v) => `braked ${v} m earlier`,
    brake_later: (v) => `braked ${v} m later`,
    min_slower: (v) => `${v} km/h less at the minimum`,
    min_faster: (v) => `${v} km/h more at the minimum`,
    throttle_later: (v) => `on the throttle ${v} m later`,
    throttle_earlier: (v) => `on the throttle ${v} m earlier`,
    exit_slower: (v) => `exit speed ${v} km/h lower`,
    exit_faster: (v) => `exit speed ${v} km/h higher`,
    lockup: () => "locked a wheel",
    wheelspin: () => "wheelspin",
    off_track: () => "went off the track",
    kerb: () => "hit the kerb",
  },
  join: ", ",
  note: (corner, time, causes) => `${corner}: ${time}: ${causes}`,
  bare: (corner, time) => `${corner}: ${time}`,
  actions: {
    brake_earlier: "brake later",
    brake_later: "brake earlier",
    min_slower: "carry more speed",
    min_faster: "slower in, faster out",
    throttle_later: "throttle earlier",
    throttle_earlier: "throttle later",
    exit_slower: "better exit",
    exit_faster: "brake earlier",
    lockup: "brake lighter",
    wheelspin: "gentler throttle",
    off_track: "stay on the road",
    kerb: "stay off the kerb",
  },
  watch: "watch this corner",
  cue: (corner, action) => `${corner}: ${action}`,
  summary: (total, sum, count) =>
    count === 0
      ? `Lap ${total} s against the reference; no corner past the threshold`
      : `Lap ${total} s against the reference; ${count} ${
        count === 1 ? "corner" : "corners"
      } noted, ${sum} s`,
  unknown: {
    brake: "no pedal data: braking points unknown",
    throttle: "no throttle data: throttle points unknown",
  },
  clause: "; ",
};
