/**
 * The survey's spill: survey saves the store refused (its disk full, or
 * open read-only), kept beside the laps' spill (same folder, see spill.ts)
 * until the store takes them. One file per survey run, holding that run's
 * newest save only (a run's later save holds every cell of its earlier
 * ones), named `survey-<run id>.v8`. Each file is written beside its final
 * name and renamed into place, so a newer save replaces the older one
 * whole, and a process killed mid-write leaves no half save a restart
 * would trust.
 *
 * @module
 */
import { join } from "node:path";
import { deserialize } from "node:v8";
import type { FinishCrossing } from "../core/bundle/types.ts";
import type { RunCell } from "../core/survey/run_evidence.ts";
import { listSpillFiles, removeSpillFile, writeSpillFile } from "./spill.ts";

/** A survey save waiting to be stored, as the spill keeps it. */
export interface SpilledSurvey {
  /** The run's id: letters, digits and dashes (a UUID). */
  id: string;
  /** Its place in line: the run refused first has the lowest. */
  seq: number;
  /** The run's circuit: its label, slug, and its run ordinal there when known. */
  circuit: { label: string; slug: string; ordinal: number | null };
  cells: RunCell[];
  crossings: FinishCrossing[];
  /** Why the save was asked for (`autosave`, `stop`, `track_change`). */
  reason: string;
  /** Counts the run in the installation's run counter. */
  countRun: boolean;
}

/** One survey file in the spill. */
export interface SurveySpillEntry {
  id: string;
  bytes: number;
}

/**
 * Where refused survey saves wait. Every call is synchronous and small; a
 * method that cannot do its job throws the file system's error.
 */
export interface SurveySpillPort {
  /** The folder the files live in. */
  readonly dir: string;
  /** Writes `save` as its run's file, replacing an older one whole; returns its size in bytes. */
  write(save: SpilledSurvey): number;
  /** Reads back the save of run `id`; throws when it is missing or unreadable. */
  read(id: string): SpilledSurvey;
  /** Removes the save of run `id` (and the folder, once empty). Missing is fine. */
  remove(id: string): void;
  /** The survey files present; half-written ones are removed, not listed. */
  list(): SurveySpillEntry[];
}

const PREFIX = "survey-";
const SUFFIX = ".v8";
const ID = /^[0-9A-Za-z-]{1,64}$/;

/**
 * The survey spill in folder `dir` (the laps' spill folder: `spillDirFor`
 * of spill.ts), created at the first write, this user's alone.
 */
export function fileSurveySpill(dir: string): SurveySpillPort {
  const name = (id: string) => {
    if (!ID.test(id)) throw new Error(`survey run id "${id}" must be letters, digits and dashes`);
    return join(dir, `${PREFIX}${id}${SUFFIX}`);
  };
  return {
    dir,
    write: (save) => writeSpillFile(dir, name(save.id), save),
    read(id) {
      const save = deserialize(Deno.readFileSync(name(id))) as SpilledSurvey;
      if (
        save?.id !== id || !Number.isSafeInteger(save.seq) ||
        typeof save.circuit?.slug !== "string" || !Array.isArray(save.cells) ||
        !Array.isArray(save.crossings) || typeof save.countRun !== "boolean"
      ) {
        throw new Error(`spilled survey save ${name(id)} is not a save this version wrote`);
      }
      return save;
    },
    remove: (id) => removeSpillFile(dir, name(id)),
    list() {
      const found: SurveySpillEntry[] = [];
      for (const { stem: id, bytes } of listSpillFiles(dir, PREFIX, SUFFIX)) {
        if (ID.test(id)) found.push({ id, bytes });
      }
      return found.sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    },
  };
}
