/**
 * Lap exchange: export a lap as a lap file or MoTeC CSV, import a lap file,
 * and import the laps of a capture or record file (capture_import.ts). A
 * lap file import is validated in full before anything is written, so a
 * rejected file creates nothing, not even a session. An imported lap always
 * gets an `imported` session of its own: a lap from elsewhere (another car,
 * another circuit, another day) must never become a lap, or the best, of
 * the session being driven.
 *
 * @module
 */
import {
  buildImportedLap,
  type LapFileV2,
  parseLapFile,
  toLapFile,
} from "../../core/laps/lap_file.ts";
import { lapCsvLines } from "../../core/laps/csv.ts";
import { lapExportFilename } from "./export_names.ts";
import type { CaptureFile } from "../../core/gt7/capture_file.ts";
import { z } from "zod";
import { lapSummarySchema } from "../../core/laps/lap.ts";
import { sessionSchema } from "../../core/laps/session.ts";
import { carName, isKnownCar } from "../../core/catalog/cars.ts";
import type { Lap } from "../../core/laps/lap.ts";
import { createSession, deleteSession, getSession } from "../../storage/sessions.ts";
import { saveLap } from "../../storage/laps.ts";
import {
  CaptureImporter,
  type CaptureImportOptions,
  type CaptureImportResult,
} from "./capture_import.ts";
import type { AppDeps } from "../deps.ts";
import type { SessionService } from "./sessions.ts";
import type { TrackService } from "../tracks/tracks.ts";
import {
  exportLapMotec,
  exportSessionMotec,
  type MotecExport,
  type MotecExportOptions,
} from "./motec_export.ts";

/** A CSV export: its file name and its lines, generated on demand. */
export interface CsvExport {
  filename: string;
  lines: Generator<string>;
  /** The lap exported, for naming a file after it. */
  lap: Pick<Lap, "id" | "session_id" | "number" | "finished_at">;
  /** Its session's circuit name (the CSV's Venue), "" when unnamed. */
  venue: string;
}

/** What a lap file import did (`POST /api/laps/import`): the response schema. */
export const lapImportResultSchema = z.strictObject({
  lap: lapSummarySchema,
  session: sessionSchema,
  /** Always true: every import makes a new `imported` session to hold its lap. */
  created_session: z.literal(true),
});

/** What a lap file import did. */
export type LapImportResult = z.output<typeof lapImportResultSchema>;

/** What the lap exchange calls on the other services. */
export interface LapExchangeServices {
  /** Reading the laps (and, for MoTeC logs, their session) to export. */
  sessions: Pick<SessionService, "lap" | "laps" | "get">;
  /** Naming the sessions an import makes, as live naming would. */
  tracks: Pick<TrackService, "nameImported" | "namingOf">;
}

/** Laps to and from files. */
export class LapExchange {
  readonly #deps: Pick<AppDeps, "kv" | "now">;
  readonly #sessions: LapExchangeServices["sessions"];
  readonly #captures: CaptureImporter;
  readonly #tracks: LapExchangeServices["tracks"];

  /** Exchange over `deps.kv`. */
  constructor(deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">, services: LapExchangeServices) {
    this.#deps = deps;
    this.#sessions = services.sessions;
    this.#captures = new CaptureImporter(deps, services.tracks);
    this.#tracks = services.tracks;
  }

  /**
   * Lap `id` as a version 2 lap file carrying its session's circuit and car
   * names; NotFound when unknown.
   */
  async exportFile(id: number): Promise<LapFileV2> {
    return (await this.exportNamedFile(id)).file;
  }

  /**
   * Lap `id`'s file (as {@linkcode exportFile}) with the name a download of
   * it takes: `sim-datalogger-lap-<id>-<circuit>-s<session>-<yyyymmdd-hhmmss>.json`,
   * as a folder export names it; NotFound when unknown.
   */
  async exportNamedFile(id: number): Promise<{ filename: string; file: LapFileV2 }> {
    const lap = await this.#sessions.lap(id);
    const session = await getSession(this.#deps.kv, lap.session_id);
    const track = session?.track_name ?? "";
    return {
      filename: lapExportFilename(lap, track, "json"),
      file: toLapFile(lap, {
        track_name: track,
        car_name: session?.car_name ?? carName(lap.car_id),
      }),
    };
  }

  /** Lap `id` as MoTeC CSV; NotFound when unknown. */
  async exportCsv(id: number): Promise<CsvExport> {
    const lap = await this.#sessions.lap(id);
    const session = await getSession(this.#deps.kv, lap.session_id);
    const venue = session?.track_name ?? "";
    return {
      filename: lapExportFilename(lap, venue, "csv"),
      lines: lapCsvLines(lap, { carName: carName(lap.car_id), venue }),
      lap: {
        id: lap.id,
        session_id: lap.session_id,
        number: lap.number,
        finished_at: lap.finished_at,
      },
      venue,
    };
  }

  /** Lap `id` as a MoTeC i2 log (what its .ld and .ldx are encoded from); NotFound when unknown. */
  exportMotec(id: number, opts: MotecExportOptions = {}): Promise<MotecExport> {
    return exportLapMotec(this.#sessions, id, opts);
  }

  /**
   * Every lap of session `id` as one MoTeC i2 log; NotFound when the session
   * is unknown or has no laps.
   */
  exportSessionMotec(id: number, opts: MotecExportOptions = {}): Promise<MotecExport> {
    return exportSessionMotec(this.#sessions, id, opts);
  }

  /**
   * Imports a parsed JSON lap file (version 1 or 2). Throws ImportRejected,
   * with a JSON path per failure, before writing anything. The lap is stored
   * in a new `imported` session of its own, never in the live session, even
   * while telemetry is recording. Its coverage is judged from its samples
   * (see {@linkcode buildImportedLap}); an incomplete lap is stored but
   * never counts for best. The new session takes the circuit name the file
   * carries (as a name the user gave, so identification leaves it alone);
   * a file without one is named as live naming would have named the lap
   * (see {@linkcode TrackService.namingOf}), or left unnamed when that is
   * unsure. It takes the file's car name when the car catalogue does not
   * know the car.
   */
  async importFile(json: unknown): Promise<LapImportResult> {
    const { kv } = this.#deps;
    const parsed = parseLapFile(json);
    const now = this.#deps.now().toISOString();
    const { counts_for_best: _c, ...lap } = buildImportedLap(parsed, now);
    const naming = parsed.track_name === "" ? await this.#tracks.namingOf(lap) : null;
    const session = await createSession(kv, {
      kind: "imported",
      started_at: now,
      car_id: lap.car_id,
      car_name: isKnownCar(lap.car_id) || parsed.car_name === ""
        ? carName(lap.car_id)
        : parsed.car_name,
      track_name: naming?.name ?? parsed.track_name,
      track_source: naming?.source ?? (parsed.track_name === "" ? "" : "user"),
    });
    try {
      // Stored now: the file's finish time may be long before this session began.
      const saved = await saveLap(kv, session.id, lap, now);
      return { lap: saved.lap, session: saved.session, created_session: true };
    } catch (err) {
      await deleteSession(kv, session.id);
      throw err;
    }
  }

  /** Records the laps of a capture or record file; see {@linkcode CaptureImporter.import}. */
  importCapture(file: CaptureFile, opts: CaptureImportOptions = {}): Promise<CaptureImportResult> {
    return this.#captures.import(file, opts);
  }
}
