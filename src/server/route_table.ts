/**
 * The router that keeps the list of what it serves: serving a declared
 * route (src/server/declared_route.ts) registers its handler and appends its
 * operation, and including another table does both for all of its routes.
 * The OpenAPI document is made from that list (src/server/openapi/document.ts),
 * so no second registry of operations is kept in step with the router.
 *
 * @module
 */
import { type Env, Hono } from "hono";
import type { BlankEnv } from "hono/types";
import { handlerOf, type RouteHandler, type RouteSpec } from "./declared_route.ts";
import type { Operation } from "./openapi/operation.ts";

/** The Hono path of an OpenAPI path (`/api/laps/{id}` → `/api/laps/:id`). */
function honoPath(path: string): string {
  return path.replace(/\{([A-Za-z_]+)\}/g, ":$1");
}

/** A Hono router whose every declared route is listed, in the order mounted. */
export class RouteTable<E extends Env = BlankEnv> extends Hono<E> {
  readonly #operations: Operation[] = [];

  /** The operations served by this table and by the tables it includes, in the order added. */
  get operations(): readonly Operation[] {
    return this.#operations;
  }

  /**
   * Registers `spec` at its own path with `handler` behind its validators,
   * and lists it. A method and path served twice is refused: one route, one
   * declaration.
   */
  serve<const O extends RouteSpec>(spec: O, handler: RouteHandler<O, E>): this {
    this.#list([spec]);
    this.on(spec.method.toUpperCase(), honoPath(spec.path), handlerOf(spec, handler));
    return this;
  }

  /** Serves every route of `other` (its paths as declared) and lists its operations. */
  include<S extends Env>(other: RouteTable<S>): this {
    this.#list(other.operations);
    this.route("/", other);
    return this;
  }

  #list(operations: readonly Operation[]): void {
    for (const op of operations) {
      if (this.#operations.some((o) => o.method === op.method && o.path === op.path)) {
        throw new Error(`${op.method.toUpperCase()} ${op.path} is served twice`);
      }
      this.#operations.push(op);
    }
  }
}
