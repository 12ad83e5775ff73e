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
import type { Lap, LapSummary } from "../core/laps/lap.ts";
import type { Session, SessionKind } from "../core/laps/session.ts";
import { carName } from "../core/catalog/cars.ts";
import { createSession, getSession, updateSession } from "../storage/sessions.ts";
import { saveLap } from "../storage/laps.ts";
import type { AppDeps } from "./deps.ts";

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
 * identification). Gets the stored lap with the samples it was recorded
 * with (nothing is read back) and the session as that lap's commit left it.
 * Returns the updated session, or nothing when unchanged. A hook runs inside
 * the service's write queue: it must not wait for {@linkcode LiveService.flush}
 * or call {@linkcode LiveService.updateSession}.
 */
export type LapHook = (lap: Lap, session: Session) => Promise<Session | void>;

/** What a {@linkcode LiveService} is built from. */
export type LiveDeps = Pick<AppDeps, "kv" | "bus" | "now" | "log">;

/** Options for {@linkcode LiveService}. */
export interface LiveOptions {
  /** The kind of the sessions it creates; default `live` (a capture import makes `imported`). */
  kind?: SessionKind;
}

/**
 * Records telemetry frames into the store as laps, and alone holds the copy
 * of its session that the faces show. The app has one for the console; a
 * capture import makes one of its own.
 */
export class LiveService {
  #kv: Deno.Kv;
  #bus: AppDeps["bus"];
  #now: () => Date;
  #log: AppDeps["log"];
  #kind: SessionKind;
  #recorder = new LapRecorder();
  #session: Session | null = null;
  #carId: number | null = null;
  #queue: Promise<void> = Promise.resolve();
  #lapsRecorded = 0;
  #lastFrame: Frame | null = null;
  #taps = new Set<FrameTap>();
  #lapHooks: LapHook[] = [];
  #epoch = 0;

  /** Creates the service; nothing is stored until the first lap completes. */
  constructor(deps: LiveDeps, opts: LiveOptions = {}) {
    this.#kv = deps.kv;
    this.#bus = deps.bus;
    this.#now = deps.now;
    this.#log = deps.log;
    this.#kind = opts.kind ?? "live";
  }

  /** Feeds one frame. Never throws and never waits for storage. */
  ingest(frame: Frame): void {
    this.#lastFrame = frame;
    let events: RecorderEvent[];
    try {
      events = this.#recorder.push(frame);
    } catch (err) {
      this.#log.error("lap recorder failed on a frame", err);
      return;
    }
    for (const event of events) this.#handle(event);
    for (const tap of this.#taps) {
      try {
        tap(frame);
      } catch (err) {
        this.#log.error("frame listener failed", err);
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

  /**
   * Counts the recorder's session starts and ends as frames are ingested
   * (before any write is queued), so a frame tap can tell that the frames it
   * is fed no longer belong to the session it was following.
   */
  get epoch(): number {
    return this.#epoch;
  }

  /**
   * Runs `task` in the write queue, after every write queued before it, with
   * the live session: created now (announced as usual) when telemetry flows
   * but no lap is stored yet. What `task` returns becomes the live copy, so
   * it must have written it to the store. Resolves once it ran; never
   * throws (a failure goes to the log). Without telemetry, `task` does not
   * run. Like a lap hook, `task` must not wait for {@linkcode flush} or call
   * {@linkcode updateSession}.
   */
  withSession(task: (session: Session) => Promise<Session | void>): Promise<void> {
    const done = Promise.withResolvers<void>();
    this.#enqueue(async () => {
      try {
        if (this.#carId === null) return;
        const session = await this.#ensureSession(this.#carId);
        const updated = await task(session);
        if (updated) this.#session = updated;
      } finally {
        done.resolve();
      }
    });
    return done.promise;
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

  /**
   * Changes stored session `id` with `edit` (atomically, retried on a
   * concurrent write) and returns it as stored, or null when it does not
   * exist. When `id` is this service's session, its copy follows: the lap
   * writes queued before are waited for first, so a lap landing meanwhile
   * can never put back the copy from before the change. Not for lap hooks,
   * which run inside that queue.
   */
  async updateSession(id: number, edit: (s: Session) => Session): Promise<Session | null> {
    const updated = await updateSession(this.#kv, id, edit);
    if (updated !== null && this.#session?.id === id) {
      await this.#queue;
      if (this.#session?.id === id) this.#session = await getSession(this.#kv, id);
    }
    return updated;
  }

  /** Resolves once every queued write has been attempted. */
  flush(): Promise<void> {
    return this.#queue;
  }

  #handle(event: RecorderEvent): void {
    switch (event.type) {
      case "session_start":
        this.#epoch++;
        this.#enqueue(() => {
          this.#carId = event.carId;
          this.#session = null;
          this.#bus.emit({ type: "session", session: null, reason: "telemetry" });
          return Promise.resolve();
        });
        break;
      case "session_end":
        this.#epoch++;
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
          const saved = await saveLap(this.#kv, session.id, finished);
          this.#lapsRecorded++;
          this.#session = saved.session;
          await this.#runLapHooks({ ...saved.lap, samples: finished.samples });
          this.#emitLap(saved.lap);
        });
        break;
      }
    }
  }

  async #runLapHooks(lap: Lap): Promise<void> {
    for (const hook of this.#lapHooks) {
      if (!this.#session) return;
      try {
        const updated = await hook(lap, this.#session);
        if (updated) this.#session = updated;
      } catch (err) {
        this.#log.error("lap hook failed", err);
      }
    }
  }

  #emitLap(lap: LapSummary): void {
    if (this.#session) this.#bus.emit({ type: "lap", lap, session: this.#session });
  }

  async #ensureSession(carId: number): Promise<Session> {
    if (this.#session) return this.#session;
    this.#session = await createSession(this.#kv, {
      kind: this.#kind,
      started_at: this.#now().toISOString(),
      car_id: carId,
      car_name: carName(carId),
    });
    this.#bus.emit({ type: "session", session: this.#session, reason: "created" });
    return this.#session;
  }

  #enqueue(task: () => Promise<void>): void {
    this.#queue = this.#queue.then(task).catch((err) => {
      this.#log.error("storing live telemetry failed", err);
    });
  }
}
