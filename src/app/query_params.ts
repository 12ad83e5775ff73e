/**
 * Parsing the query parameters of the lap and analysis use cases. Each
 * takes the raw strings a face received (`undefined` when absent) and
 * answers a typed value, or throws {@linkcode BadRequest} whose issue's
 * path is the parameter's name (as the analysis engine names `step`, `n`
 * and `channels[i]`) and whose message is the rule it broke.
 *
 * @module
 */
import { BadRequest } from "../core/errors.ts";
import { TRACK_NAME_RULE, trackNameProblem } from "../core/track_name.ts";

/** A request's query: parameter name to raw value. */
export type RawQuery = Readonly<Record<string, string | undefined>>;

/** A refusal of parameter `path` for breaking `rule`. */
export function badParam(path: string, rule: string): BadRequest {
  return new BadRequest(`${path} ${rule}`, [{ path, message: rule }]);
}

/** Refuses any parameter of `query` not in `known`: a misspelt filter must not go unnoticed. */
export function onlyKnown(query: RawQuery, known: readonly string[]): void {
  for (const name of Object.keys(query)) {
    if (!known.includes(name)) {
      const which = known.length ? ` (known: ${known.join(", ")})` : "";
      throw badParam(name, `is not a parameter of this request${which}`);
    }
  }
}

/** `value` as a whole number from `min` to `max`; `fallback` when absent. */
export function intParam(
  value: string | undefined,
  name: string,
  min: number,
  max: number,
  fallback?: number,
): number {
  if (value === undefined && fallback !== undefined) return fallback;
  const rule = `must be a whole number from ${min} to ${max}`;
  if (value === undefined || !/^[0-9]{1,15}$/.test(value)) throw badParam(name, rule);
  const n = Number(value);
  if (n < min || n > max) throw badParam(name, rule);
  return n;
}

/** Most digits an id may have; larger values name nothing stored. */
const ID = /^[1-9][0-9]{0,14}$/;

/** `value` as a positive integer id (a lap, a car); required. */
export function idParam(value: string | undefined, name: string): number {
  if (value === undefined) throw badParam(name, "is required");
  if (!ID.test(value)) throw badParam(name, "must be a positive integer");
  return Number(value);
}

/** `value` as a comma-separated list of 1 to `max` distinct positive integer ids. */
export function idListParam(value: string | undefined, name: string, max: number): number[] {
  if (value === undefined || value === "") throw badParam(name, "is required");
  const parts = value.split(",");
  if (parts.length > max) {
    throw badParam(name, `must list at most ${max} ids, got ${parts.length}`);
  }
  const ids: number[] = [];
  parts.forEach((part, i) => {
    if (!ID.test(part)) throw badParam(`${name}[${i}]`, "must be a positive integer");
    const id = Number(part);
    if (ids.includes(id)) throw badParam(`${name}[${i}]`, `repeats lap ${id}`);
    ids.push(id);
  });
  return ids;
}

/** `value` as one of `choices`; `fallback` when absent. */
export function choiceParam<T extends string>(
  value: string | undefined,
  name: string,
  choices: readonly T[],
  fallback?: T,
): T {
  if (value === undefined && fallback !== undefined) return fallback;
  if (value === undefined) throw badParam(name, "is required");
  if (!(choices as readonly string[]).includes(value)) {
    throw badParam(name, `must be one of ${choices.join(", ")}`);
  }
  return value as T;
}

/** `value` as a circuit name (trimmed), held to the one rule of src/core/track_name.ts. */
export function trackParam(value: string | undefined, name: string): string {
  if (value === undefined) throw badParam(name, "is required");
  if (trackNameProblem(value) !== null) throw badParam(name, TRACK_NAME_RULE);
  return value.trim();
}
