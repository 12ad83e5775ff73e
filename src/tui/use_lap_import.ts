/**
 * The sessions view's lap import (key i): the driver types a path
 * (relative to the output folder), and the file goes through the file
 * service's one import, as the `import` command's does, told apart by
 * content. Progress and the outcome (laps, session, format, what was
 * skipped and why; or the precise refusal, with nothing stored) go to the
 * view's notice line.
 *
 * @module
 */
import { useCallback, useState } from "react";
import type { ImportProgress } from "../app/laps/files.ts";
import type { ViewMessage, ViewProps } from "./view_types.ts";
import { SAMPLE_MS } from "./use_app_state.ts";
import { useTextEntry } from "./use_text_entry.ts";
import { importRefusal, lapImportText } from "./lap_import_text.ts";

/** The lap import's state and actions. */
export interface LapImport {
  /** The path being typed, or null when not typing. */
  path: string | null;
  /** The import under way, or null (cleared once it ends). */
  progress: ImportProgress | null;
  /** True from Enter until the import ends: another cannot start meanwhile. */
  busy: boolean;
  /** Opens the path prompt (and takes the keyboard); nothing while an import runs. */
  open(): void;
  /** Replaces the path being typed. */
  setPath(path: string): void;
  /** Imports the file at `typed`; an empty path keeps the prompt open. */
  start(typed: string): void;
}

/**
 * A lap import over `app` that reports through `setMessage`, and calls
 * `onImported` with the session a lap import made (so the view selects it).
 */
export function useLapImport(
  { app, outDir, inputActive, setCapturing }: Pick<
    ViewProps,
    "app" | "outDir" | "inputActive" | "setCapturing"
  >,
  setMessage: (message: ViewMessage | null) => void,
  onImported: (session: number) => void,
): LapImport {
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [busy, setBusy] = useState(false);
  const entry = useTextEntry<string>({
    setCapturing,
    inputActive,
    onCancel: () => setMessage({ text: "import cancelled", error: false }),
  });

  const open = useCallback(() => {
    if (busy) return;
    entry.open("");
    setMessage(null);
  }, [busy, entry.open]);

  const start = useCallback((typed: string) => {
    const file = typed.trim();
    if (file === "") return;
    entry.close();
    setBusy(true);
    setMessage(null);
    app.files.importFile(file, {
      dir: outDir,
      onProgress: setProgress,
      // The parse blocks the thread: the screen gets a frame to show the phase first.
      pause: () => new Promise((r) => setTimeout(r, SAMPLE_MS)),
    }).then(
      (done) => {
        if (done.kind === "lap") onImported(done.result.session.id);
        setMessage({ text: lapImportText(done), error: false });
      },
      (err) => setMessage({ text: `import failed: ${importRefusal(err)}`, error: true }),
    ).finally(() => {
      setProgress(null);
      setBusy(false);
    });
  }, [app, outDir, entry.close, onImported]);

  const setPath = useCallback((v: string) => entry.change(() => v), [entry.change]);

  return { path: entry.value, progress, busy, open, setPath, start };
}
