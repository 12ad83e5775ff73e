/**
 * An in-memory team hub for the hub analysis tests: the functions the hub
 * app hands its analysis (src/app/hub/hub_analysis_source.ts), over lap files made as
 * the logger exports them from real laps (the Broad Bean fixture's), and
 * a server on an ephemeral loopback port mounting the hub's analysis routes
 * (with a stand-in for the hub's own `GET /api/laps`, which the pages read).
 *
 * @module
 */
import { hubAnalysis } from "../../../src/app/hub/hub_analysis.ts";
import { decodeLap } from "../../../src/app/hub/hub_analysis_laps.ts";
import type {
  HubLapQuery,
  HubLapRow,
  HubLapSource,
} from "../../../src/app/hub/hub_analysis_source.ts";
import { silentLog } from "../../../src/app/log.ts";
import { BadRequest } from "../../../src/core/errors.ts";
import type { BundleV4 } from "../../../src/core/bundle/types.ts";
import { circuitOf } from "../../../src/core/bundle/slug.ts";
import type { LapSamples } from "../../../src/core/laps/columns.ts";
import {
  buildImportedLap,
  LAP_FILE_FORMAT,
  type LapFileV2,
  parseLapFile,
  toLapFile,
} from "../../../src/core/laps/lap_file.ts";
import { mountHubAnalysis } from "../../../src/server/hub/analysis_routes.ts";
import { problemResponse } from "../../../src/server/problem.ts";
import { RouteTable } from "../../../src/server/route_table.ts";
import { openApiRoutes } from "../../../src/server/routes/openapi.ts";

/** A lap a driver pushed: what the hub was sent. */
export interface PushedLap {
  number: number;
  time_ms: number;
  car_id: number;
  track_name: string;
  finished_at: string;
  samples: LapSamples;
}

/** The lap file the driver's logger exports for `lap` (its local id `local`), as sent over JSON. */
export function exportedFile(lap: PushedLap, local: number): LapFileV2 {
  const parsed = parseLapFile({ format: LAP_FILE_FORMAT, version: 2, lap });
  const names = { track_name: lap.track_name, car_name: "Test Car" };
  const file = toLapFile({ ...buildImportedLap(parsed), id: local, session_id: 1 }, names);
  return JSON.parse(JSON.stringify(file));
}

/** The team hub's laps and bundles, in memory; ids as pushed. */
export class FakeHub implements HubLapSource {
  readonly #files = new Map<number, { driver: string; file: LapFileV2; row: HubLapRow }>();
  /** Team bundles by slug. */
  readonly bundles = new Map<string, BundleV4>();
  /** Ids of every lap file read, in order: what a question cost. */
  readonly reads: number[] = [];

  /** Stores `lap` as driver `driver`'s, under hub id `id`. */
  push(id: number, driver: string, lap: PushedLap): void {
    const file = exportedFile(lap, id % 7 + 1);
    const decoded = decodeLap(id, file).lap;
    const row: HubLapRow = {
      id,
      driver,
      circuit: circuitOf(lap.track_name),
      track_name: lap.track_name,
      car_id: lap.car_id,
      time_ms: lap.time_ms,
      finished_at: lap.finished_at,
      complete: decoded.complete,
    };
    this.#files.set(id, { driver, file, row });
  }

  /** Lap `id`'s file with its driver, or null. */
  lapFile(id: number): Promise<unknown | null> {
    this.reads.push(id);
    const found = this.#files.get(id);
    return Promise.resolve(found ? { ...found.file, driver: found.driver } : null);
  }

  /** The rows matching `q`, newest first (then by id, highest first). */
  laps(q: HubLapQuery): Promise<readonly HubLapRow[]> {
    const rows = [...this.#files.values()].map((f) => f.row)
      .filter((r) =>
        (q.circuit === undefined || r.circuit === q.circuit) &&
        (q.car === undefined || r.car_id === q.car) &&
        (q.driver === undefined || r.driver === q.driver)
      )
      .sort((a, b) => b.finished_at.localeCompare(a.finished_at) || b.id - a.id);
    return Promise.resolve(rows.slice(0, q.limit ?? 100));
  }

  /** The team bundle of `slug`, or null. */
  bundle(slug: string): Promise<BundleV4 | null> {
    return Promise.resolve(this.bundles.get(slug) ?? null);
  }
}

/** The parameters the contract's `GET /api/laps` takes. */
const LISTING_PARAMS = ["circuit", "car", "driver", "limit", "before"];

/** The listing's filters as a query string names them (the contract's `GET /api/laps`). */
function listingQuery(q: URLSearchParams): HubLapQuery {
  const num = (k: string) => q.has(k) ? Number(q.get(k)) : undefined;
  return {
    circuit: q.get("circuit") ?? undefined,
    car: num("car"),
    driver: q.get("driver") ?? undefined,
    limit: num("limit"),
  };
}

/**
 * Runs `fn` with the base URL of a real server over `hub`: the hub's
 * analysis routes and pages, its OpenAPI document, and a stand-in for its
 * `GET /api/laps` as the contract has it (its filters; any other parameter,
 * such as the logger's `ids`, refused); closed afterwards.
 */
export async function withHub(hub: FakeHub, fn: (url: string) => Promise<void>): Promise<void> {
  const table = new RouteTable();
  mountHubAnalysis(table, hubAnalysis(hub));
  table.include(openApiRoutes(() => table.operations));
  table.get("/api/laps", async (c) => {
    const q = new URL(c.req.url).searchParams;
    const unknown = [...q.keys()].find((k) => !LISTING_PARAMS.includes(k));
    if (unknown !== undefined) {
      const message = "is not a parameter of this route";
      throw new BadRequest(`${unknown} ${message}`, [{ path: unknown, message }]);
    }
    return c.json({ laps: await hub.laps(listingQuery(q)) });
  });
  table.onError((err) => problemResponse(err, silentLog));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, table.fetch);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}
