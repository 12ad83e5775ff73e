/**
 * The spill: laps the store refused (its disk full, or open read-only), kept
 * in a second place until the store takes them. One small file per lap,
 * named by its place in line, in a folder of the OS temp directory (or of
 * `--spill DIR`) named after the store, so two stores never share one.
 * Each file is written beside its final name and renamed into place, so a
 * process killed mid-write leaves no half lap that a restart would trust.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { deserialize, serialize } from "node:v8";
import type { SessionKind } from "../core/laps/session.ts";
import type { NewLap } from "./laps.ts";

/** A lap waiting to be stored, as the spill keeps it. */
export interface SpilledLap {
  /** Its place in line: laps are stored in increasing order. */
  seq: number;
  /**
   * The stretch of driving it belongs to (one process's session between two
   * session starts): laps of one segment without a session go into one new session.
   */
  segment: string;
  /** The stored session it belongs to, or null when that session was not stored yet. */
  session_id: number | null;
  /** The kind of session to create for it when there is none. */
  kind: SessionKind;
  /** The lap, exactly as recorded. */
  lap: NewLap;
}

/** One lap file in the spill. */
export interface SpillEntry {
  seq: number;
  bytes: number;
}

/**
 * Where refused laps wait. Every call is synchronous and small; a method
 * that cannot do its job throws the file system's error.
 */
export interface SpillPort {
  /** The folder the lap files live in. */
  readonly dir: string;
  /** Writes `lap` as a file of its own; returns its size in bytes. Leaves nothing when it throws. */
  write(lap: SpilledLap): number;
  /** Reads back the lap of place `seq`; throws when it is missing or unreadable. */
  read(seq: number): SpilledLap;
  /** Removes the lap of place `seq` (and the folder, once empty). Missing is fine. */
  remove(seq: number): void;
  /** The lap files present, in line order; half-written ones are removed, not listed. */
  list(): SpillEntry[];
}

const PREFIX = "lap-";
const SUFFIX = ".v8";
const PARTIAL = ".partial";

/**
 * The spill folder of the store at `storePath` under `base` (the OS temp
 * directory when null): `base/sim-datalogger-spill/<hash of the store's path>`.
 */
export function spillDirFor(storePath: string, base: string | null = null): string {
  const hash = createHash("sha256").update(resolve(storePath)).digest("hex").slice(0, 16);
  return join(base ?? tmpdir(), "sim-datalogger-spill", hash);
}

/**
 * Throws unless folder `path` is a folder (not a link) that no other user
 * can write to and, where owners are known, this user's: the spill's
 * default place is the shared temporary directory, where another user could
 * otherwise make the folder first and plant laps or links in it.
 */
function assertPrivate(path: string): void {
  const info = Deno.lstatSync(path);
  if (!info.isDirectory) throw new Error(`spill folder ${path} is not a folder`);
  let uid: number | null = null;
  try {
    uid = Deno.uid();
  } catch {
    // Not known here (no permission): the mode is still checked.
  }
  if (uid !== null && info.uid !== null && info.uid !== uid) {
    throw new Error(`spill folder ${path} belongs to user ${info.uid}; it must be this user's`);
  }
  if (info.mode !== null && (info.mode & 0o022) !== 0) {
    throw new Error(
      `spill folder ${path} is writable by other users (mode ${
        (info.mode & 0o777).toString(8)
      }); it must be this user's alone`,
    );
  }
}

/**
 * The spill in folder `dir`, created at the first write (this user's alone,
 * as is the folder holding it; see {@linkcode assertPrivate}).
 */
export function fileSpill(dir: string): SpillPort {
  const name = (seq: number) => join(dir, `${PREFIX}${String(seq).padStart(12, "0")}${SUFFIX}`);
  return {
    dir,
    write: (lap) => writeSpillFile(dir, name(lap.seq), lap),
    read(seq) {
      const lap = deserialize(Deno.readFileSync(name(seq))) as SpilledLap;
      if (lap?.seq !== seq || typeof lap.segment !== "string" || !lap.lap?.samples) {
        throw new Error(`spilled lap ${name(seq)} is not a lap this version wrote`);
      }
      return lap;
    },
    remove: (seq) => removeSpillFile(dir, name(seq)),
    list() {
      const found: SpillEntry[] = [];
      for (const { stem, bytes } of listSpillFiles(dir, PREFIX, SUFFIX)) {
        const seq = Number(stem);
        if (Number.isSafeInteger(seq)) found.push({ seq, bytes });
      }
      return found.sort((a, b) => a.seq - b.seq);
    },
  };
}

/**
 * Writes `value` (structured-clone serialised) as file `final` of spill
 * folder `dir`, made first if missing (this user's alone; see
 * {@linkcode assertPrivate}), through a partial file renamed into place, so
 * a file is whole or absent. Returns its size in bytes; leaves nothing when
 * it throws.
 */
export function writeSpillFile(dir: string, final: string, value: unknown): number {
  Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  assertPrivate(dirname(dir));
  assertPrivate(dir);
  const bytes = serialize(value);
  const partial = final + PARTIAL;
  try {
    Deno.writeFileSync(partial, bytes);
    Deno.renameSync(partial, final);
  } catch (err) {
    removeQuietly(partial);
    throw err;
  }
  return bytes.length;
}

/** Removes file `path` of spill folder `dir`, and the folder once empty. Missing is fine. */
export function removeSpillFile(dir: string, path: string): void {
  removeQuietly(path);
  try {
    Deno.removeSync(dir);
  } catch {
    // Not empty (other laps or runs wait there), or gone: either way nothing to do.
  }
}

/**
 * The whole files of spill folder `dir` named `prefix` + stem + `suffix`,
 * by stem, with their sizes (none when the folder does not exist); partial
 * files of that prefix, left by a write that never finished, are removed.
 * Throws when the folder is not private (see {@linkcode assertPrivate}) or
 * cannot be read.
 */
export function listSpillFiles(
  dir: string,
  prefix: string,
  suffix: string,
): { stem: string; bytes: number }[] {
  let entries: Deno.DirEntry[];
  try {
    assertPrivate(dirname(dir));
    assertPrivate(dir);
    entries = [...Deno.readDirSync(dir)];
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
  const found: { stem: string; bytes: number }[] = [];
  for (const e of entries) {
    if (!e.isFile || !e.name.startsWith(prefix)) continue;
    if (e.name.endsWith(PARTIAL)) {
      removeQuietly(join(dir, e.name));
      continue;
    }
    if (!e.name.endsWith(suffix)) continue;
    const stem = e.name.slice(prefix.length, -suffix.length);
    found.push({ stem, bytes: Deno.statSync(join(dir, e.name)).size });
  }
  return found;
}

/** Removes file `path`; one already gone is fine. */
function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // Already gone.
  }
}
