/**
 * The survey's one ordered queue of store work: reading a circuit's run
 * ordinal and stored crossings, a car's remembered width, and saving a run.
 * Everything runs in the order it was queued, so a save never overtakes the
 * circuit change or the ordinal it depends on.
 *
 * Saves merge the run into the stored bundle with the one merge (authored
 * corners, sections and the official match kept; run counters not
 * reconciled), through the one atomic writer. Merging the same run twice
 * changes no vote, so autosaves can repeat freely.
 *
 * @module
 */
import { bundleCleanupWarnings } from "../log.ts";
import { isStoreRefusal, StoreRefused } from "../../core/store_refusal.ts";
import { type MergeReport, mergeTables } from "../../core/bundle/merge.ts";
import { tableBundleOf } from "../../core/bundle/table_convert.ts";
import type { FinishCrossing } from "../../core/bundle/types.ts";
import { nextOrdinal, runBundle } from "../../core/survey/run_evidence.ts";
import type { RememberedWidth } from "../../core/survey/track_width.ts";
import { readBundleTable, updateBundle } from "../../storage/bundles.ts";
import { getCarWidth, rememberCarWidth } from "../../storage/car_widths.ts";
import type { AppDeps } from "../deps.ts";
import type { SurveySave } from "./survey_status.ts";
import { retryDelayMs } from "../store/store_retry.ts";
import { type CircuitRef, type RunSnapshot, SurveyKeeper } from "./survey_keeper.ts";

export type { CircuitRef, RunSnapshot } from "./survey_keeper.ts";

/** The survey's ordered store work. */
export class SurveySaves {
  readonly #deps: Pick<AppDeps, "kv" | "now" | "sourceId" | "log">;
  readonly #onSaved: (save: SurveySave) => void;
  #queue: Promise<unknown> = Promise.resolve();
  /**
   * Saves the store refused (its disk full), the newest of each run: a run's
   * later save holds every cell of its earlier ones. Kept in memory and the
   * spill, tried again with a back-off until stored; those only memory
   * holds are reported lost when the process ends first.
   */
  readonly #keeper: SurveyKeeper;
  /** Each run's id in the keeper (a run is its circuit reference). */
  readonly #ids = new WeakMap<CircuitRef, string>();
  #retryTimer: ReturnType<typeof setTimeout> | null = null;
  #retries = 0;
  #closed = false;

  /**
   * Work over `deps.kv`; `onSaved` runs in the queue right after each save
   * is stored, to announce it before the next queued work starts. Refused
   * saves go to `keeper` (by default one in memory only); saves it took
   * back from the spill are stored by {@linkcode retryKept}.
   */
  constructor(
    deps: Pick<AppDeps, "kv" | "now" | "sourceId" | "log">,
    onSaved: (save: SurveySave) => void,
    keeper: SurveyKeeper = new SurveyKeeper(null, deps.log),
  ) {
    this.#deps = deps;
    this.#onSaved = onSaved;
    this.#keeper = keeper;
    for (const kept of keeper.entries()) this.#ids.set(kept.run.circuit, kept.id);
  }

  /**
   * Tries the kept saves now, in the order their runs were first refused,
   * queued like any other work; resolves once tried. One still refused is
   * tried again after a back-off.
   */
  async retryKept(): Promise<void> {
    await this.#enqueue(() => this.#retryRefused()).catch(() => {});
  }

  /** Resolves once every queued load and save has been attempted. */
  async flush(): Promise<void> {
    await this.#queue;
  }

