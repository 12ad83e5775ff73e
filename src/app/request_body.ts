/**
 * Parsing the bodies of application commands: one zod schema, and every
 * failure reported with its JSON path.
 *
 * @module
 */
import { z } from "zod";
import { BadRequest } from "../core/errors.ts";
import { issuesFromZod } from "../core/bundle/issues.ts";
import { isTrackName, TRACK_NAME_RULE } from "../core/track_name.ts";

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
 * `raw` parsed by `schema`, refused as "FIELD RULE" (`name must be 1 to 80
 * characters...`): the words a person reads first name the field.
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

const TRACK_RULE = `track ${TRACK_NAME_RULE}`;

/** A circuit name in a body, trimmed and held to the one rule of src/core/track_name.ts. */
export const trackLabelSchema = z.string({ error: TRACK_RULE })
  .transform((s) => s.trim())
  .check(z.refine((s: string) => isTrackName(s), TRACK_RULE));

/**
 * The track name `name` (a body's `name` field) would be stored as: trimmed
 * and held to the one rule of src/core/track_name.ts.
 *
 * @throws {BadRequest} with the issue at `$.name` otherwise.
 */
export function validTrackName(name: unknown): string {
  if (typeof name !== "string") {
    throw new BadRequest("name must be a string", [{
      path: "$.name",
      message: "must be a string",
    }]);
  }
  if (!isTrackName(name)) {
    throw new BadRequest(`name ${TRACK_NAME_RULE}`, [{ path: "$.name", message: TRACK_NAME_RULE }]);
  }
  return name.trim();
}
