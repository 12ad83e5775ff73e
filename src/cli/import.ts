/**
 * `import FILE`: a track bundle, a lap file, or the laps of a capture or
 * record file, told apart by content, into the store.
 *
 * @module
 */
import type { Command } from "commander";
import type { App } from "../app/context.ts";
import { importBundle } from "../app/bundles.ts";
import { importLapFile } from "../app/lap_exchange.ts";
import { type CaptureImportResult, importCapture } from "../app/capture_import.ts";
import { BUNDLE_FORMAT } from "../core/bundle/types.ts";
import { LAP_FILE_FORMAT } from "../core/laps/lap_file.ts";
import { formatLapTime } from "../core/laps/lap_time.ts";
import { CaptureError } from "../core/gt7/capture.ts";
import {
  type CaptureFile,
  captureFileOf,
  EXPECTED_FILES,
  type FileContent,
  fileContent,
  gunzipIfCompressed,
} from "../core/gt7/capture_file.ts";
import { startProgressBar } from "../server/progress_bar.ts";
import { dataOption } from "./options.ts";
import { withStore } from "./with_store.ts";

/** Adds `import` to `program`. */
export function addImportCommand(program: Command): void {
  dataOption(
    program.command("import")
      .description(
        "import a track bundle (versions 1-4), a lap file (versions 1-2), or the laps of a capture " +
          "or record file, into the store",
      )
      .argument(
        "<file>",
        "a JSON bundle or lap file (its format field says which), or a capture (.gt7, .gt7.gz) or " +
          "--record file (plain or gzip); told apart by content",
      )
      .option("--track <name>", "store a bundle under this circuit name instead of its own"),
  ).action(async (file: string, flags: { data: string; track?: string }) => {
    const content = await readImportFile(file);
    if (content.kind === "capture") {
      await withStore(flags.data, (app) => importCaptureFile(app, file, content.file));
      return;
    }
    const json = content.json;
    const format = (json as { format?: unknown } | null)?.format;
    if (format !== BUNDLE_FORMAT && format !== LAP_FILE_FORMAT) {
      throw new Error(
        `${file} has format ${JSON.stringify(format ?? null)}; expected "${BUNDLE_FORMAT}" ` +
          `(a track bundle) or "${LAP_FILE_FORMAT}" (a lap file)`,
      );
    }
    await withStore(flags.data, async (app) => {
      if (format === BUNDLE_FORMAT) {
        const r = await importBundle(app, json, { track: flags.track });
        console.log(
          `imported bundle "${r.track}" as ${r.slug}: ${r.edges_before} -> ${r.edges} edges ` +
            `(+${r.added_edges}), ${r.runs} runs from ${r.sources} source(s)` +
            (r.corners_kept ? "; kept the local corners" : "") +
            (r.sections_kept ? "; kept the local sections" : "") +
            (r.official_kept ? "; kept the local official match" : ""),
        );
        return;
      }
      const result = await importLapFile(app, json);
      console.log(
        `imported lap ${result.lap.number} (${formatLapTime(result.lap.time_ms)}, ` +
          `${result.lap.total_ticks} samples) as lap ${result.lap.id} in ` +
          `${result.created_session ? "new " : ""}session ${result.session.id}`,
      );
    });
  });
}

/**
 * What `import` was given, told apart by content: gzip is unpacked first, a
 * record file or a capture is split into datagrams, and a document whose
 * first byte opens an object or array is parsed as JSON.
 */
async function readImportFile(
  file: string,
): Promise<{ kind: "json"; json: unknown } | { kind: "capture"; file: CaptureFile }> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(file);
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
  let content: FileContent | null = null;
  try {
    const unzipped = gunzipIfCompressed(bytes);
    content = fileContent(unzipped.bytes);
    if (content === "json") {
      let json: unknown;
      try {
        json = JSON.parse(new TextDecoder().decode(unzipped.bytes));
      } catch (err) {
        throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
      }
      return { kind: "json", json };
    }
    return { kind: "capture", file: captureFileOf(unzipped) };
  } catch (err) {
    if (!(err instanceof CaptureError)) throw err;
    // Neither JSON nor a record file: say what would have been accepted.
    const expected = content === "packets"
      ? `; expected a JSON lap file or track bundle, or ${EXPECTED_FILES}`
      : "";
    throw new Error(`${file}: ${err.message}${expected}`);
  }
}

/** Records a capture's laps with a progress bar on a terminal, then prints the summary. */
async function importCaptureFile(app: App, name: string, file: CaptureFile): Promise<void> {
  const bar = startProgressBar({ unit: "packets" });
  let result: CaptureImportResult;
  try {
    result = await importCapture(app, file, { onProgress: (p) => bar.update(p) });
  } finally {
    bar.clear();
  }
  for (const line of describeCaptureImport(name, file, result)) console.log(line);
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

/** The summary of a capture import: one line, then a line per note. */
function describeCaptureImport(
  name: string,
  file: CaptureFile,
  r: CaptureImportResult,
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
