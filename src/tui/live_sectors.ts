/**
 * Live sector splits, timed from the live frames: a sector's split is the
 * lap clock when the car entered the next sector less the clock when it
 * entered this one (every frame is seen, so a split is exact to a packet);
 * sector 1 always starts at clock 0, since the lap clock counts from the
 * line, so it is timed even when the frames carried no sector yet at the
 * line (the first lap after a reference exists: the reference is read while
 * that lap is already under way) or began in the previous lap's last sector.
 * The last sector of a lap is closed by the stored lap's time. Each split is
 * compared with the personal best through that sector.
 *
 * @module
 */
import type { LiveFrame } from "../app/live/live_frame.ts";

/** How a split compares with the personal best through its sector. */
export type SplitPace = "faster" | "slower" | null;

/** One sector as shown. */
export interface SectorSplit {
  /** 1-based sector number. */
  n: number;
  /** The split, ms; null while not driven (or joined mid-sector). */
  ms: number | null;
  /** The personal best through the sector, ms; null when unknown. */
  bestMs: number | null;
  /** `faster` at or under the best, `slower` over it; null without both. */
  pace: SplitPace;
  /** True for the sector the car is in. */
  current: boolean;
}

/** The splits the view shows: the lap they belong to and each sector. */
export interface SectorRow {
  /** The lap the splits are of. */
  lap: number;
  /** True when they are the previous lap's (the current one has no split yet). */
  previous: boolean;
  sectors: SectorSplit[];
}

/** A lap's splits while it is driven, indexed by sector - 1. */
interface LapSplits {
  lap: number;
  splits: (number | null)[];
  /** The sector the car is in and the clock when it entered (NaN: joined mid-sector). */
  sector: number | null;
  entryMs: number;
}

/** Follows the frames and closes laps with their stored times. */
export class SectorClock {
  #now: LapSplits | null = null;
  #previous: LapSplits | null = null;
  /** The newest stored lap's number and time, in case it is announced first. */
  #stored: { lap: number; timeMs: number } | null = null;

  /** Takes one frame: a change of sector closes the sector left, a new lap starts afresh. */
  frame(f: Pick<LiveFrame, "lap" | "sector" | "lap_clock_ms">): void {
    const now = this.#now;
    if (f.lap < 1 || f.sector === null) {
      if (now && now.lap !== f.lap) this.#now = null;
      return;
    }
    if (!now || now.lap !== f.lap) {
      if (now && f.lap === now.lap + 1) {
        this.#previous = now;
        this.#closeLast();
      } else {
        this.#previous = null;
      }
      this.#now = { lap: f.lap, splits: [], sector: f.sector, entryMs: entryOf(f, false) };
      return;
    }
    if (f.sector === now.sector) return;
    const from = now.sector;
    const onward = from !== null && f.sector === from + 1;
    if (onward && Number.isFinite(now.entryMs)) {
      now.splits[from - 1] = Math.max(0, f.lap_clock_ms - now.entryMs);
    }
    now.sector = f.sector;
    now.entryMs = entryOf(f, onward);
  }

  /** A lap was stored: its time closes its last sector. */
  lapStored(lap: number, timeMs: number): void {
    this.#stored = { lap, timeMs };
    this.#closeLast();
  }

  /**
   * The splits to show against `bestMs` (the personal best per sector,
   * indexed by sector - 1): the current lap's, or the previous lap's while
   * the current one has none; null before any lap with sectors.
   */
  row(bestMs: readonly (number | null)[]): SectorRow | null {
    const now = this.#now;
    if (!now) return null;
    // The previous lap stands in only while it has something to show: a row of dashes would
    // hide the sector the car is in.
    const prev = this.#previous;
    const shown = !hasSplit(now) && prev && hasSplit(prev) ? prev : now;
    const count = Math.max(bestMs.length, shown.splits.length, now.sector ?? 0);
    const sectors: SectorSplit[] = [];
    for (let k = 0; k < count; k++) {
      const ms = shown.splits[k] ?? null;
      const best = bestMs[k] ?? null;
      sectors.push({
        n: k + 1,
        ms,
        bestMs: best,
        pace: ms === null || best === null ? null : ms <= best ? "faster" : "slower",
        current: shown === now && now.sector === k + 1,
      });
    }
    return { lap: shown.lap, previous: shown !== now, sectors };
  }

  /** Closes the previous lap's last sector once its stored time is known. */
  #closeLast(): void {
    const prev = this.#previous;
    const stored = this.#stored;
    if (!prev || !stored || stored.lap !== prev.lap || prev.sector === null) return;
    if (!Number.isFinite(prev.entryMs)) return;
    prev.splits[prev.sector - 1] ??= Math.max(0, stored.timeMs - prev.entryMs);
  }
}

/**
 * The clock at which the car entered `f.sector`: 0 for sector 1 (the lap
 * clock counts from the line), the clock now when it came on from the
 * sector before, else unknown (NaN: entered sideways, or first seen there).
 */
function entryOf(f: Pick<LiveFrame, "sector" | "lap_clock_ms">, onward: boolean): number {
  if (f.sector === 1) return 0;
  return onward ? f.lap_clock_ms : NaN;
}

function hasSplit(lap: LapSplits): boolean {
  return lap.splits.some((s) => s !== undefined && s !== null);
}
