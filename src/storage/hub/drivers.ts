/**
 * The team's drivers and their tokens, as rows: a token is found by its
 * public id (one indexed lookup), and only its salted hash is stored.
 *
 * @module
 */
import { isoOf, type SqlRunner } from "./sql_port.ts";

/** A driver as stored. */
export interface DriverRow {
  name: string;
  admin: boolean;
  token_id: string;
  token_salt: Uint8Array;
  token_hash: Uint8Array;
  created_at: string;
  revoked_at: string | null;
}

/** What a new driver is stored with. */
export type NewDriver = Pick<
  DriverRow,
  "name" | "admin" | "token_id" | "token_salt" | "token_hash"
>;

function rowOf(r: Record<string, unknown>): DriverRow {
  return {
    name: String(r.name),
    admin: r.admin === true,
    token_id: String(r.token_id),
    token_salt: r.token_salt as Uint8Array,
    token_hash: r.token_hash as Uint8Array,
    created_at: isoOf(r.created_at)!,
    revoked_at: isoOf(r.revoked_at),
  };
}

const COLUMNS = "name, admin, token_id, token_salt, token_hash, created_at, revoked_at";

/**
 * Stores `driver`; false (nothing written) when the name is taken, by a
 * revoked driver too: a name stays its laps' driver for good.
 */
export async function insertDriver(db: SqlRunner, driver: NewDriver): Promise<boolean> {
  const rows = await db.query(
    `insert into hub_drivers (name, admin, token_id, token_salt, token_hash)
     values ($1, $2, $3, $4, $5) on conflict do nothing returning name`,
    [driver.name, driver.admin, driver.token_id, driver.token_salt, driver.token_hash],
  );
  return rows.length === 1;
}

/** The driver whose token has the public id `tokenId`, revoked or not; null when none. */
export async function driverByTokenId(db: SqlRunner, tokenId: string): Promise<DriverRow | null> {
  const rows = await db.query(`select ${COLUMNS} from hub_drivers where token_id = $1`, [tokenId]);
  return rows.length ? rowOf(rows[0]) : null;
}

/** Every driver (the admin excluded), by name. */
export async function listDrivers(db: SqlRunner): Promise<DriverRow[]> {
  const rows = await db.query(`select ${COLUMNS} from hub_drivers where not admin order by name`);
  return rows.map(rowOf);
}

/** Whether the team exists: an admin was stored. */
export async function hasAdmin(db: SqlRunner): Promise<boolean> {
  return (await db.query("select 1 from hub_drivers where admin limit 1")).length > 0;
}

/**
 * Revokes driver `name`'s token (the first revocation's time stays) and
 * returns the driver; null when no such driver (admins are not drivers).
 */
export async function revokeDriver(db: SqlRunner, name: string): Promise<DriverRow | null> {
  const rows = await db.query(
    `update hub_drivers set revoked_at = coalesce(revoked_at, now())
     where name = $1 and not admin returning ${COLUMNS}`,
    [name],
  );
  return rows.length ? rowOf(rows[0]) : null;
}
