/**
 * The live session: frames from the console become laps in the store.
 * Segmentation is synchronous (state moves before any await); storage writes
 * are queued in order, so a burst of packets never reorders or duplicates
 * laps, and a slow disk never blocks packet handling.
 *
 * @module
 */
import { z } from "zod";
import type { Frame } from "../../core/gt7/frame.ts";
import { LapRecorder, type RecorderEvent } from "../../core/laps/recorder.ts";
import { finishRecordedLap } from "../../core/laps/recorded_lap.ts";
import type { Lap } from "../../core/laps/lap.ts";
import { type Session, type SessionKind, sessionSchema } from "../../core/laps/session.ts";
import { carName } from "../../core/catalog/cars.ts";
import { createSession, getSession, updateSession } from "../../storage/sessions.ts";
import { type NewLap, saveLap } from "../../storage/laps.ts";
import { isStoreRefusal } from "../../core/store_refusal.ts";
import { messageOf } from "../../core/errors.ts";
import type { AppDeps } from "../deps.ts";
import { type LapKeeper, lapMemory } from "../store/lap_keeper.ts";
import type { StoreHealth } from "../store/store_health.ts";
import { retryDelayMs } from "../store/store_retry.ts";

const count = z.int().min(0);

/**
 * Where the live session stands: the response schema, and through
 * `z.output` the {@linkcode LiveStatus} type.
 */
export const liveStatusSchema = z.strictObject({
  /** The stored live session, or null before its first lap. */
  session: sessionSchema.nullable(),
  /** The car being driven, or null before any telemetry. */
  car_id: z.int().nullable(),
  /** The lap counter of the latest frame. */
  current_lap: z.int().nullable(),
  /** Samples in the lap being driven. */
  buffered_samples: count,
  /** Laps stored since the process started. */
  laps_recorded: count,
  /** Frames dropped as duplicates. */
  duplicates: count,
  /** Packets lost, from packet-id gaps. */
  missing: count,
}).meta({ id: "LiveStatus" });

