/**
 * Laps the store refused, kept in line until it takes them. Each is held in
 * memory and written to the spill (a second place, see storage/spill.ts);
 * past the memory bound a spilled lap is let go from memory and read back
 * when its turn comes, and past the spill bound the oldest spilled lap is
 * removed from the spill. A lap that is then neither in memory nor in the
 * spill is dropped: the oldest unsaved lap always goes first, and every
 * drop is counted and told to the log, never silent.
 *
 * @module
 */
import type { SessionKind } from "../../core/laps/session.ts";
import { messageOf } from "../../core/errors.ts";
import type { NewLap } from "../../storage/laps.ts";
import type { SpilledLap, SpillEntry, SpillPort } from "../../storage/spill.ts";
import { readSpill } from "./spill_reading.ts";
import type { Log } from "../log.ts";

/**
 * Bytes of recorded laps held in memory by default: about 40 laps of 97 s
 * (a synthetic Suzuka-length lap of 5,800 samples is 1.6 MB by this estimate).
 */
export const KEEP_MEMORY_BYTES = 64 * 2 ** 20;
/** Bytes of spilled laps by default: about 140 laps of 97 s (1.8 MB each as spilled). */
export const KEEP_SPILL_BYTES = 256 * 2 ** 20;

/** Bounds of a {@linkcode LapKeeper}. */
export interface KeeperBounds {
  /** Bytes of laps held in memory (estimated: 8 bytes a sample value). */
  memoryBytes: number;
  /** Bytes of lap files in the spill. */
  spillBytes: number;
}

/** One lap in line. */
export interface WaitingLap {
  seq: number;
  segment: string;
  session_id: number | null;
  kind: SessionKind;
  /** The lap in memory, or null when only the spill holds it. */
  lap: NewLap | null;
  /** Its estimated size in memory, bytes. */
  memory: number;
  /** Its file's size in the spill, or null when it is not there. */
  spilled: number | null;
}

/** What the keeper holds, for status. */
export interface KeeperCounts {
  /** Laps in line, not yet stored. */
  waiting: number;
  /** Laps let go past the bounds (or unreadable in the spill) since the process started. */
  dropped: number;
  /** The spill's folder, or null when there is none. */
  spill: string | null;
  /** Why the last spill write failed, or null when it did not. */
  spill_error: string | null;
}

/** The memory a lap's samples take, estimated at 8 bytes a value. */
export function lapMemory(lap: NewLap): number {
  let values = 0;
  for (const column of Object.values(lap.samples)) values += column?.length ?? 0;
  return values * 8 + 1024;
}

/** The line of laps waiting for the store. */
export class LapKeeper {
  readonly #spill: SpillPort | null;
  readonly #bounds: KeeperBounds;
  readonly #log: Log;
  readonly #line: WaitingLap[] = [];
  #next = 1;
  #dropped = 0;
  #spillError: string | null = null;

  /** A keeper spilling to `spill` (null: memory only) within `bounds`. */
  constructor(spill: SpillPort | null, log: Log, bounds: Partial<KeeperBounds> = {}) {
    this.#spill = spill;
    this.#log = log;
    this.#bounds = {
      memoryBytes: bounds.memoryBytes ?? KEEP_MEMORY_BYTES,
      spillBytes: bounds.spillBytes ?? KEEP_SPILL_BYTES,
    };
  }

  /** The counts status shows. */
  counts(): KeeperCounts {
    return {
      waiting: this.#line.length,
      dropped: this.#dropped,
      spill: this.#spill?.dir ?? null,
      spill_error: this.#spillError,
    };
  }

  /** Laps in line that the spill does not hold: they die with the process. */
  get memoryOnly(): number {
    return this.#line.filter((w) => w.spilled === null).length;
  }

  /** Laps in line. */
  get size(): number {
    return this.#line.length;
  }

  /** The first lap in line, or undefined. */
  first(): WaitingLap | undefined {
    return this.#line[0];
  }

  /**
   * Takes the laps a process before this one spilled and never stored, in
   * their order, ahead of any kept from now on. Returns how many.
   */
  recover(): number {
    const spill = this.#spill;
    if (spill === null) return 0;
    const readable = readSpill<SpillEntry, SpilledLap>(
      {
        dir: spill.dir,
        list: () => spill.list(),
        read: (e) => spill.read(e.seq),
        remove: (e) => spill.remove(e.seq),
      },
      this.#log,
      "lap",
      () => this.#dropped++,
      (e, lap) => {
        this.#line.push({
          seq: lap.seq,
          segment: lap.segment,
          session_id: lap.session_id,
          kind: lap.kind,
          lap: null,
          memory: 0,
          spilled: e.bytes,
        });
        this.#next = Math.max(this.#next, lap.seq + 1);
      },
    );
    if (!readable) return 0;
    return this.#line.length;
  }

  /** Puts `lap` at the end of the line: held in memory and spilled, then the bounds applied. */
  keep(lap: Omit<SpilledLap, "seq">): void {
    const seq = this.#next++;
    const waiting: WaitingLap = { ...lap, seq, memory: lapMemory(lap.lap), spilled: null };
    if (this.#spill !== null) {
      try {
        waiting.spilled = this.#spill.write({ ...lap, seq });
        this.#spillError = null;
      } catch (err) {
        this.#spillError = messageOf(err);
      }
    }
    this.#line.push(waiting);
    this.#bound();
  }

  /** The lap of `w`, from memory or read back from the spill; throws when the spill lost it. */
  lapOf(w: WaitingLap): NewLap {
    if (w.lap !== null) return w.lap;
    if (this.#spill === null) throw new Error(`lap ${w.seq} is neither in memory nor spilled`);
    return this.#spill.read(w.seq).lap;
  }

  /** Takes `w` (the first in line) out of the line and the spill: it is stored. */
  done(w: WaitingLap): void {
    this.#remove(w);
  }

  /** Takes `w` out of the line as lost, counted and logged with `why`. */
  drop(w: WaitingLap, why: string): void {
    this.#remove(w);
    this.#dropped++;
    this.#log.error(`a lap waiting for the store was lost: ${why}`);
  }

  #remove(w: WaitingLap): void {
    const i = this.#line.indexOf(w);
    if (i >= 0) this.#line.splice(i, 1);
    if (w.spilled !== null) this.#spill?.remove(w.seq);
  }

  #bound(): void {
    let spilled = this.#line.reduce((sum, w) => sum + (w.spilled ?? 0), 0);
    for (const w of [...this.#line]) {
      if (spilled <= this.#bounds.spillBytes) break;
      if (w.spilled === null) continue;
      this.#spill?.remove(w.seq);
      spilled -= w.spilled;
      w.spilled = null;
      if (w.lap === null) this.drop(w, "past the spill's bound, the oldest waiting lap goes first");
    }
    let memory = this.#line.reduce((sum, w) => sum + (w.lap ? w.memory : 0), 0);
    for (const w of [...this.#line]) {
      if (memory <= this.#bounds.memoryBytes) break;
      if (w.lap === null) continue;
      memory -= w.memory;
      if (w.spilled !== null) w.lap = null;
      else {
        this.drop(
          w,
          "past the memory bound with the spill full or unwritable, the oldest waiting lap goes first",
        );
      }
    }
  }
}
