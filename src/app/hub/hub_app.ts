/**
 * The hub's application: every use case over one database, each taking the
 * asking {@linkcode Principal} where who asks matters. It holds no state
 * between calls but the database port, so several hub processes share one
 * database. The HTTP face (src/server/hub/) and the `hub` command use it;
 * extra route groups (analysis, pages) read laps through
 * {@linkcode HubApp.lapFile} and {@linkcode HubApp.laps}.
 *
 * @module
 */
import type { z } from "zod";
import type { CompiledTrack } from "../../core/geometry/types.ts";
import type { LapFileV2 } from "../../core/laps/lap_file.ts";
import type { BundleV4 } from "../../core/bundle/types.ts";
import type { LapFilter } from "../../storage/hub/laps.ts";
import type { SqlPort } from "../../storage/hub/sql_port.ts";
import type { BundleHeadRow } from "../../storage/hub/bundles.ts";
import { addDriver, driverList, revoke } from "./hub_drivers.ts";
import type { driverAddedSchema, driverItemSchema, driverRevokedSchema } from "./hub_drivers.ts";
import {
  deleteLap,
  type hubLapItemSchema,
  lapFile,
  lapList,
  type lapPushedSchema,
  leaderboard,
  type leaderboardSchema,
  pushLap,
} from "./hub_laps.ts";
import { bundleCompiled, bundleDoc, bundleList, mergeVotes } from "./hub_bundles.ts";
import type { votesMergedSchema } from "./hub_bundles.ts";
import { ensureTeam, type Principal, principalOf } from "./principal.ts";
import { IntakeGate } from "./intake_gate.ts";
import { jsonBody } from "../../core/json_body.ts";

export type { Principal } from "./principal.ts";

/** What the hub app runs on. */
export interface HubDeps {
  db: SqlPort;
  /** The clock (tests pass a fixed one). */
  now?: () => Date;
}

/** The hub's use cases over one database. */
export class HubApp {
  /** The database; the app never closes it (its opener does). */
  readonly db: SqlPort;
  readonly #now: () => Date;
  readonly #intake = new IntakeGate();

  /** The app over `deps.db`. */
  constructor(deps: HubDeps) {
    this.db = deps.db;
    this.#now = deps.now ?? (() => new Date());
  }

  /** Creates the team on first start; see {@linkcode ensureTeam}. */
  ensureTeam(adminToken: string | null): Promise<string | null> {
    return ensureTeam(this.db, adminToken);
  }

  /** The owner of the `Authorization` header's token; see {@linkcode principalOf}. */
  principal(authorization: string | null): Promise<Principal> {
    return principalOf(this.db, authorization);
  }

  /** Adds a driver (admin only); see {@linkcode addDriver}. */
  addDriver(who: Principal, name: string): Promise<z.output<typeof driverAddedSchema>> {
    return addDriver(this.db, who, name);
  }

  /** Lists the drivers (admin only); see {@linkcode driverList}. */
  drivers(who: Principal): Promise<z.output<typeof driverItemSchema>[]> {
    return driverList(this.db, who);
  }

  /** Revokes a driver (admin only); see {@linkcode revoke}. */
  revokeDriver(who: Principal, name: string): Promise<z.output<typeof driverRevokedSchema>> {
    return revoke(this.db, who, name);
  }

  /**
   * Stores the lap file in `bytes` (a request body), parsed and rebuilt a
   * few at a time per process (see {@linkcode IntakeGate}); see
   * {@linkcode pushLap}.
   *
   * @throws {BadRequest} for bytes that are not UTF-8 JSON; as {@linkcode pushLap}.
   */
  pushLap(who: Principal, bytes: Uint8Array): Promise<z.output<typeof lapPushedSchema>> {
    return this.#intake.run(() => pushLap(this.db, who, jsonBody(bytes)));
  }

  /** Lap `id` as its lap file (NotFound when none); see {@linkcode lapFile}. */
  lapFile(id: number): Promise<LapFileV2> {
    return lapFile(this.db, id);
  }

  /** The laps matching `filter`, newest first; see {@linkcode lapList}. */
  laps(filter: LapFilter): Promise<z.output<typeof hubLapItemSchema>[]> {
    return lapList(this.db, filter);
  }

  /** Deletes a lap (its driver's or the admin's); see {@linkcode deleteLap}. */
  deleteLap(who: Principal, id: number): Promise<{ id: number }> {
    return deleteLap(this.db, who, id);
  }

  /** A circuit's leaderboard; see {@linkcode leaderboard}. */
  leaderboard(circuit: string, car: number | null): Promise<z.output<typeof leaderboardSchema>> {
    return leaderboard(this.db, circuit, car);
  }

  /** Merges a bundle file's votes into team bundle `slug`; see {@linkcode mergeVotes}. */
  mergeVotes(slug: string, bytes: Uint8Array): Promise<z.output<typeof votesMergedSchema>> {
    return mergeVotes(this.db, slug, bytes, this.#now().toISOString());
  }

  /** Every team bundle's head; see {@linkcode bundleList}. */
  bundles(): Promise<BundleHeadRow[]> {
    return bundleList(this.db);
  }

  /** Team bundle `slug`'s document; see {@linkcode bundleDoc}. */
  bundle(slug: string): Promise<BundleV4> {
    return bundleDoc(this.db, slug);
  }

  /** Team bundle `slug`'s compiled geometry; see {@linkcode bundleCompiled}. */
  compiled(slug: string): Promise<CompiledTrack> {
    return bundleCompiled(this.db, slug);
  }
}
