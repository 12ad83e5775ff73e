/**
 * Survey saves the store refused, kept until it takes them: the newest save
 * of each run only (a run's later save holds every cell of its earlier
 * ones), held in memory and written to the survey spill (storage/
 * survey_spill.ts, beside the laps' spill). Bounded: at most
 * {@linkcode SURVEY_KEEP_RUNS} runs, and {@linkcode SURVEY_SPILL_BYTES} of
 * spill files; past either, the run refused first goes first (from the
 * spill, then, when only memory holds it past the run bound, altogether),
 * every run lost counted and told to the log, never silent.
 *
 * @module
 */
import type {
  SpilledSurvey,
  SurveySpillEntry,
  SurveySpillPort,
} from "../../storage/survey_spill.ts";
import { readSpill } from "../store/spill_reading.ts";
import type { Log } from "../log.ts";
import type { FinishCrossing } from "../../core/bundle/types.ts";
import type { RunCell } from "../../core/survey/run_evidence.ts";
import type { SurveySave } from "./survey_status.ts";

/** The circuit a run is on: its label, slug and (once loaded) this run's ordinal there. */
export interface CircuitRef {
  label: string;
  slug: string;
  ordinal: number | null;
}

/** What a run hands over to be saved, copied at the moment the save was asked for. */
export interface RunSnapshot {
  circuit: CircuitRef;
  cells: RunCell[];
  crossings: FinishCrossing[];
  reason: SurveySave["reason"];
  /** Counts the run in this installation's run counter (a stop does; autosaves do not). */
  countRun: boolean;
}

/** Runs whose refused save is kept by default (one runs at a time; a few a day at most). */
export const SURVEY_KEEP_RUNS = 16;
/** Bytes of survey files in the spill by default (a 20 km circuit's run is about 2 MB). */
export const SURVEY_SPILL_BYTES = 64 * 2 ** 20;

/** Bounds of a {@linkcode SurveyKeeper}. */
export interface SurveyKeeperBounds {
  /** Runs kept (in memory, or in the spill only after a restart). */
  runs: number;
  /** Bytes of survey files in the spill. */
  spillBytes: number;
}

/** One run's kept save. */
export interface KeptSurvey {
  id: string;
  seq: number;
  run: RunSnapshot;
  /** Its file's size in the spill, or null when only memory holds it. */
  spilled: number | null;
}

/** What the keeper holds, for status. */
export interface SurveyKeeperCounts {
  /** Runs whose newest save waits for the store. */
  waiting: number;
  /** Runs lost past the bounds (or unreadable in the spill) since the process started. */
  dropped: number;
}

/** The refused survey saves, one per run, in the order their runs were first refused. */
export class SurveyKeeper {
  readonly #spill: SurveySpillPort | null;
  readonly #log: Log;
  readonly #bounds: SurveyKeeperBounds;
  readonly #kept = new Map<string, KeptSurvey>();
  #next = 1;
  #dropped = 0;
  /** Called after every change of the counts (the store's health listens). */
  onChange: () => void = () => {};

  /** A keeper spilling to `spill` (null: memory only) within `bounds`. */
  constructor(
    spill: SurveySpillPort | null,
    log: Log,
    bounds: Partial<SurveyKeeperBounds> = {},
  ) {
    this.#spill = spill;
    this.#log = log;
    this.#bounds = {
      runs: bounds.runs ?? SURVEY_KEEP_RUNS,
      spillBytes: bounds.spillBytes ?? SURVEY_SPILL_BYTES,
    };
  }

  /** The counts status shows. */
  counts(): SurveyKeeperCounts {
    return { waiting: this.#kept.size, dropped: this.#dropped };
  }

  /** Runs kept. */
  get size(): number {
    return this.#kept.size;
  }

  /** The spill's folder, or null when saves wait in memory only. */
  get spillDir(): string | null {
    return this.#spill?.dir ?? null;
  }

  /** The kept saves, the run refused first first. */
  entries(): KeptSurvey[] {
    return [...this.#kept.values()].sort((a, b) => a.seq - b.seq);
  }

  /** The kept save of run `id`, or undefined. */
  get(id: string): KeptSurvey | undefined {
    return this.#kept.get(id);
  }

  /**
   * Takes the saves a process before this one spilled and never stored,
   * ahead of any kept from now on. Returns how many.
   */
  recover(): number {
    const spill = this.#spill;
    if (spill === null) return 0;
    const readable = readSpill<SurveySpillEntry, SpilledSurvey>(
      {
        dir: spill.dir,
        list: () => spill.list(),
        read: (e) => spill.read(e.id),
        remove: (e) => spill.remove(e.id),
      },
      this.#log,
      "survey save",
      () => this.#dropped++,
      (e, save) => {
        const { id, seq, circuit, cells, crossings, reason, countRun } = save;
        this.#kept.set(id, {
          id,
          seq,
          run: {
            circuit: { ...circuit },
            cells,
            crossings,
            reason: reason as RunSnapshot["reason"],
            countRun,
          },
          spilled: e.bytes,
        });
        this.#next = Math.max(this.#next, seq + 1);
      },
    );
    if (!readable) return 0;
    if (this.#kept.size > 0) this.onChange();
    return this.#kept.size;
  }

  /**
   * Keeps `run` as run `id`'s newest save, replacing an older one (in
   * memory and in the spill, whole), then applies the bounds.
   */
  keep(id: string, run: RunSnapshot): void {
    const earlier = this.#kept.get(id);
    const kept: KeptSurvey = { id, seq: earlier?.seq ?? this.#next++, run, spilled: null };
    if (this.#spill !== null) {
      try {
        kept.spilled = this.#spill.write({
          id,
          seq: kept.seq,
          circuit: { ...run.circuit },
          cells: run.cells,
          crossings: run.crossings,
          reason: run.reason,
          countRun: run.countRun,
        });
      } catch (err) {
        // The older file is older evidence of this run: removed, so a restart never stores less.
        if (earlier?.spilled != null) this.#spill.remove(id);
        this.#log.warn(`a survey save could not be spilled to ${this.#spill.dir}`, err);
      }
    }
    this.#kept.set(id, kept);
    this.#bound();
    this.onChange();
  }

  /** Run `id`'s save is stored: out of memory and the spill. */
  done(id: string): void {
    const kept = this.#kept.get(id);
    if (kept === undefined) return;
    this.#kept.delete(id);
    if (kept.spilled !== null) this.#spill?.remove(id);
    this.onChange();
  }

  /**
   * Lets go of every save only memory holds (they die with the process)
   * and returns them; those in the spill stay for the next start.
   */
  releaseMemoryOnly(): KeptSurvey[] {
    const lost = this.entries().filter((k) => k.spilled === null);
    for (const k of lost) this.#kept.delete(k.id);
    return lost;
  }

  #bound(): void {
    let spilled = 0;
    for (const k of this.#kept.values()) spilled += k.spilled ?? 0;
    for (const k of this.entries()) {
      if (spilled <= this.#bounds.spillBytes) break;
      if (k.spilled === null) continue;
      this.#spill?.remove(k.id);
      spilled -= k.spilled;
      k.spilled = null;
    }
    for (const k of this.entries()) {
      if (this.#kept.size <= this.#bounds.runs) break;
      this.#kept.delete(k.id);
      if (k.spilled !== null) this.#spill?.remove(k.id);
      this.#dropped++;
      this.#log.error(
        `a survey save waiting for the store was lost: a run of ${k.run.cells.length} cells on ` +
          `"${k.run.circuit.label}", past the bound of ${this.#bounds.runs} runs (the oldest goes first)`,
      );
    }
  }
}
