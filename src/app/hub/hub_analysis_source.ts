/**
 * What the team hub gives its analysis (the hub app provides these, as
 * its `GET /api/laps/{id}`, `GET /api/laps` and `GET /api/bundles/{slug}`
 * answer): a lap's file by id, a listing of laps, and the team bundle of a
 * circuit. The analysis never reads the
 * hub's database itself, so it runs over whatever store the hub keeps.
 *
 * @module
 */
import type { BundleV4 } from "../../core/bundle/types.ts";

/** A listing asked of the hub, as `GET /api/laps` takes it (all filters optional). */
export interface HubLapQuery {
  /** A circuit's slug. */
  circuit?: string;
  /** A car id. */
  car?: number;
  /** A driver's name. */
  driver?: string;
  /** Most rows answered (the logger's limit: 1 to 1,000). */
  limit?: number;
}

/** One row of the hub's lap listing, as `GET /api/laps` answers it. */
export interface HubLapRow {
  /** The hub's id of the lap. */
  id: number;
  /** Who drove it. */
  driver: string;
  /** The circuit's slug; null (or "") for a lap of an unnamed session. */
  circuit: string | null;
  /** The circuit's name as the driver's logger had it, "" when unnamed. */
  track_name: string;
  car_id: number;
  /** The lap time, ms; null or 0 for a lap without one. */
  time_ms: number | null;
  /** ISO 8601 UTC time the lap finished. */
  finished_at: string;
  /** True when no packet was lost: only complete laps count for a best. */
  complete: boolean;
}

/** The functions the hub app hands its analysis. */
export interface HubLapSource {
  /**
   * Lap `id` as the logger's `GET /api/laps/{id}/export.json` lap file (the
   * hub may add who drove it), or null when the hub holds no such lap.
   */
  lapFile(id: number): Promise<unknown | null>;
  /** Laps matching `q`, newest first, at most `q.limit`. */
  laps(q: HubLapQuery): Promise<readonly HubLapRow[]>;
  /** The team bundle of circuit `slug` (the merged bundle file), or null when there is none. */
  bundle(slug: string): Promise<BundleV4 | null>;
}
