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

/**
 * Opens the store in `dataDir` (created when missing), or in memory when
 * `dataDir` is ":memory:". A database held by another process is reported as
 * {@linkcode StoreUnavailable} rather than left to fail later.
 */
export async function openStore(dataDir: string): Promise<Deno.Kv> {
  if (dataDir === ":memory:") return await Deno.openKv(":memory:");
  const path = join(dataDir, DB_FILE);
  try {
    mkdirSync(dataDir, { recursive: true });
    const kv = await Deno.openKv(path);
    // Opening is lazy about locks; a first write proves the file is ours.
    await kv.set(["meta", "opened_at"], new Date().toISOString());
    return kv;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    if (/locked|busy/i.test(why)) {
      throw new StoreUnavailable(
        `the data store ${path} is in use by another sim-datalogger process; ` +
          `stop it or pass a different --data directory`,
        { cause: err },
      );
    }
    throw new StoreUnavailable(`cannot open the data store ${path}: ${why}`, { cause: err });
  }
}
