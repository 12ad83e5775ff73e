/**
 * Runs a one-shot command (import, export, identify) against a store that
 * is opened for it and always closed afterwards.
 *
 * @module
 */
import { type App, createApp } from "../app/create_app.ts";
import { consoleLog } from "../server/console_log.ts";
import { openStore } from "../storage/kv.ts";

/** Opens `data`, builds the application over it, runs `fn`, and closes the store. */
export async function withStore<T>(data: string, fn: (app: App) => Promise<T>): Promise<T> {
  const kv = await openStore(data);
  try {
    return await fn(await createApp({ kv, log: consoleLog }));
  } finally {
    kv.close();
  }
}
