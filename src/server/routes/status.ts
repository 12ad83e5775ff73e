/**
 * Health and status routes.
 *
 * @module
 */
import { Hono } from "hono";
import type { App } from "../../app/create_app.ts";
import { APP_VERSION } from "../../app/version.ts";

/** GET /api/health and GET /api/status. */
export function statusRoutes(app: App): Hono {
  const r = new Hono();
  r.get("/health", (c) =>
    c.json({
      status: "ok",
      version: APP_VERSION,
      started_at: app.startedAt.toISOString(),
    }));
  r.get("/status", (c) =>
    c.json({
      telemetry: app.telemetryStatus(),
      live: app.live.status(),
    }));
  return r;
}
