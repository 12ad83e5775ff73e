/**
 * A route declared once: the {@linkcode Operation} the OpenAPI document is
 * made from is also what {@linkcode mount} registers on a Hono router, and
 * its path, query and body schemas are the validators that run before the
 * handler. So the document cannot name a parameter the route ignores, nor a
 * rule the route does not hold.
 *
 * @module
 */
import type { Context, Env, Hono } from "hono";
import { z } from "zod";
import { BadRequest } from "../core/errors.ts";
import { parseQuery } from "./query_params.ts";
import { parseBody, parseFields } from "../app/request_body.ts";
import { MAX_IMPORT_BYTES, readJsonBody } from "./body.ts";
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
   * Parses the body with the declared schema where the use case orders its
   * refusals itself (a session change names the worst fault first).
   */
  parseBody?: (raw: unknown) => unknown;
  /**
   * `"handler"`: the handler reads the body itself (bytes, an optional
   * command) and hands it to the use case, which parses it with the
   * declared schema; the route does not parse it twice.
   */
  bodyBy?: "handler";
}

/** The parsed value of an optional schema; an empty record when absent. */
type Parsed<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

/** What {@linkcode mount} hands the handler: the request parsed by the declared schemas. */
export interface RouteInput<O extends RouteSpec> {
  params: Parsed<O["params"]>;
  query: Parsed<O["query"]>;
  body: O["bodyBy"] extends "handler" ? undefined
    : O["body"] extends { schema: infer S } ? Parsed<S>
    : undefined;
}

/** `spec` as given, its schemas' types kept so {@linkcode mount}'s handler sees them. */
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

/** The Hono path of an OpenAPI path below `/api` (`/laps/{id}` → `/laps/:id`). */
function honoPath(path: string): string {
  return path.replace(/^\/api(?=\/)/, "").replace(/\{([A-Za-z_]+)\}/g, ":$1");
}

/**
 * Registers `spec` on `router` (mounted at `/api` for API paths): before
 * `handler` runs, the path parameters, the query (unknown parameters
 * refused, naming them) and the JSON body are parsed by the declared
 * schemas, each fault a 400 naming its field.
 */
export function mount<E extends Env, const O extends RouteSpec>(
  router: Hono<E>,
  spec: O,
  handler: (input: RouteInput<O>, c: Context<E>) => Response | Promise<Response>,
): void {
  router.on(spec.method.toUpperCase(), honoPath(spec.path), async (c) => {
    const params = spec.params ? parseParams(spec.params, c.req.param()) : {};
    const query = parseQuery(spec.query ?? NO_QUERY, c.req.query());
    let body: unknown = undefined;
    if (spec.body?.schema && spec.bodyBy !== "handler") {
      const raw = await readJsonBody(c.req.raw, spec.bodyLimit ?? MAX_IMPORT_BYTES);
      body = spec.parseBody
        ? spec.parseBody(raw)
        : spec.bodyName === undefined
        ? parseFields(spec.body.schema, raw)
        : parseBody(spec.body.schema, raw, spec.bodyName);
    }
    return await handler({ params, query, body } as RouteInput<O>, c as Context<E>);
  });
}
