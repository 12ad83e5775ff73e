/**
 * The route groups the hub serves beyond its status routes, in the
 * document's order. Mounting another group (the analysis API and pages) is
 * one line here.
 *
 * @module
 */
import type { HubApp } from "../../app/hub/hub_app.ts";
import { RouteTable } from "../route_table.ts";
import { hubAnalysis } from "../../app/hub/hub_analysis.ts";
import { mountHubAnalysis } from "./analysis_routes.ts";
import { hubBundleRoutes } from "./hub_bundle_routes.ts";
import { hubDriverRoutes } from "./hub_driver_routes.ts";
import type { HubEnv } from "./hub_env.ts";
import { hubLapRoutes } from "./hub_lap_routes.ts";
import { hubLiveRoutes } from "./hub_live_routes.ts";
import { hubLivePages } from "./hub_live_pages.ts";

/** Every route group of the hub over `app`. */
export function hubRouteGroups(app: HubApp): RouteTable<HubEnv>[] {
  return [
    hubDriverRoutes(app),
    hubLapRoutes(app),
    hubBundleRoutes(app),
    mountHubAnalysis(new RouteTable<HubEnv>(), hubAnalysis(app.analysisSource())),
    hubLiveRoutes(app),
    hubLivePages(),
  ];
}
