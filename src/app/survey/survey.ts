/**
 * The survey service: start and stop a run, name its circuit, arm manual
 * marks, report status (REFERENCE.md 2.8-2.12). Frames arrive through
 * `live.tap` and go straight to the pure engine; everything that touches
 * the store goes through the one ordered queue of survey_saves.ts.
 *
 * A run stopped before its circuit was named is not thrown away: it stays
 * pending (no frames taken, its cells kept) until it is named, which saves
 * and counts it, or explicitly discarded. Only the process ending loses it,
 * with a warning in the log.
 *
 * @module
 */
import { Conflict } from "../../core/errors.ts";
import { StoreRefused } from "../../core/store_refusal.ts";
import { slugify } from "../../core/bundle/slug.ts";
import type { Side } from "../../core/bundle/types.ts";
import type { Frame } from "../../core/gt7/frame.ts";
import { finishLineState } from "../../core/survey/finish_line.ts";
import { type MarkKind, SurveyEngine } from "../../core/survey/survey_step.ts";
import { DEFAULT_TRACK_WIDTH } from "../../core/survey/track_width.ts";
import type { AppDeps } from "../deps.ts";
import type { LiveService } from "../live/live.ts";
import type { SurveyMark, SurveyStart, SurveyTrack } from "./survey_body.ts";
import { type CircuitRef, SurveySaves } from "./survey_saves.ts";
import type { SurveyKeeper } from "./survey_keeper.ts";
import type { SurveySave, SurveyStatus } from "./survey_status.ts";

/** Frames between autosaves: about 60 s at 60 Hz (SPEC.md section 8). */
export const AUTOSAVE_FRAMES = 3600;

/** Frames between checks for changed coverage (about 2 Hz). */
const COVERAGE_FRAMES = 30;

/** What the survey reads of the live session. */
export type SurveyLive = Pick<LiveService, "tap" | "status" | "session">;

/** The single survey of this process. */
export class SurveyService {
  readonly #deps: Pick<AppDeps, "bus" | "now" | "sourceId" | "log">;
  readonly #live: SurveyLive;
  readonly #saves: SurveySaves;
  #engine: SurveyEngine | null = null;
  /** A run stopped while unlabelled, its evidence kept until it is named or discarded. */
  #pending: SurveyEngine | null = null;
  #circuit: CircuitRef | null = null;
  #untap: (() => void) | null = null;
  #startedAt: string | null = null;
  #lastSave: SurveySave | null = null;
  /** The status the last run ended with, so a view opened after the stop still sees it. */
  #ended: SurveyStatus | null = null;
  #memoryCar: number | null = null;
  #seenChanges = 0;

