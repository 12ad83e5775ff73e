/**
 * Runs a one-shot command (import, export, identify) against a store that
 * is opened for it and always closed afterwards.
 *
 * @module
 */
import { type App, type AppOptions, createApp } from "../app/create_app.ts";
import { consoleLog } from "../server/console_log.ts";
import { closeStore, openStore, storePath } from "../storage/kv.ts";

/**
 * Opens `data`, builds the application over it, runs `fn`, then shuts the
 * application down (so writes it queued settle and its watchers stop) and
 * closes the store, folding its write-ahead log into the database file.
 * Both happen whether `fn` succeeds or throws. `hub` is the team hub the
 * command talks to (`push`, `bundles`), none by default.
 */
export async function withStore<T>(
  data: string,
  fn: (app: App) => Promise<T>,
  hub: AppOptions["hub"] = null,
): Promise<T> {
  const kv = await openStore(data);
  let app: App | null = null;
  try {
    app = await createApp({ kv, log: consoleLog, storePath: storePath(kv), hub });
    return await fn(app);
  } finally {
    try {
      await app?.shutdown();
    } finally {
      const closed = closeStore(kv);
      if (closed.problem !== null) {
        consoleLog.warn(`the store's write-ahead log was kept (${closed.problem})`);
      }
    }
  }
}
