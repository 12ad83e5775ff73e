/**
 * What the OpenAPI document says about one route: its method and path, the
 * zod schemas of its parameters, body and answer, and the problem statuses
 * it can answer with. The registry (operations.ts) lists one per route.
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
  /**
   * The success status (200 unless said), its body, and the headers it may
   * carry (name to what it says).
   */
  ok: Body & { status?: number; headers?: Record<string, string> };
  /**
   * Problem statuses the route answers besides those every route may give;
   * 401/403 are added to every change (see auth.ts) and 400 to every route
   * under /api (each refuses an unknown query parameter).
   */
  problems?: number[];
}
