/**
 * The application's log port on standard error: what a process running for
 * a user passes to `createApp`, so failures the application survives (a
 * lap write, a listener, a cache) are seen. The application itself never
 * writes to the console.
 *
 * @module
 */
import type { Log } from "../app/log.ts";
import { isStoreRefusal } from "../core/store_refusal.ts";

/**
 * Writes `message` (and the error, after a colon) to standard error. A
 * refusal of the store (a full disk) is written as its one sentence, not a
 * stack trace: it is the driver's disk, not a bug, and the store's health
 * says what to do.
 */
export const consoleLog: Log = {
  warn(message, err) {
    if (err === undefined) console.warn(message);
    else if (isStoreRefusal(err)) console.warn(`${message}: ${(err as Error).message}`);
    else console.warn(`${message}:`, err);
  },
  error(message, err) {
    if (err === undefined) console.error(message);
    else if (isStoreRefusal(err)) console.error(`${message}: ${(err as Error).message}`);
    else console.error(`${message}:`, err);
  },
};
