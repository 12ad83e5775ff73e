/**
 * Lap segmentation (REFERENCE 4.1): a pure state machine fed one frame at a
 * time. It answers with what happened (a lap completed, a session ended) and
 * leaves storage to the caller. State is updated before anything is
 * returned, so a burst of packets can never complete the same lap twice.
 *
 * @module
 */
import { FLAG, type Frame } from "../gt7/frame.ts";
import type { EngineHealth, Gearing } from "./lap.ts";
import type { LapSamples } from "./columns.ts";
import { round, SampleBuffer } from "./sample.ts";
import { MAX_PACKET_GAP } from "./coverage.ts";

/** A lap needs at least this many samples to be stored (10 s at 60 Hz). */
export const MIN_LAP_SAMPLES = 600;

/** The out-lap buffer is capped at 15 minutes of ticks. */
export const MAX_OUT_LAP_SAMPLES = 54_000;

/** A forward packet-id jump above this is a restart, not loss (defined with lap coverage). */
export { MAX_PACKET_GAP };

/** A completed lap as the recorder sees it, before storage gives it an id. */
export interface RecordedLap {
  /** The counter value the lap was driven under. */
  number: number;
  /** Lap time from the game's last-lap field, ms. */
  time_ms: number;
  car_id: number;
  car_category: string;
  fuel_start: number;
  fuel_end: number;
  /** In-game time of day at the line, ms. */
  tod_ms: number;
  gearing: Gearing;
  engine: EngineHealth;
  /** Packets lost between the lap's first and last sample, filled or not. */
  frames_dropped: number;
  /** Samples interpolated across gaps of 1 to 3 lost packets. */
  samples_filled: number;
  /** Most packets lost in a row between the lap's first and last sample; 0 when none. */
  longest_gap_packets: number;
  samples: LapSamples;
}

/** Why the recorder closed a session. */
export type SessionEndReason = "car_change" | "counter_drop";

/** What one frame caused. */
export type RecorderEvent =
  | { type: "session_start"; carId: number }
  | { type: "session_end"; reason: SessionEndReason }
  | { type: "lap"; lap: RecordedLap };

/** Counters the recorder keeps for status displays. */
export interface RecorderStats {
  /** Frames dropped as duplicates of the previous packet id. */
  duplicates: number;
  /** Packets the console sent that never arrived (from forward id gaps, however long). */
  missing: number;
  /** Frames skipped because the game was paused or loading. */
  skipped: number;
  /** Samples in the lap being driven. */
  bufferedSamples: number;
  /** The lap counter of the latest frame, or null before any. */
  currentLap: number | null;
}

/** Segments a stream of frames into laps. One instance per telemetry stream. */
export class LapRecorder {
  #buffer = new SampleBuffer();
  #lastPid: number | null = null;
  #lap: number | null = null;
  #carId: number | null = null;
  #dropped = 0;
  #longestGap = 0;
  #waterMax = 0;
  #oilMax = 0;
  #oilPressureMin = Infinity;
  #fuelStart = NaN;
  #fuelEnd = NaN;
  #stats = { duplicates: 0, missing: 0, skipped: 0 };

