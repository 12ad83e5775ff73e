/**
 * The application's log port on standard error: what a process running for
 * a user passes to `createApp`, so failures the application survives (a
 * lap write, a listener, a cache) are seen. The application itself never
 * writes to the console.
 *
 * @module
 */
import type { Log } from "../app/log.ts";

/** Writes `message` (and the error, after a colon) to standard error. */
export const consoleLog: Log = {
  warn(message, err) {
    if (err === undefined) console.warn(message);
    else console.warn(`${message}:`, err);
  },
  error(message, err) {
    if (err === undefined) console.error(message);
    else console.error(`${message}:`, err);
  },
};
