/**
 * The log port through which the application reports failures it survives
 * (a failed lap write, a throwing listener, a cache not kept). The
 * application never writes to the console itself: the process that creates
 * it decides where a report goes (src/server/console_log.ts writes to stderr).
 *
 * @module
 */

/**
 * Where the application reports failures it survives. `message` says what
 * failed; `err` is what was thrown, when there was something.
 */
export interface Log {
  /** Something went wrong but nothing was lost (a cache not kept, a cleanup left to a sweep). */
  warn(message: string, err?: unknown): void;
  /** Something went wrong and a write or a listener's work was lost. */
  error(message: string, err?: unknown): void;
}

/**
 * A log that keeps nothing: the default of `createApp`, so an application a
 * test builds without saying where reports go stays quiet. A process that
 * runs for a user passes a real one.
 */
export const silentLog: Log = {
  warn() {},
  error() {},
};

/**
 * The `updateBundle` option that reports a failed best-effort cleanup as a
 * warning: the bundle is fine, and the start-up sweep removes what was left.
 */
export function bundleCleanupWarnings(
  log: Log,
): { onCleanupFailure: (what: string, err: unknown) => void } {
  return {
    onCleanupFailure: (what, err) =>
      log.warn(`bundle store: ${what} failed (the start-up sweep will retry)`, err),
  };
}

/** Where a diverted log line goes: the line, and whether it reports a loss (`error`). */
export type LogLineSink = (line: string, level: "warn" | "error") => void;

/**
 * `message` and what was thrown as one line of text: the error's own
 * message (its first line), never a stack trace, so it fits a notice line.
 */
export function logLine(message: string, err?: unknown): string {
  if (err === undefined) return message;
  const why = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return `${message}: ${why.split("\n")[0]}`;
}

/**
 * A log that writes to `fallback` until a face that owns the terminal (the
 * dashboard) diverts it: from then until the diversion ends, every report
 * goes to that face as one line ({@linkcode logLine}) and none to
 * `fallback`, so nothing the application or a request reports writes raw
 * text over the screen.
 */
export class RoutedLog implements Log {
  readonly #fallback: Log;
  #sink: LogLineSink | null = null;

  /** A log writing to `fallback` while no diversion is in force. */
  constructor(fallback: Log) {
    this.#fallback = fallback;
  }

  /** Reports a warning to the diversion, else to the fallback. */
  warn(message: string, err?: unknown): void {
    if (this.#sink) this.#sink(logLine(message, err), "warn");
    else this.#fallback.warn(message, err);
  }

  /** Reports an error to the diversion, else to the fallback. */
  error(message: string, err?: unknown): void {
    if (this.#sink) this.#sink(logLine(message, err), "error");
    else this.#fallback.error(message, err);
  }

  /**
   * Sends every report to `sink` instead of the fallback until the returned
   * function is called; a later diversion replaces an earlier one, and
   * ending a replaced one changes nothing.
   */
  divert(sink: LogLineSink): () => void {
    this.#sink = sink;
    return () => {
      if (this.#sink === sink) this.#sink = null;
    };
  }
}
