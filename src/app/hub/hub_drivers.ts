/**
 * The team's drivers as the admin manages them: add one (its token answered
 * once), list them, revoke one (its laps stay). Shared by the HTTP routes
 * and `hub drivers add|list|revoke`.
 *
 * @module
 */
import { z } from "zod";
import { BadRequest, Conflict, NotFound } from "../../core/errors.ts";
import { trackNameFault } from "../../core/track_name.ts";
import { insertDriver, listDrivers, revokeDriver } from "../../storage/hub/drivers.ts";
import type { SqlRunner } from "../../storage/hub/sql_port.ts";
import { ADMIN_NAME, type Principal, requireAdmin } from "./principal.ts";
import { newToken, tokenRecord } from "./tokens.ts";

/** Longest driver name. */
export const MAX_DRIVER_CHARS = 40;

/** A driver's name: the circuit-name rules (src/core/track_name.ts), 1 to 40 characters, trimmed. */
export const driverNameSchema = z.string({
  error: (issue) => issue.input === undefined ? "is required" : "must be a string",
}).superRefine((v, ctx) => {
  const fault = driverNameFault(v);
  if (fault !== null) ctx.addIssue({ code: "custom", message: fault });
}).transform((v) => v.trim()).meta({
  description: `a driver's name: 1 to ${MAX_DRIVER_CHARS} characters, not blank, ` +
    "no control characters",
});

/** Why `name` is no driver's name, or null. */
export function driverNameFault(name: string): string | null {
  const fault = trackNameFault(name);
  if (fault !== null) return fault;
  const n = [...name.trim()].length;
  return n > MAX_DRIVER_CHARS ? `is too long: ${n} characters, at most ${MAX_DRIVER_CHARS}` : null;
}

/** A driver added: its name and token, shown this once. */
export const driverAddedSchema = z.strictObject({ name: z.string(), token: z.string() });

/** A driver as listed. */
export const driverItemSchema = z.strictObject({
  name: z.string(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});

/** A revocation done. */
export const driverRevokedSchema = z.strictObject({ name: z.string(), revoked_at: z.string() });

/**
 * Adds driver `name` (by the admin `who`) with a new token, answered once.
 *
 * @throws {HubDenied} 403 for a driver; {BadRequest} at `name` for a name
 *   breaking the rule; {Conflict} when the name is taken (by a revoked
 *   driver, or the admin's name, too).
 */
export async function addDriver(
  db: SqlRunner,
  who: Principal,
  name: string,
): Promise<z.output<typeof driverAddedSchema>> {
  requireAdmin(who, "add drivers");
  const fault = driverNameFault(name);
  if (fault !== null) throw new BadRequest(`name ${fault}`, [{ path: "name", message: fault }]);
  const trimmed = name.trim();
  const token = newToken();
  const made = trimmed !== ADMIN_NAME &&
    await insertDriver(db, { name: trimmed, admin: false, ...await tokenRecord(token) });
  if (!made) throw new Conflict(`a driver named ${trimmed} already exists`);
  return { name: trimmed, token };
}

/** Every driver, by name (the admin's `who` only). */
export async function driverList(
  db: SqlRunner,
  who: Principal,
): Promise<z.output<typeof driverItemSchema>[]> {
  requireAdmin(who, "list drivers");
  return (await listDrivers(db)).map((d) => ({
    name: d.name,
    created_at: d.created_at,
    revoked_at: d.revoked_at,
  }));
}

/**
 * Revokes driver `name`'s token (the admin's `who` only); its laps stay.
 * Revoking twice answers the first revocation's time.
 *
 * @throws {HubDenied} 403 for a driver; {NotFound} for no such driver.
 */
export async function revoke(
  db: SqlRunner,
  who: Principal,
  name: string,
): Promise<z.output<typeof driverRevokedSchema>> {
  requireAdmin(who, "revoke drivers");
  const row = await revokeDriver(db, name);
  if (row === null) throw new NotFound(`no driver named ${name}`);
  return { name: row.name, revoked_at: row.revoked_at! };
}
