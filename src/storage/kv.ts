/**
 * Opening the store. One Deno KV database per installation, in the data
 * directory, or in memory for tests and the demo.
 *
 * @module
 */
import { mkdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";

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
    const kv = await opening;
    PATHS.set(kv, resolve(path));
    return kv;
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

/** The database file of each store {@linkcode openStore} opened on disk. */
const PATHS = new WeakMap<Deno.Kv, string>();

/** The absolute path of `kv`'s database file, or null for a store in memory (or not opened by openStore). */
export function storePath(kv: Deno.Kv): string | null {
  return PATHS.get(kv) ?? null;
}

/** The size of the file at `path`, 0 when there is none. */
function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw err;
  }
}

/** What {@linkcode closeStore} did about the write-ahead log. */
export interface StoreClosed {
  /** The database file, or null for a store in memory. */
  path: string | null;
  /** Bytes of write-ahead log left on disk after closing (0 when none). */
  wal_bytes: number;
  /** Why the log could not be folded in, or null when it was (or there was none). */
  problem: string | null;
}

/**
 * Closes `kv` and, for a store on disk, folds its write-ahead log into the
 * database file, so that a clean stop leaves one file behind rather than a
 * log that can outgrow the data. SQLite checkpoints when its last connection
 * closes, but only then: a log still there after `kv.close()` (another
 * connection to the file, or a close SQLite put off) is checkpointed with
 * `PRAGMA wal_checkpoint(TRUNCATE)` through `node:sqlite` and so emptied, and
 * removed if that connection is the last. Call it at a clean stop only, once
 * every write has settled: the store is closed afterwards. Never throws for
 * the log; a checkpoint that fails is reported in `problem`, the data being
 * safe in the log either way.
 */
export function closeStore(kv: Deno.Kv): StoreClosed {
  const path = storePath(kv);
  kv.close();
  if (path === null) return { path, wal_bytes: 0, problem: null };
  const wal = `${path}-wal`;
  let problem: string | null = null;
  try {
    if (fileSize(wal) > 0) problem = checkpointStore(path);
  } catch (err) {
    problem = messageOf(err);
  }
  let left = 0;
  try {
    left = fileSize(wal);
  } catch (err) {
    problem ??= messageOf(err);
  }
  return { path, wal_bytes: left, problem };
}

/**
 * Folds the write-ahead log of the database file at `path` into it and
 * empties the log (`PRAGMA wal_checkpoint(TRUNCATE)`); the log file is
 * removed too when no other connection has the file open. Returns null when
 * done, or why not (a reader holding an older snapshot blocks it). Throws
 * when the file cannot be opened.
 */
export function checkpointStore(path: string): string | null {
  const db = new DatabaseSync(path, { timeout: LOCK_WAIT_MS });
  try {
    const result = db.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get() as { busy?: number };
    return result?.busy ? "the checkpoint was blocked by another connection" : null;
  } finally {
    db.close();
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
