/**
 * Lap events found in the samples: wheel lockups and wheelspin (from the
 * per-wheel slip ratios), suspension bottoming and kerb strikes (from
 * suspension travel) and off-track excursions (from the surface codes).
 * Recomputed whenever a lap is saved or imported, so they follow the samples.
 *
 * @module
 */
import { type LapSamples, type SampleColumn, WHEEL_CODES, type WheelCode } from "./columns.ts";
import type { LapEvent } from "./lap.ts";
import { timeWeights } from "./metrics.ts";
import { excursions, maskWheels } from "./surface_code.ts";

/** Every event type, in the order types are compared when sorting. */
export const EVENT_TYPES = ["bottoming", "kerb", "lockup", "off_track", "wheelspin"] as const;

/** An event type. */
export type EventType = typeof EVENT_TYPES[number];

/** Most events of one type per lap (bottoming: per wheel). */
export const EVENT_CAP = 40;

/** Brake % at or above which a slow wheel counts as locking. */
export const LOCKUP_BRAKE = 20;
/** Slip ratio below which a braked wheel counts as locking. */
export const LOCKUP_SLIP = 0.9;
/** Throttle % at or above which a fast wheel counts as spinning. */
export const WHEELSPIN_THROTTLE = 40;
/** Slip ratio above which a driven wheel counts as spinning. */
export const WHEELSPIN_SLIP = 1.1;
/** Fewest consecutive ticks of a lockup or wheelspin. */
export const SLIP_TICKS = 6;
/** Share of a wheel's travel range above its minimum that counts as bottomed. */
export const BOTTOMING_SHARE = 0.98;
/** Fewest consecutive bottomed ticks of a bottoming event. */
export const BOTTOMING_TICKS = 3;
/** Spike over the neighbours two ticks away, as a share of the range, that is a kerb strike. */
export const KERB_SHARE = 0.35;

/**
 * Every event of a lap, sorted by start distance, then type. None without a
 * `dist` column of one value per tick. Lockup and wheelspin need all four
 * `slip_*` columns; bottoming and kerb use each `sus_*` column present, per
 * wheel; off_track needs the `surface` column. A column whose length differs
 * from `t` counts as absent.
 *
 * - lockup: brake >= 20 % and some wheel's slip < 0.9 for >= 6 ticks; wheels
 *   are those below 0.9 at some tick of it, severity the lowest slip of any
 *   wheel in it (3 dp).
 * - wheelspin: throttle >= 40 % and some wheel's slip > 1.1 for >= 6 ticks;
 *   severity the highest slip of any wheel in it (3 dp).
 * - bottoming, per wheel whose travel varies: travel >= min + 0.98 range for
 *   >= 3 ticks; severity (peak - min) / range (3 dp). At most 40 per wheel.
 * - kerb, per wheel: travel at tick i exceeds the mean of ticks i-2 and i+2 by
 *   more than 0.35 range; zero length; severity (travel - min) / range (3 dp).
 *   At most 40 over all wheels.
 * - off_track: >= 3 wheels on loose ground for >= 6 ticks; wheels are every
 *   wheel loose during it; severity is its duration in seconds (3 dp),
 *   weighted like the lap metrics so that dropped packets count as time.
 *
 * Other types are capped at 40 each, keeping the earliest.
 */
export function computeEvents(samples: LapSamples): LapEvent[] {
  const n = samples.t.length;
  const col = (name: SampleColumn): readonly number[] | undefined => {
    const c = samples[name];
    return c !== undefined && c.length === n ? c : undefined;
  };
  const dist = col("dist");
  if (dist === undefined || n === 0) return [];

  const events: LapEvent[] = [];
  const slips = WHEEL_CODES.map((w) => col(`slip_${w}`));
  if (slips.every((s) => s !== undefined)) {
    const s = slips as readonly (readonly number[])[];
    events.push(...slipEvents(samples.brake, s, dist, "lockup"));
    events.push(...slipEvents(samples.throttle, s, dist, "wheelspin"));
  }
  const sus = WHEEL_CODES.map((w) => col(`sus_${w}`));
  events.push(...bottomingEvents(sus, dist));
  events.push(...kerbEvents(sus, dist));
  const surface = col("surface");
  if (surface !== undefined) events.push(...offTrackEvents(surface, samples.t, dist));

  return events.sort((a, b) =>
    a.start_dist - b.start_dist || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0)
  );
}

/** The number of events of each type present; types with no events are absent. */
export function countEvents(events: readonly LapEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of events) counts[e.type] = (counts[e.type] ?? 0) + 1;
  return counts;
}

