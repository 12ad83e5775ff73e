/**
 * Lap exchange use cases: export a lap as a lap file or MoTeC CSV, and import
 * a lap file into the store. An import is validated in full before anything
 * is written, so a rejected file creates nothing, not even a session. An
 * imported lap always gets an `imported` session of its own: a lap from
 * elsewhere (another car, another circuit, another day) must never become a
 * lap, or the best, of the session being driven.
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
  /** Always true: every import makes a new `imported` session to hold its lap. */
  created_session: true;
}

/**
 * Imports a parsed JSON lap file (version 1 or 2). Throws ImportRejected,
 * with a JSON path per failure, before writing anything. The lap is stored
 * in a new `imported` session of its own, never in the live session, even
 * while telemetry is recording. Its coverage is judged from its samples (see
 * {@linkcode buildImportedLap}); an incomplete lap is stored but never counts
 * for best.
 */
export async function importLapFile(app: App, json: unknown): Promise<LapImportResult> {
  const parsed = parseLapFile(json);
  const now = app.now().toISOString();
  const { counts_for_best: _c, ...lap } = buildImportedLap(parsed, now);
  const session = await createSession(app.kv, {
    kind: "imported",
    started_at: now,
    car_id: lap.car_id,
    car_name: carName(lap.car_id),
  });
  try {
    const summary = await saveLap(app.kv, session.id, lap);
    const stored = (await getSession(app.kv, session.id))!;
    return { lap: summary, session: stored, created_session: true };
  } catch (err) {
    await deleteSession(app.kv, session.id);
    throw err;
  }
}
