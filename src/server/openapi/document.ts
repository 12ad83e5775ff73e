/**
 * Builds the OpenAPI 3.1 document of the API from the operations the HTTP
 * app served (src/server/route_table.ts lists each as it is mounted): every
 * schema is converted from zod (JSON Schema draft 2020-12, the dialect of
 * OpenAPI 3.1), requests as they may be sent (`io: "input"`: defaults make
 * fields optional) and answers as they are produced (`io: "output"`). Named
 * schemas (zod `meta({id})`) become `components.schemas`; every error
 * answer is a problem+json document referencing the one `Problem`.
 *
 * @module
 */
import { z } from "zod";
import { APP_VERSION } from "../../app/version.ts";
import type { Body, Operation } from "./operation.ts";
import { problemSchema } from "./problem_schema.ts";

/** A JSON Schema or any other JSON object of the document. */
type Json = Record<string, unknown>;

/** The words of each problem status. */
const PROBLEM_TEXT: Record<number, string> = {
  400: "a bad parameter or a refused body; `errors` names each fault",
  401: "a change from another machine without a bearer token",
  403: "a change from another machine with no token configured, or a wrong one",
  404: "nothing stored under that name",
  408: "the body did not arrive in time (docs/api.md, Deadlines); the connection is closed",
  409: "a conflict with the current state",
  413: "the body is over its size limit",
  500:
    "a stored record cannot be read back (title `Stored record unreadable`, the detail names it and why)",
  503:
    "the store is open read-only (its disk was too full to open it for writing); nothing changed",
  507: "the store's disk is full; nothing was written, send it again once space is freed",
};

const METHODS_THAT_CHANGE = new Set(["post", "put", "patch", "delete"]);
const DEFS = "#/$defs/";
const COMPONENTS = "#/components/schemas/";

/** Converts zod schemas, collecting their named parts into `components`. */
class Converter {
  readonly components: Record<string, Json> = {};
  readonly #seen = new Map<string, string>();

  /** The JSON Schema of `schema` with references to `components.schemas`. */
  convert(schema: z.ZodType, io: "input" | "output"): Json {
    const raw = z.toJSONSchema(schema, {
      target: "draft-2020-12",
      io,
      // Vote entries of a bundle are checked by a predicate; their metadata carries the shape.
      unrepresentable: "any",
    }) as Json;
    const { $schema: _, $defs, ...root } = relink(raw) as Json;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, Json>)) {
      const text = JSON.stringify(def);
      const before = this.#seen.get(id);
      // One name, one schema: a request and an answer must not disagree on it.
      if (before !== undefined && before !== text) {
        throw new Error(`schema ${id} converts differently as ${io}`);
      }
      this.#seen.set(id, text);
      this.components[id] = def;
    }
    return root;
  }
}

/** `value` with every `#/$defs/X` reference pointed at `#/components/schemas/X`. */
function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === "$ref" && typeof v === "string" && v.startsWith(DEFS)
        ? COMPONENTS + v.slice(DEFS.length)
        : relink(v),
    ]),
  );
}

/** The Parameter Objects of `schema`'s properties, `where` they are sent. */
function parameters(conv: Converter, schema: z.ZodObject, where: "path" | "query"): Json[] {
  const object = conv.convert(schema, "input");
  const required = new Set((object.required ?? []) as string[]);
  const properties = (object.properties ?? {}) as Record<string, Json>;
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    ...(typeof property.description === "string" ? { description: property.description } : {}),
    // A list is sent as one comma-separated value: a repeated parameter is refused (params.ts).
    ...(property.type === "array" ? { style: "form", explode: false } : {}),
    schema: property,
  }));
}

/** The Media Type Object of `body`. */
function content(conv: Converter, body: Body, io: "input" | "output"): Json {
  const type = body.type ?? "application/json";
  if (body.schema === undefined) return { [type]: {} };
  const schema = conv.convert(body.schema, io);
  // An event stream is text; its messages' data is what the schema describes.
  if (type === "text/event-stream") {
    return { [type]: { schema: { type: "string" }, "x-event-data": schema } };
  }
  return { [type]: { schema } };
}

/** The problem statuses `op` can answer with. */
function problemStatuses(op: Operation): number[] {
  const statuses = new Set(op.problems ?? []);
  // Every API route refuses an unknown or repeated query parameter (declared_route.ts, params.ts).
  if (op.path.startsWith("/api/") || op.params || op.query || op.body) statuses.add(400);
  if (op.body) statuses.add(408);
  if (METHODS_THAT_CHANGE.has(op.method)) {
    statuses.add(401);
    statuses.add(403);
    // Any change may meet a store opened read-only, or a full disk (see problem.ts, http.ts).
    statuses.add(503);
    statuses.add(507);
  }
  return [...statuses].sort((a, b) => a - b);
}

/** The Operation Object of `op`. */
function operation(conv: Converter, op: Operation): Json {
  const params = [
    ...(op.params ? parameters(conv, op.params, "path") : []),
    ...(op.query ? parameters(conv, op.query, "query") : []),
  ];
  const responses: Json = {
    [String(op.ok.status ?? 200)]: {
      description: op.ok.description ?? op.summary,
      ...(op.ok.headers
        ? {
          headers: Object.fromEntries(
            Object.entries(op.ok.headers).map((
              [name, description],
            ) => [name, { description, schema: { type: "string" } }]),
          ),
        }
        : {}),
      content: content(conv, op.ok, "output"),
    },
  };
  for (const status of problemStatuses(op)) {
    responses[String(status)] = {
      description: PROBLEM_TEXT[status],
      content: { "application/problem+json": { schema: { $ref: `${COMPONENTS}Problem` } } },
    };
  }
  return {
    operationId: `${op.method}${
      op.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c) => c ? c.toUpperCase() : "")
    }`,
    tags: [op.tag],
    summary: op.summary,
    ...(params.length ? { parameters: params } : {}),
    ...(op.body
      ? {
        requestBody: {
          required: op.body.required ?? true,
          ...(op.body.description ? { description: op.body.description } : {}),
          content: content(conv, op.body, "input"),
        },
      }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of every operation in `operations`, in their order. */
export function openApiDocument(operations: readonly Operation[]): Json {
  const conv = new Converter();
  conv.convert(problemSchema, "output");
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    (paths[op.path] ??= {})[op.method] = operation(conv, op);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "sim-datalogger HTTP API",
      version: APP_VERSION,
      description: "The logger's HTTP API; docs/api.md is the readable guide.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    paths,
    components: { schemas: conv.components },
  };
}
