/**
 * The team hub routes of the logger (issue #38): POST /api/hub/push queues
 * stored laps (imported ones are pushed only this way) for the background
 * sender and answers 202 at once; the hub's answer is told in the `hub`
 * status, not awaited.
 *
 * @module
 */
import type { AppFace } from "../../app/create_app.ts";
import { hubPushBodySchema } from "../../app/hub_link/hub_push_body.ts";
import { hubPushResultSchema } from "../../app/hub_link/hub_status.ts";
import { Conflict } from "../../core/errors.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";

/** A push names at most a thousand ids: a few kilobytes. */
const MAX_PUSH_BYTES = 64 * 1024;

/** POST /api/hub/push. */
export const pushToHub = declareRoute({
  method: "post",
  path: "/api/hub/push",
  tag: "hub",
  summary: "Queue stored laps for the team hub",
  description: "Queues the laps (recorded or imported) in the outbox, all or none, and answers " +
    "at once; the background sender pushes them (GET /api/status `hub` tells how it goes). " +
    "404 names every id no stored lap has; 409 when the logger runs without --hub.",
  body: { schema: hubPushBodySchema },
  bodyLimit: MAX_PUSH_BYTES,
  bodyName: "hub push",
  ok: { status: 202, schema: hubPushResultSchema },
  problems: [404, 409, 413],
});

/** POST /api/hub/push {laps}. */
export function hubRoutes(app: AppFace): RouteTable {
  const r = new RouteTable();
  r.serve(pushToHub, async ({ body, reply }) => {
    if (app.hub === null) {
      throw new Conflict(
        "no team hub is configured: start the logger with --hub URL --hub-token TOKEN " +
          "(or SIM_DATALOGGER_HUB and SIM_DATALOGGER_HUB_TOKEN)",
      );
    }
    return reply.json(await app.hub.pushLaps(body.laps));
  });
  return r;
}
