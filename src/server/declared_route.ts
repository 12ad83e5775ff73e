/**
 * A route declared once: the {@linkcode Operation} the OpenAPI document is
 * made from is also what src/server/route_table.ts registers on the router,
 * its path, query and body schemas are the validators that run before the
 * handler, and its success schema types the handler's answer. So the
 * document cannot name a parameter the route ignores, nor a rule the route
 * does not hold, nor a body the handler does not give: a JSON route answers
 * only through `reply.json(body)`, whose `body` must be the declared
 * schema's output, and `deno check` refuses anything else
 * (tests/server/declared_reply_test.ts plants the wrong ones).
 *
 * @module
 */
import type { Context, Env } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod";
import { BadRequest } from "../core/errors.ts";
import { parseQuery } from "./query_params.ts";
import { parseBody, parseFields } from "../app/request_body.ts";
import { MAX_IMPORT_BYTES, readJsonBody, readOptionalJsonBody } from "./body.ts";
import type { Operation } from "./openapi/operation.ts";

/** An operation a route module declares and mounts. */
export interface RouteSpec extends Operation {
  /** Largest body the route reads, bytes (64 MiB by default). */
  bodyLimit?: number;
  /**
   * What the body is, for the refusal's detail ("invalid WHAT: PATH: RULE");
   * without it the detail names the field ("name must be ...").
   */
  bodyName?: string;
  /**
   * The JSON as sent made into what the declared schema reads (a bare array
   * of corners into `{corners}`), or refused before it (not an object). The
   * declared schema still parses the result: the handler's body is its output.
   */
  bodyShape?: (raw: unknown) => unknown;
  /**
   * The refusal of a body the declared schema does not accept, where the use
   * case orders its faults itself (a session change names the worst first).
   */
  bodyRefusal?: (issues: readonly z.core.$ZodIssue[]) => Error;
  /**
   * `"handler"`: the handler reads the body itself (bytes, an optional
   * command) and hands it to the use case, which parses it with the
   * declared schema; the route does not parse it twice.
   */
  bodyBy?: "handler";
}

/** The parsed value of an optional schema; an empty record when absent. */
type Parsed<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

declare const ANSWERED: unique symbol;

/** A response made by a route's reply: the only kind a declared handler may return. */
export type Answer = Response & { readonly [ANSWERED]: true };

/** The declared success schema of `O`. */
type SuccessSchema<O extends RouteSpec> = O["ok"] extends { schema: infer S extends z.ZodType } ? S
  : never;

/** Whether `O` answers JSON described by its declared schema. */
type AnswersJson<O extends RouteSpec> = O["ok"] extends { schema: z.ZodType }
  ? O["ok"] extends { type: infer T } ? [T] extends ["application/json" | undefined] ? true : false
  : true
  : false;

/** The reply of a JSON route. */
export interface JsonReply<B> {
  /**
   * `body` as JSON with the declared success status and the headers set on
   * the context; `body` must be the declared schema's output.
   */
  json(body: B): Answer;
}

/** The reply of a route of another media type (a page, a download, an event stream). */
export interface RawReply {
  /** `response` as made by the handler, in the declared media type. */
  raw(response: Response): Answer;
}

/** What a route of `O` answers with: typed JSON, or a raw response for any other media type. */
export type Reply<O extends RouteSpec> = AnswersJson<O> extends true
  ? JsonReply<z.output<SuccessSchema<O>>>
  : RawReply;

/** What a declared route's handler gets: the request parsed by the declared schemas, and its reply. */
export interface RouteInput<O extends RouteSpec> {
  params: Parsed<O["params"]>;
  query: Parsed<O["query"]>;
  body: O["bodyBy"] extends "handler" ? undefined
    : O["body"] extends { schema: infer S } ? Parsed<S>
    : undefined;
  reply: Reply<O>;
}

