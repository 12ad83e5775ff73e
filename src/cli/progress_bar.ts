/**
 * A one-line progress bar for long command-line work (such as importing a
 * capture): redrawn in place on a terminal, silent otherwise, so piped output
 * and logs carry only the final summary. Self-contained: it depends on
 * nothing else in the project.
 *
 * @module
 */

/** What the bar shows. */
export interface ProgressState {
  /** Units done. */
  done: number;
  /** Units in all. */
  total: number;
  /** Units per second, or null before a rate can be told. */
  rate: number | null;
  /** Laps stored so far. */
  laps: number;
}

/** Options of {@linkcode startProgressBar}; the defaults draw on standard error. */
export interface ProgressBarOptions {
  /** What is counted, plural ("packets"). */
  unit: string;
  /** Draw at all; default: standard error is a terminal. */
  enabled?: boolean;
  /** Where the line goes; default: standard error. */
  write?: (text: string) => void;
  /** Terminal width; default: the console's, else 80. */
  columns?: number;
  /** The clock, ms; default `performance.now`. */
  now?: () => number;
}

/** A running bar. */
export interface ProgressBar {
  /** Redraws with the counts given. */
  update(counts: { done: number; total: number; laps: number }): void;
  /** Clears the line, leaving the terminal as it was. Idempotent. */
  clear(): void;
}

const BAR_CELLS = 20;
const number = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/**
 * The bar's text for `state`, at most `columns - 1` characters: the bar with
 * its percentage, the counts, the rate and the laps. Parts that do not fit
 * are dropped from the left (the bar first, then the percentage).
 */
export function renderProgress(state: ProgressState, unit: string, columns: number): string {
  const fraction = state.total > 0 ? Math.min(1, state.done / state.total) : 1;
  const filled = Math.round(fraction * BAR_CELLS);
  const bar = `[${"#".repeat(filled)}${"-".repeat(BAR_CELLS - filled)}] `;
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  const counts = `${number.format(state.done)}/${number.format(state.total)} ${unit}`;
  const rate = state.rate === null ? null : `${number.format(state.rate)}/s`;
  const laps = `${number.format(state.laps)} ${state.laps === 1 ? "lap" : "laps"} stored`;
  const tail = [counts, rate, laps].filter((p) => p !== null).join("  ");
  const width = columns - 1;
  for (const line of [`${bar}${percent}  ${tail}`, `${percent.trim()}  ${tail}`, tail]) {
    if (line.length <= width) return line;
  }
  return tail.slice(0, Math.max(0, width));
}

function consoleColumns(): number {
  try {
    return Deno.consoleSize().columns;
  } catch {
    return 80;
  }
}

/**
 * Starts a bar. When disabled (by default, whenever standard error is not a
 * terminal) `update` and `clear` do nothing.
 */
export function startProgressBar(opts: ProgressBarOptions): ProgressBar {
  const enabled = opts.enabled ?? Deno.stderr.isTerminal();
  const encoder = new TextEncoder();
  const write = opts.write ?? ((text: string) => Deno.stderr.writeSync(encoder.encode(text)));
  const now = opts.now ?? (() => performance.now());
  const started = now();
  let drawn = false;
  return {
    update({ done, total, laps }) {
      if (!enabled) return;
      const seconds = (now() - started) / 1000;
      const rate = seconds > 0 && done > 0 ? done / seconds : null;
      const columns = opts.columns ?? consoleColumns();
      write(`\r${renderProgress({ done, total, rate, laps }, opts.unit, columns)}\x1b[K`);
      drawn = true;
    },
    clear() {
      if (!drawn) return;
      write("\r\x1b[K");
      drawn = false;
    },
  };
}
