/**
 * Parsing of path and query parameters, with precise errors.
 *
 * @module
 */
import { z } from "zod";
import { BadRequest } from "../core/errors.ts";

/** A positive integer id in a path: validates every `{id}` and is published in the OpenAPI document. */
export const idPathSchema = z.string().regex(/^[1-9][0-9]{0,14}$/).transform(Number)
  .meta({ description: "a positive integer id" });

/** Parses a positive integer id from a path parameter; {@linkcode BadRequest} otherwise. */
export function idParam(value: string | undefined, name: string): number {
  const parsed = idPathSchema.safeParse(value);
  if (!parsed.success) {
    throw new BadRequest(`${name} must be a positive integer`, [
      { path: `path.${name}`, message: "must be a positive integer" },
    ]);
  }
  return parsed.data;
}
