/**
 * The team's drivers over HTTP (admin only): POST /api/drivers,
 * GET /api/drivers, DELETE /api/drivers/{name}.
 *
 * @module
 */
import { z } from "zod";
import type { HubApp } from "../../app/hub/hub_app.ts";
import {
  driverAddedSchema,
  driverItemSchema,
  driverNameSchema,
  driverRevokedSchema,
} from "../../app/hub/hub_drivers.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";
import { type HubEnv, principalIn } from "./hub_env.ts";

/** Largest body of a driver's creation. */
const DRIVER_BODY_BYTES = 4096;

/** POST /api/drivers. */
export const addDriverRoute = declareRoute({
  method: "post",
  path: "/api/drivers",
  tag: "drivers",
  summary: "Add a driver and make its token (admin only)",
  body: { schema: z.strictObject({ name: z.string({ error: "is required" }) }) },
  bodyLimit: DRIVER_BODY_BYTES,
  ok: { status: 201, schema: driverAddedSchema },
  problems: [401, 403, 409, 413],
});

/** GET /api/drivers. */
export const listDriversRoute = declareRoute({
  method: "get",
  path: "/api/drivers",
  tag: "drivers",
  summary: "The team's drivers (admin only)",
  ok: { schema: z.strictObject({ drivers: z.array(driverItemSchema) }) },
  problems: [401, 403],
});

/** DELETE /api/drivers/{name}. */
export const revokeDriverRoute = declareRoute({
  method: "delete",
  path: "/api/drivers/{name}",
  tag: "drivers",
  summary: "Revoke a driver's token; its laps stay (admin only)",
  params: z.object({ name: driverNameSchema }),
  ok: { schema: driverRevokedSchema },
  problems: [401, 403, 404],
});

/** The driver routes over `app`. */
export function hubDriverRoutes(app: HubApp): RouteTable<HubEnv> {
  const r = new RouteTable<HubEnv>();
  r.serve(addDriverRoute, async ({ body, reply }, c) =>
    // The name's rule is checked by the use case after the admin check: a driver learns no rule.
    reply.json(await app.addDriver(principalIn(c), body.name)));
  r.serve(
    listDriversRoute,
    async ({ reply }, c) => reply.json({ drivers: await app.drivers(principalIn(c)) }),
  );
  r.serve(
    revokeDriverRoute,
    async ({ params, reply }, c) => reply.json(await app.revokeDriver(principalIn(c), params.name)),
  );
  return r;
}
