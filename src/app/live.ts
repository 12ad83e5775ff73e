/**
 * The live session: frames from the console become laps in the store.
 * Segmentation is synchronous (state moves before any await); storage writes
 * are queued in order, so a burst of packets never reorders or duplicates
 * laps, and a slow disk never blocks packet handling.
 *
 * @module
 */
import type { Frame } from "../core/gt7/frame.ts";
import { LapRecorder, type RecorderEvent } from "../core/laps/recorder.ts";
import { finishRecordedLap } from "../core/laps/recorded_lap.ts";
import type { LapSummary } from "../core/laps/lap.ts";
import type { Session } from "../core/laps/session.ts";
import { carName } from "../core/catalog/cars.ts";
import { createSession, getSession } from "../storage/sessions.ts";
import { saveLap } from "../storage/laps.ts";
import type { EventBus } from "./bus.ts";

/** Where the live session stands. */
export interface LiveStatus {
  /** The stored live session, or null before its first lap. */
  session: Session | null;
  /** The car being driven, or null before any telemetry. */
  car_id: number | null;
  /** The lap counter of the latest frame. */
  current_lap: number | null;
  /** Samples in the lap being driven. */
  buffered_samples: number;
  /** Laps stored since the process started. */
  laps_recorded: number;
  /** Frames dropped as duplicates. */
  duplicates: number;
  /** Packets lost, from packet-id gaps. */
  missing: number;
}

/** Sees every frame after the lap recorder, synchronously; must not block. */
export type FrameTap = (frame: Frame) => void;

/**
 * Runs after a lap is stored and before it is announced, so listeners hear
 * of the lap with the session as the hook left it (for example, named by
 * identification). Returns the updated session, or nothing when unchanged.
 */
export type LapHook = (lap: LapSummary, session: Session) => Promise<Session | void>;

/** Options for {@linkcode LiveService}. */
export interface LiveOptions {
  kv: Deno.Kv;
  bus: EventBus;
  /** The clock; injectable for tests. */
  now?: () => Date;
}

/** Records the console's laps into the store. One per process. */
export class LiveService {
  #kv: Deno.Kv;
  #bus: EventBus;
  #now: () => Date;
  #recorder = new LapRecorder();
  #session: Session | null = null;
  #carId: number | null = null;
  #queue: Promise<void> = Promise.resolve();
  #lapsRecorded = 0;
  #lastFrame: Frame | null = null;
  #taps = new Set<FrameTap>();
  #lapHooks: LapHook[] = [];

  /** Creates the service; nothing is stored until the first lap completes. */
  constructor(opts: LiveOptions) {
    this.#kv = opts.kv;
    this.#bus = opts.bus;
    this.#now = opts.now ?? (() => new Date());
  }

  /** Feeds one frame. Never throws and never waits for storage. */
  ingest(frame: Frame): void {
    this.#lastFrame = frame;
    let events: RecorderEvent[];
    try {
      events = this.#recorder.push(frame);
    } catch (err) {
      console.error("lap recorder failed on a frame:", err);
      return;
    }
    for (const event of events) this.#handle(event);
    for (const tap of this.#taps) {
      try {
        tap(frame);
      } catch (err) {
        console.error("frame listener failed:", err);
      }
    }
  }

  /** Adds a frame tap; returns the function that removes it. */
  tap(fn: FrameTap): () => void {
    this.#taps.add(fn);
    return () => this.#taps.delete(fn);
  }

  /** Adds a hook that runs, in order of addition, on every stored live lap. */
  onLap(hook: LapHook): void {
    this.#lapHooks.push(hook);
  }

  /** The latest frame, for live displays. */
  get lastFrame(): Frame | null {
    return this.#lastFrame;
  }

  /** The live session as stored, or null when none has laps yet. */
  get session(): Session | null {
    return this.#session;
  }

  /** Current state of the live session. */
  status(): LiveStatus {
    const s = this.#recorder.stats;
    return {
      session: this.#session,
      car_id: this.#carId,
      current_lap: s.currentLap,
      buffered_samples: s.bufferedSamples,
      laps_recorded: this.#lapsRecorded,
      duplicates: s.duplicates,
      missing: s.missing,
    };
  }

  /**
   * The live session, created now if telemetry is flowing but no lap has
   * been stored yet. Null when no telemetry has arrived.
   */
  async activeSession(): Promise<Session | null> {
    await this.#queue;
    if (this.#session) return this.#session;
    if (this.#carId === null) return null;
    return await this.#ensureSession(this.#carId);
  }

  /** Replaces the in-memory copy after the session was changed elsewhere. */
  async refresh(): Promise<void> {
    if (!this.#session) return;
    this.#session = await getSession(this.#kv, this.#session.id);
  }

  /** Resolves once every queued write has been attempted. */
  flush(): Promise<void> {
    return this.#queue;
  }

  #handle(event: RecorderEvent): void {
    switch (event.type) {
      case "session_start":
        this.#enqueue(() => {
          this.#carId = event.carId;
          this.#session = null;
          this.#bus.emit({ type: "session", session: null, reason: "telemetry" });
          return Promise.resolve();
        });
        break;
      case "session_end":
        this.#enqueue(() => {
          this.#session = null;
          this.#bus.emit({ type: "session", session: null, reason: event.reason });
          return Promise.resolve();
        });
        break;
      case "lap": {
        const finished = finishRecordedLap(event.lap, this.#now().toISOString());
        this.#enqueue(async () => {
          const session = await this.#ensureSession(finished.car_id);
          const lap = await saveLap(this.#kv, session.id, finished);
          this.#lapsRecorded++;
          this.#session = await getSession(this.#kv, session.id);
          await this.#runLapHooks(lap);
          this.#emitLap(lap);
        });
        break;
      }
    }
  }

  async #runLapHooks(lap: LapSummary): Promise<void> {
    for (const hook of this.#lapHooks) {
      if (!this.#session) return;
      try {
        const updated = await hook(lap, this.#session);
        if (updated) this.#session = updated;
      } catch (err) {
        console.error("lap hook failed:", err);
      }
    }
  }

  #emitLap(lap: LapSummary): void {
    if (this.#session) this.#bus.emit({ type: "lap", lap, session: this.#session });
  }

  async #ensureSession(carId: number): Promise<Session> {
    if (this.#session) return this.#session;
    this.#session = await createSession(this.#kv, {
      kind: "live",
      started_at: this.#now().toISOString(),
      car_id: carId,
      car_name: carName(carId),
    });
    this.#bus.emit({ type: "session", session: this.#session, reason: "created" });
    return this.#session;
  }

  #enqueue(task: () => Promise<void>): void {
    this.#queue = this.#queue.then(task).catch((err) => {
      console.error("storing live telemetry failed:", err);
    });
  }
}