  /** Snapshot of the counters. */
  get stats(): RecorderStats {
    return { ...this.#stats, bufferedSamples: this.#buffer.length, currentLap: this.#lap };
  }

  /** The car of the current session, or null before the first frame. */
  get carId(): number | null {
    return this.#carId;
  }

  /** Feeds one decoded frame; returns what it caused, in order. */
  push(frame: Frame): RecorderEvent[] {
    // A loading frame arrived, so it moves the packet count on: a loading
    // screen must not read as packets lost.
    const frames = this.#advancePid(frame.packetId);
    if (frame.flags & FLAG.loading) {
      this.#stats.skipped++;
      return [];
    }
    if (frames === 0) {
      this.#stats.duplicates++;
      return [];
    }
    const events: RecorderEvent[] = [];
    if (this.#carId !== frame.carId) {
      if (this.#carId !== null) events.push({ type: "session_end", reason: "car_change" });
      this.#resetSession(frame.carId);
      events.push({ type: "session_start", carId: frame.carId });
    } else if (this.#lap !== null && frame.currentLap !== this.#lap) {
      const prev = this.#lap;
      const next = frame.currentLap;
      if (next === prev + 1) {
        const lap = this.#complete(prev, frame);
        if (lap) events.push({ type: "lap", lap });
        this.#startLap();
      } else if (prev > 0 && next >= 0 && next < prev) {
        events.push({ type: "session_end", reason: "counter_drop" });
        this.#resetSession(frame.carId);
        events.push({ type: "session_start", carId: frame.carId });
      } else {
        // Any other jump (a skipped lap, a restart into lap 0) leaves no
        // whole lap behind: start afresh under the new counter.
        this.#startLap();
      }
    }
    this.#lap = frame.currentLap;
    if (this.#shouldSample(frame)) {
      const first = this.#buffer.length === 0;
      if (first) this.#fuelStart = frame.fuelLevel;
      else if (frames > 1) this.#noteGap(frames - 1);
      // Loss before a lap's first sample is not known to belong to it; the
      // lap's sample count against its lap time shows any that did.
      this.#buffer.append(frame, first ? 1 : frames);
      this.#fuelEnd = frame.fuelLevel;
      this.#track(frame);
      if (frame.currentLap === 0 && this.#buffer.length > MAX_OUT_LAP_SAMPLES) this.#startLap();
    } else {
      this.#stats.skipped++;
    }
    return events;
  }

  /** Returns packet periods since the previous frame: 0 for a duplicate, 1 after a restart. */
  #advancePid(pid: number): number {
    const last = this.#lastPid;
    this.#lastPid = pid;
    if (last === null) return 1;
    const gap = pid - last;
    if (gap === 0) return 0;
    if (gap >= 1 && gap <= MAX_PACKET_GAP) {
      this.#stats.missing += gap - 1;
      return gap;
    }
    return 1;
  }

  /** Accounts `lost` packets between two samples of the lap being driven. */
  #noteGap(lost: number): void {
    this.#dropped += lost;
    if (lost > this.#longestGap) this.#longestGap = lost;
  }

  #shouldSample(frame: Frame): boolean {
    if (frame.flags & FLAG.paused) return false;
    if (frame.currentLap < 0) return false;
    // Past the chequered flag the counter exceeds the race length: cool-down laps are not laps.
    if (frame.totalLaps > 0 && frame.currentLap > frame.totalLaps) return false;
    return true;
  }

  #track(frame: Frame): void {
    if (frame.waterTemp > this.#waterMax) this.#waterMax = frame.waterTemp;
    if (frame.oilTemp > this.#oilMax) this.#oilMax = frame.oilTemp;
    if (frame.engineRpm > 1200 && frame.oilPressure < this.#oilPressureMin) {
      this.#oilPressureMin = frame.oilPressure;
    }
  }

  #complete(number: number, boundary: Frame): RecordedLap | null {
    const enough = this.#buffer.length >= MIN_LAP_SAMPLES;
    if (number <= 0 || boundary.lastLapMs <= 0 || !enough) return null;
    const filled = this.#buffer.filled;
    const samples = this.#buffer.take();
    return {
      number,
      time_ms: boundary.lastLapMs,
      car_id: boundary.carId,
      car_category: boundary.surface?.carCategory ?? "",
      fuel_start: this.#fuelStart,
      fuel_end: this.#fuelEnd,
      tod_ms: boundary.dayProgressionMs,
      gearing: {
        ratios: boundary.gearRatios.filter((r) => r > 0).map((r) => round(r, 4)),
        top_speed: round(boundary.transmissionTopSpeed, 1),
        rpm_alert: boundary.rpmAlertMax,
      },
      engine: {
        max_water_temp: round(this.#waterMax, 1),
        max_oil_temp: round(this.#oilMax, 1),
        min_oil_pressure: Number.isFinite(this.#oilPressureMin)
          ? round(this.#oilPressureMin, 3)
          : -1,
      },
      frames_dropped: this.#dropped,
      samples_filled: filled,
      longest_gap_packets: this.#longestGap,
      samples,
    };
  }

  #startLap(): void {
    this.#buffer.clear();
    this.#dropped = 0;
    this.#longestGap = 0;
    this.#waterMax = 0;
    this.#oilMax = 0;
    this.#oilPressureMin = Infinity;
    this.#fuelStart = NaN;
  }

  #resetSession(carId: number): void {
    this.#carId = carId;
    this.#lap = null;
    this.#startLap();
  }
}
