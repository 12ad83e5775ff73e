/**
 * Health and status routes.
 *
 * @module
 */
import type { AppFace } from "../../app/create_app.ts";
import { APP_VERSION } from "../../app/version.ts";
import { declareRoute } from "../declared_route.ts";
import { RouteTable } from "../route_table.ts";
import { healthSchema, statusSchema } from "../openapi/status_schemas.ts";

/** Where the store is and how big its files are (`store` in GET /api/status). */
export interface StoreStatus {
  /** The database file, or null for a store in memory. */
  path: string | null;
  /** Size of the database file, bytes; null in memory or when it cannot be read. */
  data_bytes: number | null;
  /** Size of its write-ahead log, bytes (0 when there is none); null in memory or unreadable. */
  wal_bytes: number | null;
}

/** The status of the store at `path` (null: in memory), read from the file system now. */
export function storeStatus(path: string | null): StoreStatus {
  if (path === null) return { path, data_bytes: null, wal_bytes: null };
  return { path, data_bytes: fileSize(path, null), wal_bytes: fileSize(`${path}-wal`, 0) };
}

/** The size of the file at `path`; `missing` when there is no such file, null when unreadable. */
function fileSize(path: string, missing: number | null): number | null {
  try {
    return Deno.statSync(path).size;
  } catch (err) {
    return err instanceof Deno.errors.NotFound ? missing : null;
  }
}

/** GET /api/health. */
export const getHealth = declareRoute({
  method: "get",
  path: "/api/health",
  tag: "status",
  summary: "The process is up",
  ok: { schema: healthSchema },
});

/** GET /api/status. */
export const getStatus = declareRoute({
  method: "get",
  path: "/api/status",
  tag: "status",
  summary: "Telemetry, live session and store",
  ok: { schema: statusSchema },
});

/** GET /api/health and GET /api/status. */
export function statusRoutes(app: AppFace): RouteTable {
  const r = new RouteTable();
  r.serve(getHealth, ({ reply }) =>
    reply.json({
      status: "ok",
      version: APP_VERSION,
      started_at: app.startedAt.toISOString(),
    }));
  r.serve(getStatus, ({ reply }) =>
    reply.json({
      telemetry: app.telemetryStatus(),
      live: app.live.status(),
      store: { ...storeStatus(app.storePath), ...app.storeHealth.status() },
      hub: app.hub?.status() ?? null,
    }));
  return r;
}
