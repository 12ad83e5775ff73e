/**
 * Parsing of path and query parameters, with precise errors.
 *
 * @module
 */
import { z } from "zod";
import { BadRequest } from "../core/errors.ts";
import { badParam } from "../app/query_params.ts";

/** A positive integer id in a path: validates every `{id}` and is published in the OpenAPI document. */
export const idPathSchema = z.string({ error: "must be a positive integer" })
  .regex(/^[1-9][0-9]{0,14}$/, "must be a positive integer").transform(Number)
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

/**
 * Refuses a query that gives a parameter more than once (`limit=1&limit=50`):
 * which one counts would be a guess, so it is a 400 naming the parameter,
 * as an unknown one is.
 */
export function refuseRepeatedParams(url: string): void {
  const seen = new Set<string>();
  for (const name of new URL(url).searchParams.keys()) {
    if (seen.has(name)) throw badParam(name, "is given more than once; give it once");
    seen.add(name);
  }
}
