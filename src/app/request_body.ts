/**
 * Parsing the bodies of application commands: one zod schema, and every
 * failure reported with its JSON path.
 *
 * @module
 */
import { z } from "zod";
import { BadRequest } from "../core/errors.ts";
import { issuesFromZod } from "../core/bundle/issues.ts";
import { trackNameSchema } from "../core/track_name.ts";

/**
 * `raw` parsed by `schema`.
 *
 * @throws {BadRequest} "invalid WHAT: PATH: RULE" naming the first fault,
 *   with every fault's path in `issues`.
 */
export function parseBody<T>(schema: z.ZodType<T>, raw: unknown, what: string): T {
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issues = issuesFromZod(result.error.issues);
    throw new BadRequest(`invalid ${what}: ${issues[0]?.path}: ${issues[0]?.message}`, issues);
  }
  return result.data;
}

/**
 * `raw` parsed by `schema`, refused as "FIELD RULE" (`name is too long: 81
 * characters, at most 80`): the words a person reads first name the field.
 *
 * @throws {BadRequest} naming the first fault, with every fault's path in `issues`.
 */
export function parseFields<T>(schema: z.ZodType<T>, raw: unknown): T {
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issues = issuesFromZod(result.error.issues);
    const first = issues[0];
    const field = first?.path.replace(/^\$\.?/, "") || "body";
    throw new BadRequest(`${field} ${first?.message}`, issues);
  }
  return result.data;
}

/** A circuit name in a body, trimmed: the one schema of src/core/track_name.ts. */
export const trackLabelSchema = trackNameSchema;

/**
 * The track name `name` (a body's `name` field) would be stored as: trimmed
 * and held to the one rule of src/core/track_name.ts.
 *
 * @throws {BadRequest} with the issue at `$.name` otherwise.
 */
export function validTrackName(name: unknown): string {
  const result = trackNameSchema.safeParse(name);
  if (result.success) return result.data;
  const message = result.error.issues[0].message;
  throw new BadRequest(`name ${message}`, [{ path: "$.name", message }]);
}
