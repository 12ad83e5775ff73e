/**
 * What the OpenAPI document says about one route: its method and path, the
 * zod schemas of its parameters, body and answer, and the problem statuses
 * it can answer with. Mounting a route (src/server/route_table.ts) lists its
 * operation; the document is made from that list.
 *
 * @module
 */
import type { z } from "zod";

/** HTTP methods the API serves. */
export type Method = "get" | "post" | "put" | "patch" | "delete";

/** An answer's body: a zod schema for JSON, or a media type with a plain description. */
export interface Body {
  /** The media type; `application/json` by default. */
  type?: string;
  /** The body's schema (JSON bodies); absent for text, SVG, CSV and event streams. */
  schema?: z.ZodType;
  /** What the body is, in words. */
  description?: string;
}

/** What a success says besides its body: its status (200 unless said) and headers (name to meaning). */
interface OkExtras {
  status?: number;
  headers?: Record<string, string>;
}

/**
 * A JSON success: its schema is required, so the document shows the body and
 * the route's reply is typed by it (src/server/declared_route.ts).
 */
export interface JsonOk extends Body, OkExtras {
  type?: "application/json";
  schema: z.ZodType;
}

/**
 * Any other success (a page, a download, an event stream): its media type is
 * declared, and the route answers a response it makes itself.
 */
export interface RawOk extends Body, OkExtras {
  type: string;
}

/** One route of the API. */
export interface Operation {
  method: Method;
  /** OpenAPI path: `/api/laps/{id}`. */
  path: string;
  /** Groups the operation in the document (sessions, laps, analysis, ...). */
  tag: string;
  summary: string;
  /** The path parameters: the schemas the route parses them with. */
  params?: z.ZodObject;
  /** The query: the schema the use case parses it with. */
  query?: z.ZodObject;
  /** The JSON request body; `required: false` for a command that may come empty. */
  body?: Body & { required?: boolean };
  /** The success: JSON with its schema, or a declared media type. */
  ok: JsonOk | RawOk;
  /**
   * Problem statuses the route answers besides those every route may give;
   * 401/403 are added to every change (see auth.ts) and 400 to every route
   * under /api (each refuses an unknown query parameter).
   */
  problems?: number[];
}
