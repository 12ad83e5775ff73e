/**
 * Opening the store. One Deno KV database per installation, in the data
 * directory, or in memory for tests and the demo.
 *
 * @module
 */
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** File name of the database inside the data directory. */
export const DB_FILE = "sim-datalogger.db";

/** The user's data directory for sim-datalogger, following the XDG convention. */
export function defaultDataDir(): string {
  const xdg = Deno.env.get("XDG_DATA_HOME");
  if (xdg) return join(xdg, "sim-datalogger");
  if (Deno.build.os === "windows") {
    const base = Deno.env.get("LOCALAPPDATA") ?? join(homedir(), "AppData", "Local");
    return join(base, "sim-datalogger");
  }
  if (Deno.build.os === "darwin") {
    return join(homedir(), "Library", "Application Support", "sim-datalogger");
  }
  return join(homedir(), ".local", "share", "sim-datalogger");
}

/** Raised when the database cannot be opened, with a message a driver can act on. */
export class StoreUnavailable extends Error {
  /** Creates the error, keeping the original cause. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "StoreUnavailable";
  }
}

/** How long {@linkcode openStore} waits for a locked database by default. */
export const LOCK_WAIT_MS = 5_000;

/** Options of {@linkcode openStore}. */
export interface OpenStoreOptions {
  /** How long to wait for a database another process holds locked. */
  lockWaitMs?: number;
}

/**
 * Opens the store in `dataDir` (created when missing), or in memory when
 * `dataDir` is ":memory:". Resolves only once a write has gone through, so a
 * database that another process holds locked is reported as
 * {@linkcode StoreUnavailable} after `lockWaitMs` instead of hanging, and the
 * handle is closed again.
 */
export async function openStore(dataDir: string, opts: OpenStoreOptions = {}): Promise<Deno.Kv> {
  if (dataDir === ":memory:") return await Deno.openKv(":memory:");
  const path = join(dataDir, DB_FILE);
  const locked = () =>
    new StoreUnavailable(
      `the data store ${path} is locked by another process; ` +
        `stop it or pass a different --data directory`,
    );
  const opening = (async () => {
    mkdirSync(dataDir, { recursive: true });
    const kv = await Deno.openKv(path);
    try {
      // A locked file makes opening or any later operation wait forever; a
      // bounded first write proves the file is usable.
      await kv.set(["meta", "opened_at"], new Date().toISOString());
      return kv;
    } catch (err) {
      kv.close();
      throw err;
    }
  })();
  try {
    if (!await settlesWithin(opening, opts.lockWaitMs ?? LOCK_WAIT_MS)) {
      // Whatever it resolves to later is unusable; close it and swallow its failure.
      opening.then((kv) => kv.close(), () => {});
      throw locked();
    }
    return await opening;
  } catch (err) {
    if (err instanceof StoreUnavailable) throw err;
    const why = err instanceof Error ? err.message : String(err);
    if (/locked|busy/i.test(why)) throw locked();
    throw new StoreUnavailable(`cannot open the data store ${path}: ${why}`, { cause: err });
  }
}

/** True when `p` fulfils within `ms`; rethrows its rejection. */
async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([p.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
