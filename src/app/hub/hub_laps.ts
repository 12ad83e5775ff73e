/**
 * The team's laps: a driver pushes a lap file (stored once per driver and
 * content), anyone on the team lists laps, reads one back as its lap file
 * and reads a circuit's leaderboard; a lap is deleted by its driver or the
 * admin.
 *
 * @module
 */
import { z } from "zod";
import { NotFound } from "../../core/errors.ts";
import type { Section } from "../../core/bundle/types.ts";
import type { Lap } from "../../core/laps/lap.ts";
import { type LapFileV2, toLapFile } from "../../core/laps/lap_file.ts";
import { decodeSamples } from "../../storage/lap_codec.ts";
import { bundleSections } from "../../storage/hub/bundles.ts";
import {
  deleteLapRow,
  getLapRow,
  insertLap,
  type LapFilter,
  lapKey,
  listLapRows,
} from "../../storage/hub/laps.ts";
import { bestRows, refreshBest } from "../../storage/hub/bests.ts";
import type { SqlPort, SqlRunner } from "../../storage/hub/sql_port.ts";
import { boardOf } from "./board.ts";
import { HubDenied } from "./hub_errors.ts";
import { lapRowOf } from "./lap_intake.ts";
import type { Principal } from "./principal.ts";

/** A lap as listed. */
export const hubLapItemSchema = z.strictObject({
  id: z.int(),
  driver: z.string(),
  circuit: z.string().nullable().describe("the circuit's slug; null for an unnamed lap"),
  track_name: z.string(),
  car_id: z.int(),
  time_ms: z.int(),
  finished_at: z.string(),
  complete: z.boolean(),
});

/** What a push answers: the stored lap, and whether this push stored it. */
export const lapPushedSchema = z.strictObject({
  id: z.int(),
  driver: z.string(),
  circuit: z.string().nullable(),
  car_id: z.int(),
  time_ms: z.int(),
  finished_at: z.string(),
  created: z.boolean().describe("false: that content was already there (a repeat)"),
});

/** One driver's line of a leaderboard. */
export const boardRowSchema = z.strictObject({
  driver: z.string(),
  best_ms: z.int(),
  lap_id: z.int(),
  car_id: z.int(),
  gap_ms: z.int(),
  theoretical_best_ms: z.int().nullable(),
  laps: z.int(),
  last_driven: z.string(),
});

/** A circuit's leaderboard. */
export const leaderboardSchema = z.strictObject({
  circuit: z.string(),
  car_id: z.int().nullable(),
  rows: z.array(boardRowSchema),
});

/** What a lap deletion answers. */
export const lapDeletedSchema = z.strictObject({ id: z.int() });

type Pushed = z.output<typeof lapPushedSchema>;

/**
 * Stores lap file `json` as a lap of `who` (a driver: an admin does not
 * drive) and answers it; a repeat of a lap already there answers that lap
 * with `created` false and writes nothing.
 *
 * @throws {HubDenied} 403 for the admin; {ImportRejected} for a file the
 *   logger's import refuses (nothing written).
 */
export async function pushLap(db: SqlPort, who: Principal, json: unknown): Promise<Pushed> {
  if (who.admin) {
    throw new HubDenied("the admin does not drive: push laps with a driver's token", 403);
  }
  const row = await lapRowOf(
    json,
    who.name,
    async (circuit) => (await bundleSections(db, circuit)) as Section[] | null,
  );
  const { id, created } = await db.transaction(async (tx) => {
    const stored = await insertLap(tx, row);
    if (stored.created && row.circuit !== null) {
      await refreshBest(tx, row.circuit, row.car_id, row.driver);
    }
    return stored;
  });
  return {
    id,
    driver: row.driver,
    circuit: row.circuit,
    car_id: row.car_id,
    time_ms: row.time_ms,
    finished_at: row.finished_at,
    created,
  };
}

/**
 * Lap `id` as a version 2 lap file, in the logger's export format: its
 * samples exactly as pushed, its fields as the hub derived them, `id` the
 * hub's and `session_id` 0.
 *
 * @throws {NotFound} for no such lap.
 */
export async function lapFile(db: SqlRunner, id: number): Promise<LapFileV2> {
  const row = await getLapRow(db, id);
  if (row === null) throw new NotFound(`no lap ${id} on this hub`);
  const lap = { ...row.fields, id: row.id, session_id: 0, samples: decodeSamples(row.samples) };
  return toLapFile(lap as unknown as Lap, {
    track_name: row.track_name,
    car_name: String(row.fields.car_name ?? ""),
  });
}

/** Laps matching `filter`, newest first. */
export function lapList(
  db: SqlRunner,
  filter: LapFilter,
): Promise<z.output<typeof hubLapItemSchema>[]> {
  return listLapRows(db, filter);
}

/**
 * Deletes lap `id`: `who`'s own, or any when `who` is the admin.
 *
 * @throws {NotFound} for no such lap; {HubDenied} 403 for another driver's.
 */
export async function deleteLap(
  db: SqlPort,
  who: Principal,
  id: number,
): Promise<{ id: number }> {
  const key = await lapKey(db, id);
  if (key === null) throw new NotFound(`no lap ${id} on this hub`);
  if (!who.admin && key.driver !== who.name) {
    throw new HubDenied(`lap ${id} is ${key.driver}'s: a driver deletes only its own laps`, 403);
  }
  await db.transaction(async (tx) => {
    await deleteLapRow(tx, id);
    if (key.circuit !== null) await refreshBest(tx, key.circuit, key.car_id, key.driver);
  });
  return { id };
}

/**
 * The leaderboard of `circuit` (and car `car` when not null): each
 * driver's best complete lap, fastest first; see {@linkcode boardOf}.
 */
export async function leaderboard(
  db: SqlRunner,
  circuit: string,
  car: number | null,
): Promise<z.output<typeof leaderboardSchema>> {
  return { circuit, car_id: car, rows: boardOf(await bestRows(db, circuit, car)) };
}
