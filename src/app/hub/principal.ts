/**
 * Who is asking the hub: a token's owner, found by the token's public id
 * and checked against its scrypt hash; the first start's team and its
 * admin token.
 *
 * @module
 */
import type { SqlRunner } from "../../storage/hub/sql_port.ts";
import { driverByTokenId, hasAdmin, insertDriver } from "../../storage/hub/drivers.ts";
import { BadRequest } from "../../core/errors.ts";
import { HubDenied } from "./hub_errors.ts";
import { MIN_TOKEN_CHARS, newToken, tokenId, tokenMatches, tokenRecord } from "./tokens.ts";

/** The owner of a valid token. */
export interface Principal {
  name: string;
  admin: boolean;
}

/** The admin's name: not a driver, and no driver may take it. */
export const ADMIN_NAME = "admin";

/**
 * The owner of the bearer token in `authorization` (the header, null when
 * absent).
 *
 * @throws {HubDenied} 401 without `Bearer TOKEN`, for a token no one holds,
 *   and for a revoked one, each saying which.
 */
export async function principalOf(db: SqlRunner, authorization: string | null): Promise<Principal> {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? "");
  if (!match) {
    throw new HubDenied("this request needs Authorization: Bearer TOKEN (a hub token)", 401);
  }
  const token = match[1];
  const driver = await driverByTokenId(db, tokenId(token));
  if (driver === null || !(await tokenMatches(token, driver))) {
    throw new HubDenied("the bearer token is not a token of this hub", 401);
  }
  if (driver.revoked_at !== null) {
    throw new HubDenied(`the token of ${driver.name} was revoked at ${driver.revoked_at}`, 401);
  }
  return { name: driver.name, admin: driver.admin };
}

/** Throws a 403 {@linkcode HubDenied} unless `who` is the admin; `what` names the act refused. */
export function requireAdmin(who: Principal, what: string): void {
  if (!who.admin) throw new HubDenied(`only the admin may ${what}; ${who.name} is a driver`, 403);
}

/**
 * Creates the team on a hub's first start: its admin, holding `given` (an
 * admin's own token) or a new random one. Answers the token when the team
 * was made now, to be printed once; null when it already existed (then
 * `given` changes nothing).
 *
 * @throws {BadRequest} for a given token shorter than 16 characters or holding spaces.
 */
export async function ensureTeam(db: SqlRunner, given: string | null): Promise<string | null> {
  if (given !== null && (given.length < MIN_TOKEN_CHARS || /\s/.test(given))) {
    throw new BadRequest(
      `admin token must be at least ${MIN_TOKEN_CHARS} characters with no spaces`,
      [{
        path: "admin-token",
        message: `must be at least ${MIN_TOKEN_CHARS} characters, no spaces`,
      }],
    );
  }
  if (await hasAdmin(db)) return null;
  const token = given ?? newToken();
  const made = await insertDriver(db, {
    name: ADMIN_NAME,
    admin: true,
    ...await tokenRecord(token),
  });
  // Another hub process made the team between the check and the insert: its token stands.
  return made ? token : null;
}
