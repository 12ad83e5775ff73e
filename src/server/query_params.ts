/**
 * The rules of query parameters, as zod schemas ({@linkcode idParamSchema}
 * and its siblings): a raw string in, a typed value out. A route declares
 * its query with them (src/server/declared_route.ts), so one schema both
 * validates the request and is published in the OpenAPI document; the use
 * case gets the typed value. They live in the server because a query
 * string is HTTP's: the services take numbers, names and lists, and the
 * command line, which parses its `laps` flags as the route does, may import
 * the server. {@linkcode parseQuery} reports a fault as a
 * {@linkcode BadRequest} whose issue's path is the parameter's name (as the
 * analysis engine names `step`, `n` and `channels[i]`) and whose message is
 * the rule it broke.
 *
 * @module
 */
import { z } from "zod";
import { BadRequest } from "../core/errors.ts";
import { ordinal } from "../core/ordinal.ts";
import { trackNameSchema } from "../core/track_name.ts";

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

/** The message for an absent required parameter, else `rule`. */
function required(rule: string): (issue: { input?: unknown }) => string {
  return (issue) => issue.input === undefined ? "is required" : rule;
}

/**
 * A number as JSON writes it (`100`, `1e2`, `100.0`, `-0.5`), or with leading
 * zeros (`007`, accepted before this rule existed); at most 32 characters, so
 * no spelling is too long to read.
 */
export const NUMBER_TEXT = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** Longest text a numeric parameter may be. */
const MAX_NUMBER_TEXT = 32;

/** True when `text` spells a finite number in any JSON way (see {@linkcode NUMBER_TEXT}). */
function isNumberText(text: string): boolean {
  return text.length <= MAX_NUMBER_TEXT && NUMBER_TEXT.test(text) && Number.isFinite(Number(text));
}

/**
 * A whole number from `min` to `max`, in any JSON spelling (`1e2` is 100);
 * the rule is the message of every fault.
 */
export function intParamSchema(min: number, max: number) {
  const rule = `must be a whole number from ${min} to ${max}`;
  return z.string({ error: rule })
    .regex(NUMBER_TEXT, { error: rule, abort: true })
    .refine((v) => {
      const n = Number(v);
      return isNumberText(v) && Number.isInteger(n) && n >= min && n <= max;
    }, rule)
    .transform(Number)
    .meta({ description: rule });
}

/**
 * A number of at least `min`, in any JSON spelling; `rule` (the words a
 * refusal gives, in both `detail` and `errors[].message`) is the message of
 * every fault.
 */
export function minNumberParamSchema(min: number, rule: string) {
  return z.string({ error: rule })
    .regex(NUMBER_TEXT, { error: rule, abort: true })
    .refine((v) => isNumberText(v) && Number(v) >= min, rule)
    .transform(Number);
}

/** Most digits an id may have; larger values name nothing stored. */
const ID = /^[1-9][0-9]{0,14}$/;
const POSITIVE = "must be a positive integer";

/** A positive integer id (a lap, a car); "is required" when absent. */
export const idParamSchema = z.string({ error: required(POSITIVE) })
  .regex(ID, POSITIVE)
  .transform(Number)
  .meta({ description: "a positive integer id" });

/** A car id: 0 and up; the limit of an id's digits as {@linkcode idParamSchema}. */
const CAR_ID = /^(0|[1-9][0-9]{0,14})$/;
const CAR_RULE = "must be a whole number from 0 up (0: a car the recording tool did not name)";

/**
 * A car id as a filter: any whole number from 0, since laps from tools that
 * do not record the car are stored as car 0, and an unknown car is a car;
 * "is required" when absent.
 */
export const carParamSchema = z.string({ error: required(CAR_RULE) })
  .regex(CAR_ID, CAR_RULE)
  .transform(Number)
  .meta({ description: "a car id: 0 (not recorded) or a positive integer" });

