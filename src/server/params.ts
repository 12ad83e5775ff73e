/**
 * Parsing of path and query parameters, with precise errors.
 *
 * @module
 */
import { z } from "zod";
import { badParam, idParamSchema } from "./query_params.ts";

/**
 * A positive integer id in a path: validates every `{id}` and is published
 * in the OpenAPI document. The query's {@linkcode idParamSchema} itself, so
 * a path id and a query id keep one rule, message and description; its
 * "is required" for an absent value cannot arise here, since a route only
 * matches with its `{id}` segment present.
 */
export const idPathSchema = idParamSchema;

/** The path parameters of every `/{id}` route: one positive integer {@linkcode idPathSchema}. */
export const idParams = z.object({ id: idPathSchema });

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
