/**
 * How many pushed lap files one hub process rebuilds at once. A pushed
 * file is held as objects while it is parsed, checked and rebuilt (a few MB
 * for a 6,000-sample lap); 50 loggers pushing at once grew the process by
 * 250 MB (bench/hub_load_bench.ts). Waiting pushes hold only their bytes.
 * The gate is no state of any request: it only orders the work.
 *
 * @module
 */

/** Lap files rebuilt at once per process: two cores' worth of work, and a bit of waiting on SQL. */
export const LAPS_AT_ONCE = 4;

/** Runs tasks with at most `limit` in progress, the others in arrival order. */
export class IntakeGate {
  readonly #limit: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  /** A gate letting `limit` tasks run at once. */
  constructor(limit = LAPS_AT_ONCE) {
    this.#limit = limit;
  }

  /** `task`'s result, once a place was free and it ran; the place is freed whatever it did. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#limit) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running++;
    }
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}
