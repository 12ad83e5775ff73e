/**
 * Parsing of path and query parameters, with precise errors.
 *
 * @module
 */
import { BadRequest } from "../core/errors.ts";

/** Parses a positive integer id from a path parameter; {@linkcode BadRequest} otherwise. */
export function idParam(value: string | undefined, name: string): number {
  if (value === undefined || !/^[1-9][0-9]{0,14}$/.test(value)) {
    throw new BadRequest(`${name} must be a positive integer`, [
      { path: `path.${name}`, message: "must be a positive integer" },
    ]);
  }
  return Number(value);
}
