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
import { isStoreRefusal } from "../core/store_refusal.ts";
import { messageOf } from "../core/errors.ts";
import { diskProbe } from "./disk_space.ts";

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
  /**
   * When the disk is too full to open the store for writing, open it
   * read-only instead of failing (see {@linkcode readOnlyReason}).
   */
  readOnlyFallback?: boolean;
}

/** Room SQLite needs to open a store in write-ahead mode: the log's shared-memory index. */
export const OPEN_NEEDS_BYTES = 32 * 1024;

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
    const why = messageOf(err);
    if (/locked|busy/i.test(why)) throw locked();
    if (isStoreRefusal(err)) {
      const full = fullDiskMessage(path, why);
      if (!opts.readOnlyFallback) throw new StoreUnavailable(full, { cause: err });
      return await openReadOnly(path, full);
    }
    throw new StoreUnavailable(`cannot open the data store ${path}: ${why}`, { cause: err });
  }
}

/**
 * Why the store at `path` could not be opened for writing (SQLite said
 * `why`), with the room it needs and what to do.
 */
function fullDiskMessage(path: string, why: string): string {
  const free = diskProbe(path).freeBytes();
  const wal = fileSize(`${path}-wal`);
  const needs = OPEN_NEEDS_BYTES + wal;
  return `the data store ${path} cannot be opened for writing (${why}): its disk has ` +
    `${free === null ? "an unknown amount" : formatBytes(free)} free, and opening it needs about ` +
    `${formatBytes(needs)} (${formatBytes(OPEN_NEEDS_BYTES)} for the index of its write-ahead log` +
    (wal > 0 ? ` and ${formatBytes(wal)} to fold that log into the database` : "") +
    `); free space on that disk, or copy the data directory to a disk with room and pass --data`;
}

/** `n` bytes in KiB or MB, for a driver. */
function formatBytes(n: number): string {
  return n < 2 ** 20 ? `${Math.ceil(n / 1024)} KiB` : `${(n / 2 ** 20).toFixed(1)} MB`;
}

/**
 * Opens the store at `path` read-only, for a disk too full to open it
 * otherwise. With a write-ahead log on disk SQLite's `mode=ro` reads it
 * through its existing index (committed laps there included); without one
 * the file alone is the whole store and `immutable=1` needs no index file
 * at all. Throws {@linkcode StoreUnavailable} with `full` and why not.
 */
async function openReadOnly(path: string, full: string): Promise<Deno.Kv> {
  const wal = fileSize(`${path}-wal`);
  const uri = `file:${path.replace(/%/g, "%25").replace(/\?/g, "%3f").replace(/#/g, "%23")}` +
    (wal > 0 ? "?mode=ro" : "?immutable=1");
  let kv: Deno.Kv | null = null;
  try {
    kv = await Deno.openKv(uri);
    // Opening is lazy: a read proves the file can be read this way.
    await kv.get(["meta", "opened_at"]);
  } catch (err) {
    kv?.close();
    const why = messageOf(err);
    throw new StoreUnavailable(`${full}. It cannot be opened read-only either (${why}).`, {
      cause: err,
    });
  }
  PATHS.set(kv, resolve(path));
  READ_ONLY.set(
    kv,
    `${full}. Started read-only: laps, sessions and bundles can be read, changes are refused, ` +
      `and laps driven now wait in the spill until a restart with room stores them`,
  );
  return kv;
}

/** Why each store opened read-only is so. */
const READ_ONLY = new WeakMap<Deno.Kv, string>();

/** Why `kv` was opened read-only (with what to do), or null when it was opened for writing. */
export function readOnlyReason(kv: Deno.Kv): string | null {
  return READ_ONLY.get(kv) ?? null;
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
  const readOnly = READ_ONLY.has(kv);
  kv.close();
  if (path === null) return { path, wal_bytes: 0, problem: null };
  if (readOnly) {
    // Read-only, it could fold nothing in: a log stays for a start with room to fold it.
    const wal = fileSize(`${path}-wal`);
    return { path, wal_bytes: wal, problem: wal > 0 ? "the store was open read-only" : null };
  }
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
