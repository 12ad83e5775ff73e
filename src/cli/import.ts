/**
 * `import FILE`: a track bundle, a lap file, or the laps of a capture or
 * record file, told apart by content, into the store.
 *
 * @module
 */
import type { Command } from "commander";
import type { FileImportResult } from "../app/laps/files.ts";
import type { LapImportResult } from "../app/laps/lap_exchange.ts";
import type { CaptureImportResult } from "../app/laps/capture_import.ts";
import type { CaptureFile } from "../core/gt7/capture_file.ts";
import { formatLapTime } from "../core/laps/lap_time.ts";
import { startProgressBar } from "./progress_bar.ts";
import { dataOption } from "./options.ts";
import { withStore } from "./with_store.ts";

/** Adds `import` to `program`. */
export function addImportCommand(program: Command): void {
  dataOption(
    program.command("import")
      .description(
        "import a track bundle (versions 1-4), laps (a lap file of versions 1-2, gt7dashboard's " +
          "save, MoTeC CSV or .ld), or the laps of a capture or record file, into the store",
      )
      .argument(
        "<file>",
        "a JSON bundle or lap file (its format field says which), a gt7dashboard save, a MoTeC " +
          "CSV or .ld log, or a capture (.gt7, .gt7.gz) or --record file (plain or gzip); told " +
          "apart by content",
      )
      .option("--track <name>", "store a bundle under this circuit name instead of its own"),
  ).action(async (file: string, flags: { data: string; track?: string }) => {
    await withStore(flags.data, async (app) => {
      const bar = startProgressBar({ unit: "packets" });
      let done: FileImportResult;
      try {
        done = await app.files.importFile(file, {
          track: flags.track,
          onProgress: (p) => {
            if (p.phase === "record") bar.update(p.packets);
          },
        });
      } finally {
        bar.clear();
      }
      const lapIds = done.kind === "capture"
        ? await Promise.all(done.result.sessions.map(async (s) => ({
          session: s,
          laps: (await app.sessions.laps(s)).map((l) => l.id),
        })))
        : [];
      for (const line of describeImport(file, done, lapIds)) console.log(line);
    });
  });
}

/** The laps stored in one session a capture import created. */
interface SessionLaps {
  session: number;
  /** Lap ids, ascending. */
  laps: number[];
}

/** What an import did, in lines for the terminal. */
function describeImport(file: string, done: FileImportResult, lapIds: SessionLaps[]): string[] {
  switch (done.kind) {
    case "capture":
      return describeCaptureImport(file, done.file, done.result, lapIds);
    case "bundle": {
      const r = done.result;
      return [
        `imported bundle "${r.track}" as ${r.slug}: ${r.edges_before} -> ${r.edges} edges ` +
        `(+${r.added_edges}), ${r.runs} runs from ${r.sources} source(s)` +
        (r.corners_kept ? "; kept the local corners" : "") +
        (r.sections_kept ? "; kept the local sections" : "") +
        (r.official_kept ? "; kept the local official match" : ""),
      ];
    }
    case "lap":
      return describeLapImport(done.result);
  }
}

/** What a lap import did: one line a lap when it stored one, else a summary, then what it skipped. */
function describeLapImport(r: LapImportResult): string[] {
  const { lap, session, created_session, imported, skipped } = r;
  // Said as a capture import says it; a name the file carried is not news.
  const named = session.track_source === "" || session.track_source === "user"
    ? []
    : [`session ${session.id} identified as "${session.track_name}"`];
  const first = imported.length === 1
    ? `imported lap ${lap.number} (${formatLapTime(lap.time_ms)}, ${lap.total_ticks} samples) ` +
      `as lap ${lap.id} in ${created_session ? "new " : ""}session ${session.id}` +
      (lap.complete ? "" : ` (incomplete: ${lap.samples_missing} samples missing)`)
    : `imported ${imported.length} laps (${
      imported.map((l) => formatLapTime(l.time_ms)).join(", ")
    }) ` +
      `as laps ${idRanges(imported.map((l) => l.id))} in ${created_session ? "new " : ""}` +
      `session ${session.id}`;
  return [first, ...skipped.map((s) => `skipped lap ${s.lap}: ${s.reason}`), ...named];
}

/** Ascending ids with runs folded: [1, 2, 3, 5] is "1-3, 5". */
function idRanges(ids: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ids.length; i++) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j] + 1) j++;
    parts.push(j > i ? `${ids[i]}-${ids[j]}` : `${ids[i]}`);
    i = j;
  }
  return parts.join(", ");
}

/**
 * The summary of a capture import: one line, the new laps' ids by session
 * (for `export lap ID`), then a line per note.
 */
function describeCaptureImport(
  name: string,
  file: CaptureFile,
  r: CaptureImportResult,
  lapIds: SessionLaps[],
): string[] {
  const n = (v: number) => v.toLocaleString("en-US");
  const what = file.kind === "record"
    ? `record file${file.compressed ? ", gzip" : ""}`
    : `capture, format ${file.format}, ${file.encrypted ? "encrypted" : "decrypted"}` +
      (file.compressed ? ", gzip" : "");
  const sessions = r.sessions.length === 0
    ? "; no session created"
    : ` in new session${r.sessions.length === 1 ? "" : "s"} ${idRanges(r.sessions)}`;
  const lines = [
    `imported ${name} (${what}): ${n(r.datagrams)} packets read, ${n(r.rejected)} rejected, ` +
    `${n(r.laps)} lap${r.laps === 1 ? "" : "s"} stored` +
    (r.incomplete_laps === null ? "" : ` (${n(r.incomplete_laps)} incomplete)`) + sessions,
  ];
  const stored = lapIds.filter((s) => s.laps.length > 0);
  if (stored.length > 0) {
    lines.push(
      "new lap ids: " +
        stored.map((s) => `${idRanges(s.laps)} (session ${s.session})`).join(", "),
    );
  }
  for (const s of r.named) lines.push(`session ${s.session} identified as "${s.track}"`);
  if (r.trailing_bytes > 0) {
    lines.push(
      file.kind === "record"
        ? `note: the file ends in a truncated entry (${n(r.trailing_bytes)} bytes; a recorder ` +
          "stopped mid-write): it was ignored, and everything before it imported"
        : `note: ignored ${n(r.trailing_bytes)} bytes after the last whole packet`,
    );
  }
  return lines;
}