  /**
   * Creates the service over `live`'s frames; nothing runs until
   * {@linkcode start}. Saves the store refuses wait in `keeper` (by default
   * in memory only).
   */
  constructor(
    deps: Pick<AppDeps, "kv" | "bus" | "now" | "sourceId" | "log">,
    live: SurveyLive,
    keeper?: SurveyKeeper,
  ) {
    this.#deps = deps;
    this.#live = live;
    this.#saves = new SurveySaves(deps, (save) => {
      this.#lastSave = save;
      deps.bus.emit({ type: "bundle", slug: save.slug, track: save.track, reason: "survey" });
      if (this.#engine !== null) this.#emit("save");
    }, keeper);
  }

  /**
   * Stores the saves the store refused and that still wait (those taken
   * back from the spill at start-up first), in order; resolves once tried.
   */
  retryKept(): Promise<void> {
    return this.#saves.retryKept();
  }

  /** True while a run is going. */
  get running(): boolean {
    return this.#engine !== null;
  }

  /** True while a stopped, unlabelled run waits for its circuit name (or a discard). */
  get pending(): boolean {
    return this.#pending !== null;
  }

  /** The slug the running survey saves to, or null (not running or unlabelled). */
  get slug(): string | null {
    return this.#engine === null ? null : this.#circuit?.slug ?? null;
  }

  /**
   * Starts a run, optionally on a named circuit and assuming a track width
   * (default 1.6 m) until one is measured. Frames are taken from this call
   * on; the result reports the run ordinal once the circuit's bundle is read.
   * `body` is already parsed by `startSchema` (survey_body.ts) (the route, or the
   * TUI for typed text), so its label is trimmed and its width in range.
   *
   * @throws {Conflict} while a run is going, or a stopped run waits for its name.
   */
  async start(body: SurveyStart = {}): Promise<SurveyStatus> {
    if (this.#engine !== null) throw new Conflict("a survey is already running; stop it first");
    if (this.#pending !== null) throw new Conflict(pendingRule(this.#pending.evidence.size));
    const engine = new SurveyEngine(body.track_width_m ?? DEFAULT_TRACK_WIDTH);
    this.#engine = engine;
    this.#circuit = null;
    this.#lastSave = null;
    this.#ended = null;
    this.#seenChanges = 0;
    this.#memoryCar = null;
    this.#startedAt = this.#deps.now().toISOString();
    this.#untap = this.#live.tap((frame) => this.#onFrame(frame));
    const carId = this.#live.status().car_id;
    if (carId !== null) this.#loadMemory(engine, carId);
    const label = body.track ?? this.#live.session?.track_name ?? "";
    if (label !== "") this.#enterCircuit(engine, label);
    this.#emit("start");
    await this.#saves.flush();
    return this.status();
  }

  /**
   * Ends the run and saves it, counting it in this installation's run
   * counter (a run with no evidence saves nothing). A run with evidence but
   * no circuit name is kept instead (`pending: true` in the status): naming
   * it with {@linkcode setTrack} saves it, {@linkcode discard} drops it.
   * Returns the final status.
   *
   * @throws {Conflict} when no run is going.
   */
  async stop(): Promise<SurveyStatus> {
    const engine = this.#engine;
    if (engine === null) throw new Conflict("no survey is running");
    this.#untap?.();
    this.#untap = null;
    engine.arm(null);
    if (this.#circuit === null && hasEvidence(engine)) {
      this.#rememberWidth(engine);
      this.#engine = null;
      this.#pending = engine;
      await this.#saves.flush();
      // A name or a discard that landed meanwhile has ended the run already.
      if (this.#pending !== engine) return this.status();
      return this.#end(engine);
    }
    return await this.#finish(engine);
  }

  /**
   * Drops the stopped run that waits for its circuit name: its cells and
   * crossings are forgotten, nothing is saved. Returns the status after.
   *
   * @throws {Conflict} when no stopped run waits.
   */
  discard(): SurveyStatus {
    const engine = this.#pending;
    if (engine === null) {
      throw new Conflict("no stopped survey waits for a name; nothing to discard");
    }
    this.#pending = null;
    this.#ended = null;
    const status = this.status();
    this.#deps.bus.emit({ type: "survey", reason: "stop", status });
    return status;
  }

  /** Saves and counts `engine`'s run, which has ended, and announces its final status. */
  async #finish(engine: SurveyEngine): Promise<SurveyStatus> {
    const saving = this.#saveRun(engine, "stop", true);
    this.#rememberWidth(engine);
    this.#engine = null;
    this.#pending = null;
    try {
      await saving;
    } catch (err) {
      if (!(err instanceof StoreRefused)) throw err;
      // The run has ended all the same; its save waits for room (survey_saves.ts).
      this.#end(engine);
      throw err;
    }
    await this.#saves.flush();
    return this.#end(engine);
  }

  /** Records and announces the status `engine`'s ended run stands at. */
  #end(engine: SurveyEngine): SurveyStatus {
    const status: SurveyStatus = {
      ...this.#status(engine),
      running: false,
      pending: this.#pending === engine,
      run: this.#circuit?.ordinal ?? null,
      mark: null,
      last_save: this.#lastSave,
    };
    this.#ended = status;
    this.#deps.bus.emit({ type: "survey", reason: "stop", status });
    return status;
  }

  /**
   * Names the running survey's circuit (the label is then the driver's and
   * final). Evidence of an unlabelled run is kept for the named circuit.
   * Moving from one circuit to another first saves what was gathered to the
   * old one, uncounted, and starts the new one afresh, so evidence never
   * leaks between circuits. Naming the same circuit again changes nothing.
   * A stopped run waiting for its name is named, saved and counted, and so
   * ends; the final status is returned as {@linkcode stop} returns it.
   *
   * @throws {Conflict} when no run is going and none waits for a name.
   */
  async setTrack(body: SurveyTrack): Promise<SurveyStatus> {
    const waiting = this.#pending;
    if (waiting !== null) {
      this.#enterCircuit(waiting, body.track);
      return await this.#finish(waiting);
    }
    const engine = this.#engine;
    if (engine === null) throw new Conflict("no survey is running; start one first");
    const current = this.#circuit;
    if (current !== null && current.slug === slugify(body.track)) {
      await this.#saves.flush();
      return this.status();
    }
    if (current !== null) {
      void this.#saveRun(engine, "track_change", false);
      engine.resetCircuit();
    }
    this.#enterCircuit(engine, body.track);
    this.#emit("track");
    await this.#saves.flush();
    return this.status();
  }

  /**
   * Arms a manual mark of `kind` (default edge) for `side`, or disarms with
   * side null. While armed, every 2 m driven lays a point of that kind half
   * a track width to that side, and straddle tracing pauses.
   *
   * @throws {Conflict} when no run is going.
   */
  mark(body: SurveyMark): SurveyStatus {
    const engine = this.#engine;
    if (engine === null) throw new Conflict("no survey is running; start one before marking");
    const side: Side | null = body.side;
    engine.arm(side === null ? null : { side, kind: body.kind as MarkKind });
    this.#emit("mark");
    return this.status();
  }

  /**
   * Where the survey stands. While none runs: the figures the last run
   * ended with (`running: false`; `pending: true` while it waits for its
   * name), or zeros before the first run.
   */
  status(): SurveyStatus {
    if (this.#engine === null) {
      if (this.#ended !== null) return this.#ended;
      return {
        running: false,
        pending: false,
        track: "",
        slug: null,
        run: null,
        source_id: this.#deps.sourceId,
        tw_m: DEFAULT_TRACK_WIDTH,
        tw_source: "assumed",
        tw_samples: { cornering: 0, edge_ride: 0 },
        cells: 0,
        cells_by_side: { L: 0, R: 0 },
        mark: null,
        finish: null,
        frames: 0,
        transitions: 0,
        points: { auto: 0, straddle: 0, manual: 0 },
        started_at: null,
        last_save: this.#lastSave,
      };
    }
    return this.#status(this.#engine);
  }

  /** Resolves once every queued load and save has been attempted. */
  async flush(): Promise<void> {
    await this.#saves.flush();
  }

  /**
   * Stops (and so saves) a running survey; waits for queued saves. A run
   * still waiting for its name cannot outlive the process: it is dropped
   * with a warning in the log that says how many cells were lost.
   */
  async shutdown(): Promise<void> {
    if (this.#engine !== null) {
      // A save the full disk refused is kept by the saves and reported by their close.
      await this.stop().catch((err) => {
        if (!(err instanceof StoreRefused)) throw err;
      });
    }
    await this.#saves.flush();
    await this.#saves.close();
    const waiting = this.#pending;
    if (waiting !== null) {
      this.#pending = null;
      this.#deps.log.warn(
        `survey: a stopped run of ${waiting.evidence.size} cells was never named; ` +
          "it is lost with the process",
      );
    }
  }

  #status(engine: SurveyEngine): SurveyStatus {
    const c = engine.counters;
    const width = engine.width;
    return {
      running: true,
      pending: false,
      track: this.#circuit?.label ?? "",
      slug: this.#circuit?.slug ?? null,
      run: this.#circuit?.ordinal ?? null,
      source_id: this.#deps.sourceId,
      tw_m: Math.round(width.tw_m * 1000) / 1000,
      tw_source: width.source,
      tw_samples: engine.widthSamples,
      cells: engine.evidence.size,
      cells_by_side: engine.evidence.countBySide(),
      mark: engine.mark,
      finish: finishLineState([...engine.loadedCrossings, ...engine.crossings]),
      frames: c.frames,
      transitions: c.transitions,
      points: { auto: c.auto, straddle: c.straddle, manual: c.manual },
      started_at: this.#startedAt,
      last_save: this.#lastSave,
    };
  }

  #emit(reason: "start" | "track" | "mark" | "coverage" | "save"): void {
    this.#deps.bus.emit({ type: "survey", reason, status: this.status() });
  }

  #onFrame(frame: Frame): void {
    const engine = this.#engine;
    if (engine === null) return;
    engine.step(frame);
    if (engine.carId !== null && engine.carId !== this.#memoryCar) {
      this.#loadMemory(engine, engine.carId);
    }
    const frames = engine.counters.frames;
    if (frames % COVERAGE_FRAMES === 0 && engine.changes !== this.#seenChanges) {
      this.#seenChanges = engine.changes;
      this.#emit("coverage");
    }
    if (frames % AUTOSAVE_FRAMES === 0) {
      void this.#saveRun(engine, "autosave", false);
      this.#rememberWidth(engine);
    }
  }

  /** Names the run's circuit and queues reading its ordinal and stored crossings. */
  #enterCircuit(engine: SurveyEngine, label: string): void {
    const circuit: CircuitRef = { label, slug: slugify(label), ordinal: null };
    this.#circuit = circuit;
    this.#saves.loadCircuit(circuit, (crossings) => {
      if (this.#circuit === circuit && this.#engine === engine) engine.loadCrossings(crossings);
    });
  }

  #loadMemory(engine: SurveyEngine, carId: number): void {
    this.#memoryCar = carId;
    this.#saves.loadCarWidth(carId, (memory) => {
      if (this.#engine === engine) engine.setMemory(carId, memory);
    });
  }

  #rememberWidth(engine: SurveyEngine): void {
    const carId = engine.carId;
    const measured = engine.measuredWidth();
    if (carId === null || measured === null) return;
    this.#saves.rememberWidth(carId, measured);
  }

  /**
   * Queues a save of what the run holds now (copied at once, so later frames
   * or a circuit change cannot alter it). Unlabelled runs and runs without
   * evidence save nothing.
   */
  #saveRun(
    engine: SurveyEngine,
    reason: SurveySave["reason"],
    countRun: boolean,
  ): Promise<SurveySave | null> {
    const circuit = this.#circuit;
    if (circuit === null) return Promise.resolve(null);
    const cells = engine.evidence.snapshot();
    const crossings = engine.crossings.map((c) => ({ ...c }));
    if (cells.length === 0 && crossings.length === 0) return Promise.resolve(null);
    return this.#saves.save({ circuit, cells, crossings, reason, countRun });
  }
}

/** True when `engine` has gathered anything a save would write. */
function hasEvidence(engine: SurveyEngine): boolean {
  return engine.evidence.size > 0 || engine.crossings.length > 0;
}

/** Why a new run cannot start while a stopped one waits for its name. */
function pendingRule(cells: number): string {
  return `a stopped survey of ${cells} cells waits for its circuit name; ` +
    "name it (POST /api/survey/track) or discard it (POST /api/survey/discard) first";
}