/**
 * A comma-separated list of 1 to `max` distinct positive integer lap ids.
 * A fault in one id is reported at `[i]` (`laps[1]`) for tools, in words a
 * driver reads (`the 2nd lap id (x) must be a positive integer`), which are
 * also the refusal's whole detail (see {@linkcode parseQuery}). An empty
 * value is refused with `empty`: "is required" where the list must be
 * given, the list's rule where it is an optional filter (an empty filter
 * would otherwise read as "no filter").
 */
export function idListParamSchema(max: number, empty = "is required") {
  return z.string({ error: "is required" })
    .transform((value, ctx) => {
      // A fault in one id (`at`) is worded whole; one of the list follows its name.
      const fail = (message: string, at?: number) => {
        const path = at === undefined ? [] : [at];
        const params = { whole: at !== undefined };
        ctx.addIssue({ code: "custom", message, path, input: value, params });
        return z.NEVER;
      };
      if (value === "") return fail(empty);
      const parts = value.split(",");
      if (parts.length > max) return fail(`must list at most ${max} ids, got ${parts.length}`);
      const ids: number[] = [];
      for (const [i, part] of parts.entries()) {
        const which = `the ${ordinal(i + 1)} lap id`;
        if (part === "") return fail(`${which} is empty: it ${POSITIVE}`, i);
        if (!ID.test(part)) return fail(`${which} (${shownPart(part)}) ${POSITIVE}`, i);
        const id = Number(part);
        const first = ids.indexOf(id);
        if (first >= 0) {
          return fail(`${which} (${id}) repeats the ${ordinal(first + 1)}: list each lap once`, i);
        }
        ids.push(id);
      }
      return ids;
    })
    .meta({ description: `1 to ${max} distinct positive integer ids, comma-separated` });
}

/** Longest part of a list quoted back in a refusal. */
const MAX_SHOWN = 20;

/** A refused id as a driver typed it, cut when long, quoted when it holds more than plain text. */
function shownPart(part: string): string {
  const cut = [...part].length > MAX_SHOWN ? [...part].slice(0, MAX_SHOWN).join("") + "…" : part;
  return /^[\x21-\x7e…]*$/.test(cut) && !cut.includes(")") ? cut : JSON.stringify(cut);
}

/** One of `choices`; "is required" when absent. */
export function choiceParamSchema<const T extends readonly [string, ...string[]]>(choices: T) {
  return z.enum(choices, { error: required(`must be one of ${choices.join(", ")}`) });
}

/**
 * A comma-separated list of values each `item` takes (`speed,gear`), as a
 * list: a fault in one value is reported at `[i]` (`channels[1]`) with
 * `item`'s message. Its input is published as an array of `item`'s values,
 * so the document lists what each may be; the document sends it as one
 * comma-separated value (`style: form`, `explode: false`).
 */
export function listParamSchema<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (value) => typeof value === "string" ? value.split(",") : value,
    z.array(item, { error: "is required" }),
  );
}

/** A circuit name (trimmed): the one schema of src/core/track_name.ts. */
export const trackParamSchema = trackNameSchema;

/** The query parameter name of a zod issue path: `laps`, `laps[1]`. */
function paramPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => typeof p === "number" ? `[${p}]` : i ? `.${String(p)}` : String(p))
    .join("");
}

/**
 * `raw` parsed by `schema`, the object of a request's parameters: any
 * parameter it does not name is refused first (see {@linkcode onlyKnown}),
 * then the first parameter, in the schema's order, that breaks its rule.
 *
 * @throws {BadRequest} with one issue: the parameter's path and its rule.
 */
export function parseQuery<S extends z.ZodObject>(schema: S, raw: RawQuery): z.output<S> {
  onlyKnown(raw, Object.keys(schema.shape));
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  // A fault worded as a whole sentence (an id list's) is the detail itself.
  const whole = issue.code === "custom" && issue.params?.whole === true;
  const path = paramPath(issue.path);
  if (whole) throw new BadRequest(issue.message, [{ path, message: issue.message }]);
  throw badParam(path, issue.message);
}
