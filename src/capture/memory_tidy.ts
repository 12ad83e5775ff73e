/**
 * Giving memory back once a lap is stored. Storing a lap is a burst: its
 * samples are encoded, written and identified, and at a fast replay packets
 * arrive by the thousand. V8 answers a burst by growing its young generation
 * (to about 55 MB here) and leaves what the burst promoted in the old one
 * until a later full collection; the C allocator keeps what the store's
 * writes freed. Nothing of it is live (the heap after a full collection stays
 * near 20 MB however many laps are stored), yet a logger left running after
 * a session showed twice its resident size. One full collection and a
 * malloc_trim(3) a little after each lap return it, for 18-30 ms of the
 * main thread per lap as measured (the receive worker keeps taking packets
 * meanwhile).
 * See docs/performance.md for the measurement: without the collection a
 * logger holds 261.5 MB after 100 laps, without the trim 132.6 MB, against
 * 119.6 MB with both and a target of 130 MB (bench/memory_laps.ts,
 * 2026-11-27), so both stay. The trim goes through the one libc binding,
 * libc_sockets.ts.
 *
 * Everywhere a part can not work (no `--expose-gc` at run time, not glibc,
 * no FFI permission) that part is skipped; nothing here throws.
 *
 * @module
 */
import v8 from "node:v8";
import vm from "node:vm";
import { openSocketLibc } from "./libc_sockets.ts";

/** How long after a lap the tidy runs: the lap's write and identification are over by then. */
export const TIDY_DELAY_MS = 2_000;

/** What a tidy can do in this process. */
export interface TidyParts {
  /** A full garbage collection, or null when the engine offers none. */
  collect: (() => void) | null;
  /** Hands freed C heap back to the system, or null when not on glibc or without FFI. */
  trim: (() => void) | null;
}

let collect: (() => void) | null | undefined;
let trim: (() => void) | null | undefined;

/** The parts available here, found once per isolate. */
export function tidyParts(): TidyParts {
  return { collect: collector(), trim: trimmer() };
}

/**
 * V8's `gc` for this isolate (the main thread's or a worker's), exposed at
 * run time the way Node's documentation shows; null where that fails.
 */
export function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc");
    collect = typeof gc === "function" ? gc as () => void : null;
  } catch {
    collect = null;
  }
  return collect;
}

/** glibc's malloc_trim(0) through FFI; null elsewhere or without FFI permission. */
function trimmer(): (() => void) | null {
  if (trim !== undefined) return trim;
  trim = null;
  if (Deno.build.os === "linux") {
    // Kept open for the process's life: a tidy runs after every lap. Not glibc, or no FFI
    // permission: null, and the trim is skipped.
    const libc = openSocketLibc();
    if (libc !== null) trim = () => void libc.symbols.malloc_trim(0n);
  }
  return trim;
}

/** Runs a tidy now: a full collection, then the trim. */
export function tidyNow(p: TidyParts = tidyParts()): void {
  p.collect?.();
  p.trim?.();
}

/** A tidy that runs once, {@linkcode TIDY_DELAY_MS} after the first request since the last. */
export interface MemoryTidy {
  /** Asks for a tidy; a request while one is pending joins it. */
  request(): void;
  /** Tidies made so far. */
  readonly runs: number;
  /** Cancels a pending tidy; later requests are ignored. */
  stop(): void;
}

/** The timer a tidy waits on: the global one, or a test's own clock. */
export interface TidyTimers {
  /** Calls `fn` once after `ms`; returns what {@linkcode TidyTimers.clear} takes. */
  set(fn: () => void, ms: number): unknown;
  /** Cancels a call `set` scheduled and has not made yet. */
  clear(handle: unknown): void;
}

const GLOBAL_TIMERS: TidyTimers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * A tidy for this process, run {@linkcode TIDY_DELAY_MS} (or `delayMs`) after
 * a request, at most once per delay however many requests arrive: during a
 * fast replay laps end every fraction of a second, and one tidy after them
 * does.
 */
export function memoryTidy(
  opts: { delayMs?: number; parts?: TidyParts; timers?: TidyTimers } = {},
): MemoryTidy {
  const delay = opts.delayMs ?? TIDY_DELAY_MS;
  const timers = opts.timers ?? GLOBAL_TIMERS;
  let timer: unknown;
  let stopped = false;
  let runs = 0;
  return {
    request() {
      if (stopped || timer !== undefined) return;
      timer = timers.set(() => {
        timer = undefined;
        tidyNow(opts.parts ?? tidyParts());
        runs++;
      }, delay);
    },
    get runs() {
      return runs;
    },
    stop() {
      stopped = true;
      if (timer !== undefined) timers.clear(timer);
      timer = undefined;
    },
  };
}
