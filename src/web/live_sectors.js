// @ts-check
/**
 * The live page's sector splits, as the terminal's Live view times them
 * (src/tui/live_sectors.ts): a split is the lap clock when the car entered
 * the next sector less the clock when it entered this one, so only a
 * sector whose start the page saw is timed. Sector 1 starts at clock 0 (the
 * lap clock counts from the line); a sector the page was opened in (or
 * reloaded, or woken in) has no known start and stays `--`, never the time
 * since the lap began. The last sector of a lap is closed by the stored
 * lap's time (the stream's `lap` event). A change the page saw only across
 * a gap of more than {@linkcode MAX_GAP_PACKETS} packets (a phone that
 * slept, a stream rebuilt) is not timed either: when it happened is not
 * known. Pure: each step returns the next
 * state, and Deno tests import this file as the browser does.
 *
 * @module
 */
import { sectorClass } from "./cues.js";

/** Packets a frame may follow the one before by and still time a change of sector (1/6 s). */
export const MAX_GAP_PACKETS = 10;

/**
 * A lap's splits while it is driven, indexed by sector - 1; `entryMs` is
 * the clock when the car entered `sector` (NaN: its start was not seen).
 * @typedef {{ lap: number, splits: (number | null)[], sector: number | null, entryMs: number }} LapSplits
 */

/**
 * What the page knows of the splits: the lap being driven, the lap before
 * (while it is shown), the newest stored lap (in case it is announced
 * before its successor's first frame) and the best split this page timed
 * per sector (for a circuit without stored sector bests).
 * @typedef {{
 *   now: LapSplits | null,
 *   previous: LapSplits | null,
 *   stored: { lap: number, timeMs: number } | null,
 *   timedBest: (number | null)[],
 *   packet: number | null,
 * }} SectorState
 */

/** One sector box as drawn: its text and its classes. @typedef {{ text: string, cls: string }} SectorCell */

/**
 * The state before any frame.
 * @returns {SectorState}
 */
export function noSectors() {
  return { now: null, previous: null, stored: null, timedBest: [], packet: null };
}

/**
 * The state after frame `f`: a change to the next sector times the sector
 * left (when its start was seen and no frames were missed), a new lap
 * starts afresh and keeps the lap before for showing. Returns `s` itself
 * when nothing changed. A frame without `packet_id` follows the one before.
 * @param {SectorState} s
 * @param {{ lap: number, sector: number | null, lap_clock_ms: number, packet_id?: number }} f
 * @returns {SectorState}
 */
export function sectorFrame(s, f) {
  const packet = f.packet_id ?? null;
  const seen = packet === null || s.packet === null || packet - s.packet <= MAX_GAP_PACKETS;
  const next = sectorStep(s, f, seen);
  return packet === null || packet === s.packet ? next : { ...next, packet };
}

/**
 * {@linkcode sectorFrame} without the packet count; `seen`: the frames
 * before `f` were all received.
 * @param {SectorState} s
 * @param {{ lap: number, sector: number | null, lap_clock_ms: number }} f
 * @param {boolean} seen
 * @returns {SectorState}
 */
function sectorStep(s, f, seen) {
  const now = s.now;
  if (f.lap < 1 || f.sector === null) {
    return now && now.lap !== f.lap ? { ...s, now: null } : s;
  }
  if (!now || now.lap !== f.lap) {
    const fresh = { lap: f.lap, splits: [], sector: f.sector, entryMs: entryOf(f, false) };
    if (now && f.lap === now.lap + 1) {
      return closeLast({ ...s, now: fresh, previous: now });
    }
    return { ...s, now: fresh, previous: null };
  }
  if (f.sector === now.sector) return s;
  const from = now.sector;
  const onward = seen && from !== null && f.sector === from + 1;
  const splits = [...now.splits];
  let timedBest = s.timedBest;
  if (onward && Number.isFinite(now.entryMs)) {
    const ms = Math.round(Math.max(0, f.lap_clock_ms - now.entryMs));
    splits[from - 1] = ms;
    timedBest = betterOf(timedBest, from - 1, ms);
  }
  return {
    ...s,
    now: { lap: now.lap, splits, sector: f.sector, entryMs: entryOf(f, onward) },
    timedBest,
  };
}

