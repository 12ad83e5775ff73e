/**
 * The one SQL port the hub's store speaks: the same text and `$n`
 * parameters run on the embedded PGlite and on a PostgreSQL server
 * (pglite_port.ts, postgres_port.ts), so every query and migration is
 * written once. A JSON parameter is sent as text and cast (`$1::text::jsonb`):
 * postgres.js would otherwise encode a string bound to a jsonb parameter
 * as a JSON string.
 *
 * @module
 */

/** A value bound to a `$n` parameter. */
export type SqlParam = string | number | boolean | null | Uint8Array;

/** A row as the driver gives it: column name to value. */
export type SqlRow = Record<string, unknown>;

/** What runs statements: the database itself, or one transaction on it. */
export interface SqlRunner {
  /** The rows `text` answers with `params` bound in order to `$1`, `$2`, ... */
  query<T extends SqlRow = SqlRow>(text: string, params?: readonly SqlParam[]): Promise<T[]>;
  /** Runs `text`, which may hold several statements and takes no parameters. */
  exec(text: string): Promise<void>;
}

/** A database the hub stores in. */
export interface SqlPort extends SqlRunner {
  /** `"pglite"` for the embedded engine, `"postgres"` for a server. */
  readonly kind: "pglite" | "postgres";
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back
   * when it throws (and the error passed on), so nothing is partly written.
   */
  transaction<R>(fn: (tx: SqlRunner) => Promise<R>): Promise<R>;
  /**
   * Calls `fn` with the payload of every NOTIFY on `channel` (from any
   * process on the database, this one included) until the answered
   * function is called.
   */
  listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>>;
  /** Sends `payload` (at most 8000 bytes, PostgreSQL's limit) to every listener of `channel`. */
  notify(channel: string, payload: string): Promise<void>;
  /** Closes the connection(s); the port is unusable afterwards. */
  close(): Promise<void>;
}

/** `value` (a timestamp column: a Date, or text) as ISO 8601 UTC; null stays null. */
export function isoOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}
