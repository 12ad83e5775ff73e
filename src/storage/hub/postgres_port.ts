/**
 * The SQL port on a PostgreSQL server through postgres.js: a small pool,
 * so several requests of one hub process run at once, and several hub
 * processes share the server.
 *
 * @module
 */
import postgres from "postgres";
import type { SqlParam, SqlPort, SqlRow, SqlRunner } from "./sql_port.ts";

/** Connections one hub process keeps open at most. */
export const POOL_SIZE = 8;

type Sql = postgres.Sql | postgres.TransactionSql;

function runner(sql: Sql): SqlRunner {
  return {
    async query<T extends SqlRow>(text: string, params: readonly SqlParam[] = []) {
      // postgres.js types its parameters loosely; the port's own type is the rule here.
      const rows = await sql.unsafe(text, params as postgres.ParameterOrJSON<never>[]);
      return rows as unknown as T[];
    },
    async exec(text: string) {
      await sql.unsafe(text);
    },
  };
}

/** A port on the server at `url` (postgres://user:pass@host:port/db, or a socket folder as host). */
export function openPostgres(url: string): SqlPort {
  const sql = postgres(url, {
    max: POOL_SIZE,
    onnotice: () => {},
    // int8 (ids, counts) as numbers: the hub's ids stay far below 2^53.
    types: {
      bigint: {
        to: 20,
        from: [20],
        serialize: (x: number) => String(x),
        parse: (x: string) => Number(x),
      },
    },
  });
  return {
    kind: "postgres",
    ...runner(sql),
    transaction: async <R>(fn: (tx: SqlRunner) => Promise<R>) =>
      (await sql.begin((tx) => fn(runner(tx)))) as R,
    listen: async (channel, fn) => {
      // postgres.js keeps one connection of its own for LISTEN and re-listens after a reconnect.
      const { unlisten } = await sql.listen(channel, fn);
      return unlisten;
    },
    notify: async (channel, payload) => {
      await sql.notify(channel, payload);
    },
    close: () => sql.end({ timeout: 5 }),
  };
}
