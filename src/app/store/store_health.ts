/**
 * The store's health as the driver is told it: writable or not, the free
 * space of its disk, the laps (and survey saves, survey_keeper.ts) waiting
 * for it and those lost. The state is
 * one of `ok`, `low` (under {@linkcode LOW_SPACE_BYTES} free, or under the
 * size of ten laps), `full` (a write was refused or laps wait) and
 * `read_only` (the store could only be opened read-only). Every change of
 * the state or of the counts is announced on the bus as a `store` event,
 * which carries the state before it, so a face can speak once per state.
 *
 * @module
 */
import type { DiskProbe } from "../../storage/disk_space.ts";
import { messageOf } from "../../core/errors.ts";
import type { EventBus } from "../bus.ts";
import type { KeeperCounts } from "./lap_keeper.ts";
import type { SurveyKeeperCounts } from "../survey/survey_keeper.ts";
import type { StoreHealthStatus, StoreState } from "./store_status.ts";

export type { StoreHealthStatus, StoreState } from "./store_status.ts";

/** Free space under which the store is `low` (when ten laps are smaller). */
export const LOW_SPACE_BYTES = 100 * 2 ** 20;
/** How often the disk's free space is measured, ms. */
export const PROBE_MS = 2_000;

/** What {@linkcode StoreHealth} is built from. */
export interface StoreHealthDeps {
  bus: EventBus;
  /** The disk of the store, or null for a store in memory. */
  disk: DiskProbe | null;
  /** Why the store is read-only, or null. */
  readOnly: string | null;
  /** The lap keeper's counts. */
  counts: () => KeeperCounts;
  /** The survey keeper's counts (survey_keeper.ts); none wait when absent. */
  surveys?: () => SurveyKeeperCounts;
  /** Free space under which the state is `low`; by default the larger of 100 MiB and ten laps. */
  lowSpaceBytes?: number;
}

/** Follows the store's health and announces its changes. */
export class StoreHealth {
  readonly #deps: StoreHealthDeps;
  #refusal: string | null = null;
  #freeAtRefusal: number | null = null;
  #largestLap = 0;
  #last: StoreHealthStatus | null = null;
  #timer: ReturnType<typeof setInterval> | null = null;

  /** Starts from the store's state at opening; nothing is announced until it changes. */
  constructor(deps: StoreHealthDeps) {
    this.#deps = deps;
    this.#last = this.status();
  }

  /** Why the store is read-only, or null when it takes writes. */
  get readOnlyReason(): string | null {
    return this.#deps.readOnly;
  }

  /** The health now (free space measured now). */
  status(): StoreHealthStatus {
    const counts = this.#deps.counts();
    const surveys = this.#deps.surveys?.() ?? { waiting: 0, dropped: 0 };
    const free = this.#deps.disk?.freeBytes() ?? null;
    const low = this.#deps.lowSpaceBytes ?? Math.max(LOW_SPACE_BYTES, 10 * this.#largestLap);
    const readOnly = this.#deps.readOnly;
    const state: StoreState = readOnly !== null
      ? "read_only"
      : this.#refusal !== null || counts.waiting > 0 || surveys.waiting > 0
      ? "full"
      : free !== null && free < low
      ? "low"
      : "ok";
    return {
      state,
      writable: readOnly === null && this.#refusal === null,
      read_only_reason: readOnly,
      disk: this.#deps.disk?.where ?? null,
      free_bytes: free,
      low_space_bytes: low,
      laps_waiting: counts.waiting,
      laps_dropped: counts.dropped,
      surveys_waiting: surveys.waiting,
      surveys_dropped: surveys.dropped,
      spill: counts.spill,
      spill_error: counts.spill_error,
      last_refusal: this.#refusal,
    };
  }

  /** A write was refused with `err`'s message: the store is full until a write goes through. */
  refused(err: unknown): void {
    this.#refusal = messageOf(err);
    this.#freeAtRefusal = this.#deps.disk?.freeBytes() ?? null;
    this.check();
  }

  /** A write went through, of a lap of `lapBytes` (its size in memory) when it was a lap. */
  stored(lapBytes = 0): void {
    this.#refusal = null;
    this.#freeAtRefusal = null;
    this.#largestLap = Math.max(this.#largestLap, lapBytes);
    this.check();
  }

  /**
   * True when the disk has more room than at the last refusal: worth trying
   * the waiting laps again before their back-off ends.
   */
  spaceReturned(): boolean {
    if (this.#refusal === null || this.#freeAtRefusal === null) return false;
    const free = this.#deps.disk?.freeBytes() ?? null;
    return free !== null && free > this.#freeAtRefusal;
  }

  /** Announces the health when its state or counts changed since the last announcement. */
  check(): void {
    const now = this.status();
    const last = this.#last!;
    this.#last = now;
    if (
      now.state === last.state && now.laps_waiting === last.laps_waiting &&
      now.laps_dropped === last.laps_dropped && now.writable === last.writable &&
      now.surveys_waiting === last.surveys_waiting && now.surveys_dropped === last.surveys_dropped
    ) return;
    this.#deps.bus.emit({
      type: "store",
      reason: now.state === last.state ? "counts" : "state",
      previous: last.state,
      status: now,
    });
  }

  /** Measures the disk every `ms` (checking for a change) and calls `tick`; until {@linkcode stop}. */
  watch(tick: () => void, ms = PROBE_MS): void {
    this.stop();
    this.#timer = setInterval(() => {
      this.check();
      tick();
    }, ms);
  }

  /** Stops the measuring. */
  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }
}

/** `n` bytes as MB with one decimal, for a driver. */
function mb(n: number): string {
  return `${(n / 2 ** 20).toFixed(1)} MB`;
}

/**
 * What to tell the driver about the store's health, in one sentence:
 * `store full: 3 laps not yet saved (0.0 MB free on /data)` and so on.
 */
export function storeSentence(s: StoreHealthStatus): string {
  const free = s.free_bytes === null ? "" : ` (${mb(s.free_bytes)} free on ${s.disk})`;
  const lost = (s.laps_dropped > 0 ? `; ${s.laps_dropped} laps lost past the bounds` : "") +
    (s.surveys_dropped > 0 ? `; ${s.surveys_dropped} survey runs lost past the bounds` : "");
  const runs = (n: number) => `${n} survey run${n === 1 ? "" : "s"} not yet saved`;
  const surveys = s.surveys_waiting > 0 ? `; ${runs(s.surveys_waiting)}` : "";
  switch (s.state) {
    case "read_only":
      return `store read-only: changes are refused until a restart with room` +
        (s.laps_waiting > 0 ? `; ${s.laps_waiting} laps not yet saved` : "") +
        `${surveys}${lost} (${s.read_only_reason})`;
    case "full":
      // With only survey runs waiting, they are what the driver is told of first.
      if (s.laps_waiting === 0 && s.surveys_waiting > 0) {
        return `store full: ${runs(s.surveys_waiting)}${free}${lost}`;
      }
      return `store full: ${s.laps_waiting} laps not yet saved${free}${lost}` +
        (s.laps_waiting > 0
          ? s.spill === null
            ? "; they are kept in memory only"
            : s.spill_error === null
            ? `; they are kept in ${s.spill} and stored once space is freed`
            : "; they are kept in memory only (the spill cannot be written)"
          : "") +
        surveys;
    case "low":
      return `store space low: ${
        s.free_bytes === null ? "?" : mb(s.free_bytes)
      } free on ${s.disk}` +
        ` (warning under ${mb(s.low_space_bytes)})${lost}`;
    case "ok":
      return `store writable: every lap is saved${free}${lost}`;
  }
}