  /**
   * Queues reading `circuit`'s stored bundle: sets the run's ordinal there
   * and hands the stored finish crossings to `onCrossings`.
   */
  loadCircuit(circuit: CircuitRef, onCrossings: (crossings: FinishCrossing[]) => void): void {
    const { kv, sourceId } = this.#deps;
    this.#background(async () => {
      const stored = await readBundleTable(kv, circuit.slug);
      circuit.ordinal = nextOrdinal(stored?.bundle ?? null, sourceId);
      onCrossings(stored?.bundle.finish_crossings ?? []);
    });
  }

  /** Queues reading what is remembered of car `carId`'s width, handed to `onMemory`. */
  loadCarWidth(carId: number, onMemory: (memory: RememberedWidth | null) => void): void {
    this.#background(async () => onMemory(await getCarWidth(this.#deps.kv, carId)));
  }

  /** Queues remembering `measured` as car `carId`'s width. */
  rememberWidth(carId: number, measured: RememberedWidth): void {
    this.#background(() => rememberCarWidth(this.#deps.kv, carId, measured));
  }

  /**
   * Queues saving `run`; resolves with what the save wrote. When the store
   * refuses it (a full disk) the run is kept and tried again after a
   * back-off, and the promise rejects with a 507 {@linkcode StoreRefused}
   * that says so.
   */
  save(run: RunSnapshot): Promise<SurveySave> {
    return this.#enqueue(() => this.#keptWrite(run));
  }

  /** Saves kept after a refusal, not yet stored. */
  get refusedSaves(): number {
    return this.#keeper.size;
  }

  /**
   * Tries the refused saves one last time and stops trying; a save still
   * refused is reported lost (its cells, its circuit). Call at shutdown.
   */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    await this.#enqueue(() => this.#retryRefused()).catch(() => {});
    for (const { run } of this.#keeper.releaseMemoryOnly()) {
      this.#deps.log.error(
        `survey: a run of ${run.cells.length} cells on "${run.circuit.label}" could not be saved ` +
          "(the store's disk is full) and is lost with the process",
      );
    }
    const spilled = this.#keeper.size;
    if (spilled > 0) {
      this.#deps.log.error(
        `survey: ${spilled} runs not yet saved are kept in ${this.#keeper.spillDir}; ` +
          "the next start with room on the store's disk stores them",
      );
    }
  }

  #idOf(circuit: CircuitRef): string {
    let id = this.#ids.get(circuit);
    if (id === undefined) {
      id = crypto.randomUUID();
      this.#ids.set(circuit, id);
    }
    return id;
  }

  async #keptWrite(run: RunSnapshot): Promise<SurveySave> {
    try {
      const save = await this.#write(run);
      this.#keeper.done(this.#idOf(run.circuit));
      return save;
    } catch (err) {
      if (!isStoreRefusal(err)) throw err;
      const id = this.#idOf(run.circuit);
      const earlier = this.#keeper.get(id)?.run;
      // A stop's save counts the run even when only a later save of it gets through.
      this.#keeper.keep(id, { ...run, countRun: run.countRun || !!earlier?.countRun });
      this.#scheduleRetry();
      throw new StoreRefused(
        `the store's disk is full: the survey's save of ${run.cells.length} cells on ` +
          `"${run.circuit.label}" waits and is written once space is freed`,
        507,
        { cause: err },
      );
    }
  }

  async #retryRefused(): Promise<void> {
    for (const { id, run } of this.#keeper.entries()) {
      try {
        await this.#write(run);
      } catch (err) {
        if (!isStoreRefusal(err)) {
          this.#keeper.done(id);
          throw err;
        }
        this.#scheduleRetry();
        return;
      }
      this.#keeper.done(id);
    }
    this.#retries = 0;
  }

  #scheduleRetry(): void {
    if (this.#retryTimer !== null || this.#closed) return;
    const delay = retryDelayMs(this.#retries++);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      this.#background(() => this.#retryRefused());
    }, delay);
  }

  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.catch((err) => {
      if (isStoreRefusal(err)) {
        // The run keeps its cells: the next autosave (or the stop, sent again) writes them all.
        this.#deps.log.warn(`survey: ${(err as Error).message}`);
        return;
      }
      this.#deps.log.error("survey storage failed", err);
    });
    return run;
  }

  #background(task: () => Promise<unknown>): void {
    // Failures are logged by the queue; nobody waits for these.
    this.#enqueue(task).catch(() => {});
  }

  async #write(run: RunSnapshot): Promise<SurveySave> {
    const { kv, sourceId } = this.#deps;
    const { circuit, cells, crossings, reason, countRun } = run;
    const now = this.#deps.now().toISOString();
    const { head, result } = await updateBundle<MergeReport & { ordinal: number }>(
      kv,
      circuit.slug,
      (current) => {
        const ordinal = circuit.ordinal ?? nextOrdinal(current?.bundle ?? null, sourceId);
        const incoming = runBundle(cells, crossings, {
          track: circuit.label,
          source: sourceId,
          ordinal,
          countRun,
          now,
        });
        const merged = mergeTables(current?.bundle ?? null, tableBundleOf(incoming), {
          now,
          // A survey never respells a stored circuit's name.
          track: current?.bundle.meta.track ?? circuit.label,
          keepAuthored: true,
          reconcileRuns: false,
        });
        return { bundle: merged.merged, result: { ...merged.report, ordinal } };
      },
      bundleCleanupWarnings(this.#deps.log),
    );
    circuit.ordinal ??= result.ordinal;
    const save: SurveySave = {
      reason,
      slug: circuit.slug,
      track: head.track,
      generation: head.generation,
      run: result.ordinal,
      cells: cells.length,
      crossings: crossings.length,
      edges_before: result.edgesBefore,
      edges: result.edgesAfter,
      runs: head.runs,
      at: now,
    };
    this.#onSaved(save);
    return save;
  }
}
