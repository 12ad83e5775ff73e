/**
 * The hub's open routes and who-am-I: GET /api/health (no token),
 * GET /api/me, and GET /openapi.json (the document of every route the hub
 * serves, made from their declarations as the logger's is).
 *
 * @module
 */
import { z } from "zod";
import { APP_VERSION } from "../../app/version.ts";
import { declareRoute } from "../declared_route.ts";
import { openApiDocument } from "../openapi/document.ts";
import type { Operation } from "../openapi/operation.ts";
import { RouteTable } from "../route_table.ts";
import { type HubEnv, principalIn } from "./hub_env.ts";

/** GET /api/health: answered to anyone, so a load balancer or a logger can probe it. */
export const hubHealth = declareRoute({
  method: "get",
  path: "/api/health",
  tag: "hub",
  summary: "Whether the hub is up (no token needed)",
  ok: { schema: z.strictObject({ ok: z.literal(true), version: z.string() }) },
});

/** GET /api/me. */
export const hubMe = declareRoute({
  method: "get",
  path: "/api/me",
  tag: "hub",
  summary: "Who the token is",
  ok: { schema: z.strictObject({ name: z.string(), admin: z.boolean() }) },
  problems: [401],
});

/** GET /openapi.json. */
export const hubOpenApi = declareRoute({
  method: "get",
  path: "/openapi.json",
  tag: "hub",
  summary: "This document",
  ok: { type: "application/json", description: "an OpenAPI 3.1 document" },
});

/** The paths answered without a token. */
export const OPEN_PATHS: readonly string[] = [hubHealth.path, hubOpenApi.path];

/** GET /api/health, GET /api/me, and GET /openapi.json of `operations()` (made once, when first asked). */
export function hubStatusRoutes(operations: () => readonly Operation[]): RouteTable<HubEnv> {
  const r = new RouteTable<HubEnv>();
  let text: string | null = null;
  r.serve(hubHealth, ({ reply }) => reply.json({ ok: true, version: APP_VERSION }));
  r.serve(hubMe, ({ reply }, c) => {
    const who = principalIn(c);
    return reply.json({ name: who.name, admin: who.admin });
  });
  r.serve(hubOpenApi, ({ reply }) =>
    reply.raw(
      new Response(text ??= JSON.stringify(openApiDocument(operations())), {
        headers: { "content-type": "application/json; charset=utf-8" },
      }),
    ));
  return r;
}