/** Where the live session stands. */
export type LiveStatus = z.output<typeof liveStatusSchema>;

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
  /**
   * Where laps the store refuses wait, and the health that is told of it;
   * without them a refused lap is reported to the log and lost (a capture
   * import, whose caller is told its import failed).
   */
  keep?: { keeper: LapKeeper; health: StoreHealth };
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
  #keep: { keeper: LapKeeper; health: StoreHealth } | null;
  /** Counts session starts and ends as the write queue reaches them: laps between two share one. */
  #segment = 0;
  /** Tells this process's segments from those of laps a process before it spilled. */
  readonly #run = crypto.randomUUID().slice(0, 8);
  /** The session each segment's waiting laps went into, once one was stored. */
  #segmentSessions = new Map<string, number>();
  #retryTimer: ReturnType<typeof setTimeout> | null = null;
  #retries = 0;
  #stopped = false;

  /** Creates the service; nothing is stored until the first lap completes. */
  constructor(deps: LiveDeps, opts: LiveOptions = {}) {
    this.#kv = deps.kv;
    this.#bus = deps.bus;
    this.#now = deps.now;
    this.#log = deps.log;
    this.#kind = opts.kind ?? "live";
    this.#keep = opts.keep ?? null;
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
          this.#segment++;
          this.#carId = event.carId;
          this.#session = null;
          this.#bus.emit({ type: "session", session: null, reason: "telemetry" });
          return Promise.resolve();
        });
        break;
      case "session_end":
        this.#epoch++;
        this.#enqueue(() => {
          this.#segment++;
          this.#session = null;
          this.#bus.emit({ type: "session", session: null, reason: event.reason });
          return Promise.resolve();
        });
        break;
      case "lap": {
        const finished = finishRecordedLap(event.lap, this.#now().toISOString());
        this.#enqueue(() => this.#lap(finished));
        break;
      }
    }
  }

  /** Stores `lap` now, or puts it in line behind the laps waiting for the store. */
  async #lap(lap: NewLap): Promise<void> {
    const segment = this.#segmentKey();
    const keep = this.#keep;
    if (keep === null) {
      await this.#storeLap(segment, null, lap);
      return;
    }
    if (keep.keeper.size === 0) {
      try {
        await this.#storeLap(segment, null, lap);
        return;
      } catch (err) {
        if (!isStoreRefusal(err)) throw err;
        keep.keeper.keep({ segment, session_id: this.#session?.id ?? null, kind: this.#kind, lap });
        // Told once the lap is in line, so the first word of it already counts it.
        keep.health.refused(err);
        this.#scheduleRetry();
        return;
      }
    }
    keep.keeper.keep({ segment, session_id: this.#session?.id ?? null, kind: this.#kind, lap });
    keep.health.check();
    await this.#drain();
  }

  /**
   * Stores the laps waiting for the store, first in line first, until the
   * store refuses one (then tries again after a back-off) or none is left.
   */
  async #drain(): Promise<void> {
    const keep = this.#keep;
    if (keep === null) return;
    for (let w = keep.keeper.first(); w; w = keep.keeper.first()) {
      let lap: NewLap;
      try {
        lap = keep.keeper.lapOf(w);
      } catch (err) {
        keep.keeper.drop(w, `its spill file cannot be read (${messageOf(err)})`);
        keep.health.check();
        continue;
      }
      try {
        await this.#storeLap(w.segment, w.session_id, lap);
      } catch (err) {
        if (!isStoreRefusal(err)) {
          // Not the store's room: trying again would fail forever and hold every lap behind it.
          keep.keeper.drop(w, `storing it failed (${messageOf(err)})`);
          keep.health.check();
          continue;
        }
        keep.health.refused(err);
        this.#scheduleRetry();
        return;
      }
      keep.keeper.done(w);
      keep.health.check();
    }
    this.#retries = 0;
  }

  #scheduleRetry(): void {
    if (this.#retryTimer !== null || this.#stopped) return;
    // A store opened read-only takes no write until a restart: its laps wait in the spill for it.
    if (this.#keep?.health.readOnlyReason) return;
    const delay = retryDelayMs(this.#retries);
    this.#retries++;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      this.#enqueue(() => this.#drain());
    }, delay);
  }

  /**
   * Tries the laps waiting for the store now, ahead of their back-off (the
   * disk has room again, or the process is stopping). Resolves once tried.
   */
  retryWaiting(): Promise<void> {
    if (this.#keep === null || this.#keep.keeper.size === 0) return this.#queue;
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    this.#enqueue(() => this.#drain());
    return this.#queue;
  }

  /** Stops trying the waiting laps again (they stay in the spill for the next start). */
  stopRetrying(): void {
    this.#stopped = true;
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
  }

  #segmentKey(): string {
    return `${this.#run}:${this.#segment}`;
  }

  /**
   * Stores `lap` of `segment` in its session: the live one for the segment
   * being driven, else `sessionId`, else the one an earlier lap of the
   * segment went into, else a new one. Then runs the hooks and announces it.
   */
  async #storeLap(segment: string, sessionId: number | null, lap: NewLap): Promise<void> {
    const current = segment === this.#segmentKey();
    let session: Session | null = null;
    if (current) session = await this.#ensureSession(lap.car_id);
    else {
      const id = sessionId ?? this.#segmentSessions.get(segment) ?? null;
      if (id !== null) session = await getSession(this.#kv, id);
      if (session === null) session = await this.#newSession(lap.car_id, lap.finished_at);
    }
    const saved = await saveLap(this.#kv, session.id, lap);
    this.#segmentSessions.set(segment, session.id);
    this.#lapsRecorded++;
    if (current) this.#session = saved.session;
    this.#keep?.health.stored(lapMemory(lap));
    const after = await this.#runLapHooks({ ...saved.lap, samples: lap.samples }, saved.session);
    if (current && this.#session) this.#session = after;
    this.#bus.emit({ type: "lap", lap: saved.lap, session: after });
  }

  async #runLapHooks(lap: Lap, session: Session): Promise<Session> {
    let s = session;
    for (const hook of this.#lapHooks) {
      try {
        const updated = await hook(lap, s);
        if (updated) s = updated;
      } catch (err) {
        if (this.#keep !== null && isStoreRefusal(err)) {
          // The lap is stored; only the hook's own write (a session's name) met the full disk,
          // which the store's health tells.
          this.#keep.health.refused(err);
        } else this.#log.error("lap hook failed", err);
      }
    }
    return s;
  }

  async #ensureSession(carId: number): Promise<Session> {
    if (this.#session) return this.#session;
    this.#session = await this.#newSession(carId, this.#now().toISOString());
    return this.#session;
  }

  async #newSession(carId: number, startedAt: string): Promise<Session> {
    const session = await createSession(this.#kv, {
      kind: this.#kind,
      started_at: startedAt,
      car_id: carId,
      car_name: carName(carId),
    });
    this.#bus.emit({ type: "session", session, reason: "created" });
    return session;
  }

  #enqueue(task: () => Promise<void>): void {
    this.#queue = this.#queue.then(task).catch((err) => {
      if (this.#keep !== null && isStoreRefusal(err)) {
        // The store's health tells the driver, once per change of state; a line per
        // refused write would say the same thing again and again.
        this.#keep.health.refused(err);
        return;
      }
      this.#log.error("storing live telemetry failed", err);
    });
  }
}
