/**
 * Opening the hub's database: a PostgreSQL server when a URL is given,
 * else the embedded PGlite in `<data>/hub-pglite`; either way migrated to
 * the current schema before anything else runs.
 *
 * @module
 */
import { join } from "node:path";
import { migrate } from "./migrations.ts";
import { openPglite } from "./pglite_port.ts";
import { openPostgres } from "./postgres_port.ts";
import type { SqlPort } from "./sql_port.ts";

/** Where the hub stores. */
export interface HubStoreOptions {
  /** postgres://… of a server; null or absent: the embedded engine. */
  database?: string | null;
  /** The data folder the embedded engine's folder `hub-pglite` goes in; null: in memory. */
  dataDir: string | null;
}

/** The embedded engine's folder inside the data folder `dataDir`. */
export function pgliteFolder(dataDir: string): string {
  return join(dataDir, "hub-pglite");
}

/** The hub's database opened and migrated; the port is closed again when migrating fails. */
export async function openHubStore(opts: HubStoreOptions): Promise<SqlPort> {
  let db: SqlPort;
  if (opts.database) {
    db = openPostgres(opts.database);
  } else {
    if (opts.dataDir !== null) await Deno.mkdir(opts.dataDir, { recursive: true });
    db = await openPglite(opts.dataDir === null ? null : pgliteFolder(opts.dataDir));
  }
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}