/**
 * Calls `emit(first, last)` for each run of at least `minTicks` consecutive
 * ticks where `active` holds, in order, until `emit` returns false.
 */
function runs(
  n: number,
  active: (i: number) => boolean,
  minTicks: number,
  emit: (first: number, last: number) => boolean,
): void {
  let first = -1;
  for (let i = 0; i <= n; i++) {
    if (i < n && active(i)) {
      if (first < 0) first = i;
      continue;
    }
    if (first >= 0 && i - first >= minTicks && !emit(first, i - 1)) return;
    first = -1;
  }
}

function slipEvents(
  pedal: readonly number[],
  slips: readonly (readonly number[])[],
  dist: readonly number[],
  type: "lockup" | "wheelspin",
): LapEvent[] {
  const lockup = type === "lockup";
  const pedalMin = lockup ? LOCKUP_BRAKE : WHEELSPIN_THROTTLE;
  const beyond = lockup ? (s: number) => s < LOCKUP_SLIP : (s: number) => s > WHEELSPIN_SLIP;
  const [fl, fr, rl, rr] = slips;
  const found: LapEvent[] = [];
  const active = (i: number) =>
    pedal[i] >= pedalMin && (beyond(fl[i]) || beyond(fr[i]) || beyond(rl[i]) || beyond(rr[i]));
  runs(dist.length, active, SLIP_TICKS, (first, last) => {
    const wheels: WheelCode[] = [];
    let extreme = slips[0][first];
    for (let w = 0; w < 4; w++) {
      let hit = false;
      for (let i = first; i <= last; i++) {
        const s = slips[w][i];
        if (beyond(s)) hit = true;
        extreme = lockup ? Math.min(extreme, s) : Math.max(extreme, s);
      }
      if (hit) wheels.push(WHEEL_CODES[w]);
    }
    found.push({
      type,
      start_dist: dist[first],
      end_dist: dist[last],
      wheels,
      severity: round3(extreme),
    });
    return found.length < EVENT_CAP;
  });
  return found;
}

interface Travel {
  values: readonly number[];
  min: number;
  range: number;
}

/** The wheel's travel with its min and range, or undefined when it never moves. */
function travel(values: readonly number[] | undefined): Travel | undefined {
  if (values === undefined || values.length === 0) return undefined;
  let min = values[0];
  let max = values[0];
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const range = max - min;
  return range < 1e-6 ? undefined : { values, min, range };
}

function bottomingEvents(
  sus: readonly (readonly number[] | undefined)[],
  dist: readonly number[],
): LapEvent[] {
  const found: LapEvent[] = [];
  sus.forEach((column, w) => {
    const tr = travel(column);
    if (tr === undefined) return;
    const { values, min, range } = tr;
    const floor = min + BOTTOMING_SHARE * range;
    let count = 0;
    runs(values.length, (i) => values[i] >= floor, BOTTOMING_TICKS, (first, last) => {
      let peak = values[first];
      for (let i = first + 1; i <= last; i++) peak = Math.max(peak, values[i]);
      found.push({
        type: "bottoming",
        start_dist: dist[first],
        end_dist: dist[last],
        wheels: [WHEEL_CODES[w]],
        severity: round3((peak - min) / range),
      });
      return ++count < EVENT_CAP;
    });
  });
  return found;
}

function kerbEvents(
  sus: readonly (readonly number[] | undefined)[],
  dist: readonly number[],
): LapEvent[] {
  const found: LapEvent[] = [];
  for (let w = 0; w < 4 && found.length < EVENT_CAP; w++) {
    const tr = travel(sus[w]);
    if (tr === undefined) continue;
    const { values, min, range } = tr;
    const spike = KERB_SHARE * range;
    for (let i = 2; i <= values.length - 3 && found.length < EVENT_CAP; i++) {
      if (values[i] - (values[i - 2] + values[i + 2]) / 2 > spike) {
        found.push({
          type: "kerb",
          start_dist: dist[i],
          end_dist: dist[i],
          wheels: [WHEEL_CODES[w]],
          severity: round3((values[i] - min) / range),
        });
      }
    }
  }
  return found;
}

function offTrackEvents(
  surface: readonly number[],
  t: readonly number[],
  dist: readonly number[],
): LapEvent[] {
  const weights = timeWeights(t);
  return excursions(surface).slice(0, EVENT_CAP).map((x) => {
    let seconds = 0;
    for (let i = x.first; i <= x.last; i++) seconds += weights[i];
    return {
      type: "off_track",
      start_dist: dist[x.first],
      end_dist: dist[x.last],
      wheels: maskWheels(x.wheels),
      severity: round3(seconds),
    };
  });
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