/** A declared route's handler: it answers only through its reply. */
export type RouteHandler<O extends RouteSpec, E extends Env> = (
  input: RouteInput<O>,
  c: Context<E>,
) => Answer | Promise<Answer>;

/** `spec` as given, its schemas' types kept so the handler mounted with it sees them. */
export function declareRoute<const O extends RouteSpec>(spec: O): O {
  return spec;
}

/** No query parameters: any one given is refused, naming it. */
const NO_QUERY = z.object({});

/**
 * `raw` path parameters parsed by `schema`. A fault is a 400 at
 * `path.NAME` whose message is the schema's rule; the detail is the
 * schema's `title` when it has one (a bundle slug: "invalid bundle name"),
 * else "NAME RULE".
 */
function parseParams(schema: z.ZodObject, raw: Record<string, string>): unknown {
  const out: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(schema.shape) as [string, z.ZodType][]) {
    const result = rule.safeParse(raw[name]);
    if (!result.success) {
      const message = result.error.issues[0]?.message ?? "is invalid";
      const title = rule.meta()?.title;
      throw new BadRequest(typeof title === "string" ? title : `${name} ${message}`, [
        { path: `path.${name}`, message },
      ]);
    }
    out[name] = result.data;
  }
  return out;
}

/** `raw` (the JSON sent) parsed by `spec`'s body schema, refused in the declared words. */
function parseDeclaredBody(spec: RouteSpec, schema: z.ZodType, raw: unknown): unknown {
  const shaped = spec.bodyShape ? spec.bodyShape(raw) : raw;
  if (spec.bodyRefusal) {
    const result = schema.safeParse(shaped);
    if (!result.success) throw spec.bodyRefusal(result.error.issues);
    return result.data;
  }
  return spec.bodyName === undefined
    ? parseFields(schema, shaped)
    : parseBody(schema, shaped, spec.bodyName);
}

/** The reply of `spec` on `c`: `json` for a JSON route, `raw` for any other. */
function replyOf<E extends Env>(spec: RouteSpec, c: Context<E>): JsonReply<unknown> | RawReply {
  if (spec.ok.schema !== undefined && (spec.ok.type ?? "application/json") === "application/json") {
    const status = (spec.ok.status ?? 200) as ContentfulStatusCode;
    // The one place an answer is made from a body: its type was checked where `json` was called.
    return { json: (body) => c.json(body as object, status) as unknown as Answer };
  }
  return { raw: (response) => response as unknown as Answer };
}

/**
 * The Hono handler of `spec`: before `handler` runs, the path parameters,
 * the query (under `/api`, or when declared: unknown parameters refused,
 * naming them; a page's query is its script's) and the JSON body (`{}`
 * when an optional one is absent) are parsed by the declared schemas, each
 * fault a 400 naming its field.
 */
export function handlerOf<E extends Env, const O extends RouteSpec>(
  spec: O,
  handler: RouteHandler<O, E>,
): (c: Context<E>) => Promise<Response> {
  const checksQuery = spec.query !== undefined || spec.path.startsWith("/api/");
  return async (c) => {
    const params = spec.params ? parseParams(spec.params, c.req.param()) : {};
    const query = checksQuery ? parseQuery(spec.query ?? NO_QUERY, c.req.query()) : {};
    let body: unknown = undefined;
    if (spec.body?.schema && spec.bodyBy !== "handler") {
      const limit = spec.bodyLimit ?? MAX_IMPORT_BYTES;
      // An optional body absent (or empty) is the plain command, `{}`; a JSON `null` is a body.
      const sent = spec.body.required === false
        ? await readOptionalJsonBody(c.req.raw, limit)
        : await readJsonBody(c.req.raw, limit);
      body = parseDeclaredBody(spec, spec.body.schema, sent === undefined ? {} : sent);
    }
    const reply = replyOf(spec, c);
    return await handler({ params, query, body, reply } as RouteInput<O>, c);
  };
}