/**
 * The state after lap `lap` was stored with time `timeMs`: its time closes
 * its last sector (when that sector's start was seen).
 * @param {SectorState} s
 * @param {number} lap
 * @param {number} timeMs
 * @returns {SectorState}
 */
export function sectorLapStored(s, lap, timeMs) {
  return closeLast({ ...s, stored: { lap, timeMs } });
}

/**
 * The sector boxes to draw for frame `f` against `bestMs` (the personal
 * best per sector, sector 1 first; a sector without one is compared with
 * the best this page timed): the current lap's splits, or the previous
 * lap's while the current one has none. A sector without a split reads
 * `--` (`…` for the one being timed) and has no colour; the sector the car
 * is in is marked `now` while the current lap is shown.
 * @param {SectorState} s
 * @param {{ lap: number, sector: number | null }} f
 * @param {readonly (number | null)[]} bestMs
 * @returns {SectorCell[]}
 */
export function sectorCells(s, f, bestMs) {
  const now = f.lap >= 1 && f.sector !== null ? s.now : null;
  const prev = s.previous;
  // The previous lap stands in only while it has something to show: a row of dashes would
  // hide the sector the car is in.
  const shown = now && !hasSplit(now) && prev && hasSplit(prev) ? prev : now;
  const count = Math.max(bestMs.length, shown?.splits.length ?? 0, now?.sector ?? 0) || 3;
  /** @type {SectorCell[]} */
  const cells = [];
  for (let k = 0; k < count; k++) {
    const ms = shown?.splits[k] ?? null;
    const current = now !== null && shown === now && now.sector === k + 1;
    const best = bestMs[k] ?? s.timedBest[k] ?? null;
    const timing = current && now !== null && Number.isFinite(now.entryMs);
    const value = ms !== null ? (ms / 1000).toFixed(2) : timing ? "…" : "--";
    const pace = sectorClass(ms, best);
    cells.push({
      text: `S${k + 1} ${value}`,
      cls: [pace, current ? "now" : ""].filter((c) => c !== "").join(" "),
    });
  }
  return cells;
}

/**
 * The clock at which the car entered `f.sector`: 0 for sector 1 (the lap
 * clock counts from the line), the clock now when it came on from the
 * sector before, else unknown (NaN: entered sideways, or first seen there).
 * @param {{ sector: number | null, lap_clock_ms: number }} f
 * @param {boolean} onward
 */
function entryOf(f, onward) {
  if (f.sector === 1) return 0;
  return onward ? f.lap_clock_ms : NaN;
}

/**
 * Closes the previous lap's last sector once its stored time is known.
 * @param {SectorState} s
 * @returns {SectorState}
 */
function closeLast(s) {
  const prev = s.previous;
  const stored = s.stored;
  if (!prev || !stored || stored.lap !== prev.lap || prev.sector === null) return s;
  const k = prev.sector - 1;
  if (!Number.isFinite(prev.entryMs) || (prev.splits[k] ?? null) !== null) return s;
  const ms = Math.round(Math.max(0, stored.timeMs - prev.entryMs));
  const splits = [...prev.splits];
  splits[k] = ms;
  return { ...s, previous: { ...prev, splits }, timedBest: betterOf(s.timedBest, k, ms) };
}

/**
 * `best` with `ms` at `k` when it is faster than what is there.
 * @param {(number | null)[]} best
 * @param {number} k
 * @param {number} ms
 */
function betterOf(best, k, ms) {
  const was = best[k] ?? null;
  if (was !== null && was <= ms) return best;
  const out = [...best];
  out[k] = ms;
  return out;
}

/** @param {LapSplits} lap */
function hasSplit(lap) {
  return lap.splits.some((v) => v !== undefined && v !== null);
}
