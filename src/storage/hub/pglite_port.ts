/**
 * The SQL port on PGlite: PostgreSQL compiled to WASM, in a data folder of
 * the hub's own, so a team tries the hub with one command and no server.
 * One connection: its statements run one at a time, a transaction's
 * included, so locks that serialise hub processes on a server cost nothing
 * here.
 *
 * @module
 */
import { PGlite, type Transaction } from "@electric-sql/pglite";
import type { SqlParam, SqlPort, SqlRow, SqlRunner } from "./sql_port.ts";

function runner(db: PGlite | Transaction): SqlRunner {
  return {
    async query<T extends SqlRow>(text: string, params: readonly SqlParam[] = []) {
      return (await db.query<T>(text, params as unknown[])).rows;
    },
    async exec(text: string) {
      await db.exec(text);
    },
  };
}

/**
 * A port on the PGlite database in `dataDir` (created when absent), or in
 * memory when `dataDir` is null (tests).
 */
export async function openPglite(dataDir: string | null): Promise<SqlPort> {
  const db = dataDir === null ? new PGlite() : new PGlite(dataDir);
  await db.waitReady;
  return {
    kind: "pglite",
    ...runner(db),
    transaction: (fn) => db.transaction((tx) => fn(runner(tx))),
    // In-process: one PGlite is one process's, so its own listeners are the only ones.
    listen: (channel, fn) => db.listen(channel, fn),
    notify: async (channel, payload) => {
      await db.query("select pg_notify($1, $2)", [channel, payload]);
    },
    close: () => db.close(),
  };
}
