/**
 * Capture import: the datagrams of a capture or record file recorded straight
 * through the lap recorder, without UDP. Each datagram is checked (and
 * decrypted) as the live client does, decoded, and fed to a `LiveService` of
 * its own over the app's store and bus, making `imported` sessions, so the
 * laps are stored exactly as live recording stores them, in sessions of
 * their own: an import never joins the app's live session, and the live
 * session never sees its frames.
 *
 * The clock of a record file follows the stream (each datagram's arrival
 * time), so its sessions and laps carry the times they were driven; a capture
 * without times is dated by the import.
 *
 * @module
 */
import { CaptureError } from "../../core/gt7/capture.ts";
import { type CaptureFile, type DecryptBuffers, packetOf } from "../../core/gt7/capture_file.ts";
import { decodeFrame } from "../../core/gt7/decode.ts";
import { PACKET_FORMATS, PACKET_SIZE } from "../../core/gt7/format.ts";
import type { LapSummary } from "../../core/laps/lap.ts";
import { listLaps } from "../../storage/laps.ts";
import type { AppDeps } from "../deps.ts";
import { LiveService } from "../live/live.ts";
import type { NamedSession, TrackService } from "../tracks/tracks.ts";
import type { DatagramCounts } from "../live/telemetry_source.ts";

export type { NamedSession } from "../tracks/tracks.ts";

/** How far an import has come; reported through {@linkcode CaptureImportOptions.onProgress}. */
export interface CaptureImportProgress {
  /** Datagrams handled so far. */
  done: number;
  /** Datagrams in the file. */
  total: number;
  /** Datagrams dropped so far (a size of no format, or no magic). */
  rejected: number;
  /** Laps stored so far. */
  laps: number;
}

/** Options of {@linkcode CaptureImporter.import}. */
export interface CaptureImportOptions {
  /**
   * Called about every `progressEveryMs` of work and once at the end, with
   * `done === total`. Must not throw; it runs inside the import.
   */
  onProgress?: (progress: CaptureImportProgress) => void;
  /** Milliseconds of work between progress reports and yields to the event loop; default 100. */
  progressEveryMs?: number;
}

/** What an import did. */
export interface CaptureImportResult extends DatagramCounts {
  /** What the file was. */
  kind: CaptureFile["kind"];
  /** Datagrams read: whole packet slots of a capture, whole entries of a record file. */
  datagrams: number;
  /** Laps stored. */
  laps: number;
  /**
   * Stored laps marked incomplete (`complete: false`), or null when no stored
   * lap carries a `complete` flag.
   */
  incomplete_laps: number | null;
  /** The sessions the import created, in the order they began; each of kind `imported`. */
  sessions: number[];
  /**
   * Sessions named afterwards, as live recording would have named them from
   * the same laps ({@linkcode TrackService.nameImported}).
   */
  named: NamedSession[];
  /** Bytes ignored at the end of the file (a truncated record entry or partial packet). */
  trailing_bytes: number;
}

/** Datagrams between checks of the clock for a progress report. */
const CHECK_EVERY = 512;

/** Records capture and record files into the store. */
export class CaptureImporter {
  readonly #deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">;
  readonly #tracks: Pick<TrackService, "nameImported">;

  /** Imports into `deps.kv`; `tracks` names the sessions an import made. */
  constructor(
    deps: Pick<AppDeps, "kv" | "bus" | "now" | "log">,
    tracks: Pick<TrackService, "nameImported">,
  ) {
    this.#deps = deps;
    this.#tracks = tracks;
  }

  /**
   * Records the datagrams of `file` into the store through a `LiveService`
   * of its own, then names the sessions it created as live naming would
   * have named them (same matcher, same confidence rules, `track_source`
   * saying what named each). Every datagram is handled as the live client would: one whose size
   * matches no format, or that fails the magic check, is counted and
   * skipped.
   *
   * Whenever a frame queues a write (a lap, a session change), it is awaited
   * before the next datagram: at most one lap waits to be stored, and the
   * stream's clock stands at that frame, where the live client's would be,
   * when a session is created. Everything is written when the promise
   * resolves. A session is created, of kind `imported`, just before its
   * first lap is stored.
   *
   * @throws {CaptureError} when the file holds no datagram; nothing is written then.
   */
  async import(file: CaptureFile, opts: CaptureImportOptions = {}): Promise<CaptureImportResult> {
    const total = file.datagrams.length;
    if (total === 0) throw new CaptureError(`${file.kind} file holds no datagrams`);
    const { kv } = this.#deps;
    const arrivals = file.arrivals;
    let clockMs = arrivals ? arrivals[0] : NaN;
    const live = new LiveService(
      { ...this.#deps, now: arrivals ? () => new Date(clockMs) : this.#deps.now },
      { kind: "imported" },
    );
    const sessions: number[] = [];
    const settle = async () => {
      await live.flush();
      const session = live.session;
      if (session && !sessions.includes(session.id)) sessions.push(session.id);
    };

    // One reusable output buffer per format: a decoded frame keeps no view of its packet.
    const buffers: DecryptBuffers = {};
    for (const f of PACKET_FORMATS) buffers[f] = new Uint8Array(PACKET_SIZE[f]);
    const everyMs = opts.progressEveryMs ?? 100;
    let rejectedSize = 0;
    let rejectedMagic = 0;
    let decoded = 0;
    let queued = live.flush();
    let reportedAt = performance.now();
    const report = (done: number) =>
      opts.onProgress?.({
        done,
        total,
        rejected: rejectedSize + rejectedMagic,
        laps: live.status().laps_recorded,
      });

    for (let i = 0; i < total; i++) {
      if (arrivals) clockMs = arrivals[i];
      const packet = packetOf(file.datagrams[i], file.encrypted, buffers);
      if (packet === "size") rejectedSize++;
      else if (packet === "magic") rejectedMagic++;
      else {
        const frame = decodeFrame(packet);
        decoded++;
        live.ingest(frame);
        // The frame queued a write (a lap, a session change): let it run now, on this frame's clock.
        if (live.flush() !== queued) {
          await settle();
          queued = live.flush();
        }
      }
      if (i % CHECK_EVERY === CHECK_EVERY - 1 && performance.now() - reportedAt >= everyMs) {
        report(i + 1);
        // Lets the rest of the process (a dashboard, live telemetry) run between chunks.
        await new Promise((resolve) => setTimeout(resolve, 0));
        reportedAt = performance.now();
      }
    }
    await settle();
    report(total);

    const status = live.status();
    const all: LapSummary[] = [];
    for (const id of sessions) all.push(...await listLaps(kv, id));
    const flagged = all.filter((l) => typeof (l as { complete?: unknown }).complete === "boolean");
    const incomplete = all.filter((l) => !notIncomplete(l)).length;
    return {
      kind: file.kind,
      datagrams: total,
      decoded,
      rejected_size: rejectedSize,
      rejected_magic: rejectedMagic,
      rejected: rejectedSize + rejectedMagic,
      duplicates: status.duplicates,
      missing: status.missing,
      laps: status.laps_recorded,
      incomplete_laps: flagged.length === 0 ? null : incomplete,
      sessions,
      named: await this.#tracks.nameImported(sessions),
      trailing_bytes: file.trailingBytes,
    };
  }
}

/** False only for a lap marked incomplete; laps recorded before the flag existed pass. */
function notIncomplete(lap: LapSummary): boolean {
  return (lap as { complete?: unknown }).complete !== false;
}
