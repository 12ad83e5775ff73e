/**
 * Lap exchange: export a lap as a lap file or MoTeC CSV, import the laps
 * of a file of any format an import recognises (lap_import.ts), and import
 * the laps of a capture or record file (capture_import.ts). A file is
 * validated in full before anything is written, so a rejected file creates
 * nothing, not even a session. Imported laps always get an `imported`
 * session of their own: a lap from elsewhere (another car,
 * another circuit, another day) must never become a lap, or the best, of
 * the session being driven.
 *
 * @module
 */
import { type LapFileV2, toLapFile } from "../../core/laps/lap_file.ts";
import { lapCsvLines } from "../../core/laps/csv.ts";
import { lapExportFilename } from "./export_names.ts";
import type { CaptureFile } from "../../core/gt7/capture_file.ts";
import { carName } from "../../core/catalog/cars.ts";
import type { Lap } from "../../core/laps/lap.ts";
import { getSession } from "../../storage/sessions.ts";
import {
  type LapImportFile,
  readLapImport,
  readLapImportJson,
} from "../../core/laps/import/recognise.ts";
import { type LapImportResult, storeImport } from "./lap_import.ts";
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

export { type LapImportResult, lapImportResultSchema } from "./lap_import.ts";

/** What the lap exchange calls on the other services. */
export interface LapExchangeServices {
  /** Reading the laps (and, for MoTeC logs, their session) to export. */
  sessions: Pick<SessionService, "lap" | "laps" | "get">;
  /** Naming the sessions an import makes, as live naming would. */
  tracks: Pick<TrackService, "nameImported" | "namingOfLaps">;
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
   * Imports the file `bytes`, whatever its format, recognised by content
   * (see {@linkcode readLapImport}): our lap file, gt7dashboard's save, MoTeC
   * CSV or .ld. Everything is read and checked before anything is written,
   * so a refused file creates nothing, not even a session. Every lap is
   * stored in one new `imported` session, never the live one, even while
   * telemetry is recording, named as {@linkcode storeImport} says.
   *
   * @throws {ImportRejected} naming what was recognised and what is wrong
   * or missing; BadRequest for JSON text that does not parse.
   */
  async importBytes(bytes: Uint8Array): Promise<LapImportResult> {
    return await this.#store(readLapImport(bytes));
  }

  /**
   * Imports a parsed JSON document: a lap file (version 1 or 2) or
   * gt7dashboard's save. Throws ImportRejected, with a JSON path per
   * failure, before writing anything; stored as
   * {@linkcode importBytes} stores a file's laps. Its coverage is judged
   * from its samples (see {@linkcode storeImport}); an incomplete lap is
   * stored but never counts for best.
   */
  async importFile(json: unknown): Promise<LapImportResult> {
    return await this.#store(readLapImportJson(json));
  }

  #store(file: LapImportFile): Promise<LapImportResult> {
    return storeImport(this.#deps, file, (laps) => this.#tracks.namingOfLaps(laps));
  }

  /** Records the laps of a capture or record file; see {@linkcode CaptureImporter.import}. */
  importCapture(file: CaptureFile, opts: CaptureImportOptions = {}): Promise<CaptureImportResult> {
    return this.#captures.import(file, opts);
  }
}
