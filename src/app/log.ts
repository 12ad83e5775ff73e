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
