/**
 * Lap exchange use cases: export a lap as a lap file or MoTeC CSV, and import
 * a lap file into the store. An import is validated in full before anything
 * is written, so a rejected file creates nothing, not even a session.
 *
 * @module
 */
import {
  buildImportedLap,
  type LapFileV2,
  parseLapFile,
  toLapFile,
} from "../core/laps/lap_file.ts";
import { lapCsvFilename, lapCsvLines } from "../core/laps/csv.ts";
import type { LapSummary } from "../core/laps/lap.ts";
import type { Session } from "../core/laps/session.ts";
import { carName } from "../core/catalog/cars.ts";
import { createSession, deleteSession, getSession } from "../storage/sessions.ts";
import { saveLap } from "../storage/laps.ts";
import type { App } from "./context.ts";
import { lap as loadLap } from "./sessions.ts";

/** Lap `id` as a version 2 lap file; NotFound when unknown. */
export async function exportLapFile(app: App, id: number): Promise<LapFileV2> {
  return toLapFile(await loadLap(app, id));
}

/** A CSV export: its file name and its lines, generated on demand. */
export interface CsvExport {
  filename: string;
  lines: Generator<string>;
}

/** Lap `id` as MoTeC CSV; NotFound when unknown. */
export async function exportLapCsv(app: App, id: number): Promise<CsvExport> {
  const lap = await loadLap(app, id);
  const session = await getSession(app.kv, lap.session_id);
  return {
    filename: lapCsvFilename(lap),
    lines: lapCsvLines(lap, { carName: carName(lap.car_id), venue: session?.track_name ?? "" }),
  };
}

/** What an import did. */
export interface LapImportResult {
  lap: LapSummary;
  session: Session;
  /** True when a new `imported` session was made to hold the lap. */
  created_session: boolean;
}

/**
 * Imports a parsed JSON lap file (version 1 or 2). Throws ImportRejected,
 * with a JSON path per failure, before writing anything. The lap joins the
 * live session when one is active; otherwise a new `imported` session holds it.
 */
export async function importLapFile(app: App, json: unknown): Promise<LapImportResult> {
  const parsed = parseLapFile(json);
  const now = app.now().toISOString();
  const { counts_for_best: _c, ...lap } = buildImportedLap(parsed, now);
  let session = await app.live.activeSession();
  let created = false;
  if (!session) {
    session = await createSession(app.kv, {
      kind: "imported",
      started_at: now,
      car_id: lap.car_id,
      car_name: carName(lap.car_id),
    });
    created = true;
  }
  try {
    const summary = await saveLap(app.kv, session.id, lap);
    const stored = (await getSession(app.kv, session.id))!;
    if (!created) await app.live.refresh();
    return { lap: summary, session: stored, created_session: created };
  } catch (err) {
    if (created) await deleteSession(app.kv, session.id);
    throw err;
  }
}
