/**
 * Which methods a path is served with, from the routes the HTTP app
 * registered: a known path asked with another method is a 405 naming them
 * (`Allow`), not a 404.
 *
 * @module
 */
import type { Context } from "hono";
import { NotFound } from "../core/errors.ts";
import type { Log } from "../app/log.ts";
import { MethodNotAllowed, problemResponse } from "./problem.ts";

/** A registered route as Hono lists it: `GET` and `/api/laps/:id`. */
export interface RouteEntry {
  method: string;
  path: string;
}

/** A route's path as a pattern: each `:param` is one segment, `*` anything. */
function patternOf(path: string): RegExp {
  const source = path.split("/").map((segment) =>
    segment.startsWith(":")
      ? "[^/]+"
      : segment === "*"
      ? ".*"
      : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  ).join("/");
  return new RegExp(`^${source}$`);
}

/**
 * A function answering the methods `path` is served with, sorted, HEAD
 * included wherever GET is (Hono answers HEAD with the GET route); empty for
 * a path no route serves. Routes for every method (middleware) are left out.
 * `routes` is read on first use, once every route is registered.
 */
export function allowedMethods(
  routes: () => readonly RouteEntry[],
): (path: string) => string[] {
  let table: { pattern: RegExp; method: string }[] | null = null;
  return (path) => {
    table ??= routes().filter((r) => r.method !== "ALL").map((r) => ({
      pattern: patternOf(r.path),
      method: r.method,
    }));
    const methods = new Set(table.filter((r) => r.pattern.test(path)).map((r) => r.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].sort();
  };
}

/**
 * The answer to a request no route took: a 405 problem naming the methods
 * its path is served with (`Allow`), else a 404 naming the request; failures
 * of the answer itself go to `log`.
 */
export function unrouted(
  routes: () => readonly RouteEntry[],
  log: Pick<Log, "error">,
): (c: Context) => Response {
  const allowed = allowedMethods(routes);
  return (c) => {
    const allow = allowed(c.req.path);
    return problemResponse(
      allow.length
        ? new MethodNotAllowed(c.req.method, c.req.path, allow)
        : new NotFound(`no route for ${c.req.method} ${c.req.path}`),
      log,
    );
  };
}
