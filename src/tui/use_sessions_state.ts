/**
 * The sessions view's state and keys: the stored sessions and the selected
 * one's laps (re-read on every bus event), the selection, lap exports (to
 * the exports folder, created by the first one, with the full path said)
 * naming a session's track, and importing laps from a typed path (key i).
 * The view only draws what this returns.
 *
 * @module
 */
import { useCallback, useEffect, useState } from "react";
import type { LapExportKind } from "../app/laps/export_names.ts";
import type { LapSummary } from "../core/laps/lap.ts";
import type { Session } from "../core/laps/session.ts";
import type { ViewMessage, ViewProps } from "./view_types.ts";
import { useLatestState } from "./use_latest_state.ts";
import { useLoad } from "./use_load.ts";
import { type TextEntry, useTextEntry } from "./use_text_entry.ts";
import { useKeys } from "./use_keys.ts";
import { type LapImport, useLapImport } from "./use_lap_import.ts";
import { clamp, indexOfKey, movedKey } from "./list_selection.ts";

/** Which list the arrows move in. */
export type SessionsFocus = "sessions" | "laps";

/** What the sessions view draws. */
export interface SessionsState {
  /** Every session, newest first; null while loading. */
  list: Session[] | null;
  /** The selected session's index in `list`. */
  index: number;
  /** The selected session, or null with none. */
  current: Session | null;
  /** The selected session's laps, oldest first; empty while they load. */
  laps: LapSummary[];
  /** True once `laps` are the selected session's. */
  lapsLoaded: boolean;
  focus: SessionsFocus;
  /** The selected lap's index in `laps` (while focus is on the laps). */
  lapIndex: number;
  /** The name being typed, pinned to its session; null when not renaming. */
  draft: { id: number; text: string } | null;
  /** Replaces the name being typed. */
  setDraftText(text: string): void;
  /** Saves `name` as the pinned session's track. */
  save(name: string): void;
  message: ViewMessage | null;
  /** The lap import: its path prompt and progress. */
  lapImport: LapImport;
}

/** The sessions view's state over `app`, answering its keys while `inputActive`. */
export function useSessionsState(
  { app, outDir, inputActive, setCapturing }: Pick<
    ViewProps,
    "app" | "outDir" | "inputActive" | "setCapturing"
  >,
): SessionsState {
  const [version, setVersion] = useState(0);
  const reread = useCallback(() => setVersion((v) => v + 1), []);
  const [list, setList] = useState<Session[] | null>(null);
  // Read back by the key handler, so every key of a burst moves from where the last one left.
  const selected = useLatestState<number | null>(null);
  const [laps, setLaps] = useState<LapSummary[]>([]);
  const [lapsOf, setLapsOf] = useState<number | null>(null);
  const lapAt = useLatestState(0);
  const focusOn = useLatestState<SessionsFocus>("sessions");
  const focus = focusOn.value;
  const lapIndex = lapAt.value;
  const [message, setMessage] = useState<ViewMessage | null>(null);
  const { entry, save, setDraftText } = useRename(
    app,
    { inputActive, setCapturing },
    setMessage,
    reread,
  );
  const draft = entry.value;

  useEffect(() => app.bus.subscribe(() => setVersion((v) => v + 1)), [app]);

  useLoad(
    () => app.sessions.list(),
    [app, version],
    setList,
    (err) => setMessage({ text: `cannot list sessions: ${err.message}`, error: true }),
  );

  const index = indexOfKey(list, selected.value, sessionId);
  const current = list?.[index] ?? null;

  useLoad(
    () => current && app.sessions.laps(current.id).then((all) => ({ id: current.id, all })),
    [app, current?.id, version],
    ({ id, all }) => {
      setLaps(all);
      setLapsOf(id);
    },
    (err) => setMessage({ text: `cannot list laps: ${err.message}`, error: true }),
  );

  const shownLaps = lapsOf === current?.id ? laps : [];

  const { exportLap, exportMotec } = useLapExports(app, outDir, setMessage);

  // The imported session is selected, so the laps just stored are the ones shown.
  const showImported = useCallback((id: number) => {
    selected.set(id);
    focusOn.set("sessions");
    lapAt.set(0);
    reread();
  }, [selected.set, focusOn.set, lapAt.set, reread]);
  const lapImport = useLapImport(
    { app, outDir, inputActive, setCapturing },
    setMessage,
    showImported,
  );

  useKeys((input, key) => {
    if (draft !== null || lapImport.path !== null) return;
    // What the keys before this one in the same burst left, not what was last drawn.
    const at = list?.[indexOfKey(list, selected.get(), sessionId)] ?? null;
    const lapsNow = lapsOf === at?.id ? laps : [];
    const inLaps = focusOn.get() === "laps";
    if (key.upArrow || key.downArrow) {
      const step = key.upArrow ? -1 : 1;
      if (inLaps) {
        lapAt.set(clamp(lapAt.get() + step, 0, lapsNow.length - 1));
      } else if (list && list.length > 0) {
        selected.set(movedKey(list, selected.get(), step, sessionId));
        lapAt.set(0);
      }
      return;
    }
    if (key.return && !inLaps && at && lapsNow.length > 0) {
      selected.set(at.id);
      focusOn.set("laps");
      lapAt.set(0);
    } else if (key.escape && inLaps) {
      focusOn.set("sessions");
    } else if (input === "j" || input === "c") {
      const lap = inLaps ? lapsNow[Math.min(lapAt.get(), lapsNow.length - 1)] : undefined;
      exportLap(lap, input === "j" ? "json" : "csv");
    } else if (input === "m") {
      const lap = inLaps ? lapsNow[Math.min(lapAt.get(), lapsNow.length - 1)] : undefined;
      exportMotec(lap, at?.id);
    } else if (input === "i") {
      lapImport.open();
    } else if (input === "r" && at) {
      const current = at;
      selected.set(current.id);
      entry.open({ id: current.id, text: current.track_name });
      setMessage(null);
    }
  }, { isActive: inputActive });

  return {
    list,
    index,
    current,
    laps: shownLaps,
    lapsLoaded: lapsOf === current?.id,
    focus,
    lapIndex,
    draft,
    setDraftText,
    save,
    message,
    lapImport,
  };
}

/**
 * Naming a session's track: the text entry pinned to its session, saving
 * it (saying so through `setMessage` and calling `changed`), and editing it.
 */
function useRename(
  app: ViewProps["app"],
  { inputActive, setCapturing }: Pick<ViewProps, "inputActive" | "setCapturing">,
  setMessage: (message: ViewMessage | null) => void,
  changed: () => void,
): {
  entry: TextEntry<{ id: number; text: string }>;
  save(name: string): void;
  setDraftText(text: string): void;
} {
  // The session being named is pinned: a new session arriving meanwhile must not take the name.
  const entry = useTextEntry<{ id: number; text: string }>({
    setCapturing,
    inputActive,
    onCancel: () => setMessage({ text: "rename cancelled", error: false }),
  });
  const save = useCallback((name: string) => {
    const draft = entry.value;
    if (!draft) return;
    app.sessions.rename(draft.id, name).then(
      (updated) => {
        entry.close();
        setMessage({ text: `session ${updated.id} is now "${updated.track_name}"`, error: false });
        changed();
      },
      (err) => setMessage({ text: err.message, error: true }),
    );
  }, [app, entry.value?.id, entry.close, changed]);

  const setDraftText = useCallback(
    (text: string) => entry.change((d) => ({ id: d.id, text })),
    [entry.change],
  );

  return { entry, save, setDraftText };
}

/**
 * The sessions view's exports into `outDir`: a lap as JSON or CSV, and a
 * MoTeC log of a lap or a whole session, each reported through `setMessage`.
 */
function useLapExports(
  app: ViewProps["app"],
  outDir: string,
  setMessage: (message: ViewMessage | null) => void,
): {
  exportLap: (lap: LapSummary | undefined, kind: LapExportKind) => void;
  exportMotec: (lap: LapSummary | undefined, session: number | undefined) => void;
} {
  const exportLap = useCallback((lap: LapSummary | undefined, kind: LapExportKind) => {
    if (!lap) {
      setMessage({ text: "press Enter to go into the laps, then pick one to export", error: true });
      return;
    }
    // The exports folder is made by the first export that needs it.
    Deno.mkdir(outDir, { recursive: true }).then(() =>
      app.files.exportLap(lap.id, kind, { dir: outDir })
    ).then(
      (path) => setMessage({ text: `wrote ${path}`, error: false }),
      (err) => setMessage({ text: `export failed: ${err.message}`, error: true }),
    );
  }, [app, outDir]);

  // A MoTeC log of the picked lap, or of the whole selected session while the sessions have focus.
  const exportMotec = useCallback((lap: LapSummary | undefined, session: number | undefined) => {
    const subject = lap
      ? { kind: "lap" as const, id: lap.id }
      : session !== undefined
      ? { kind: "session" as const, id: session }
      : null;
    if (!subject) return;
    app.files.exportMotec(subject.kind, subject.id, outDir).then(
      ([ld]) => setMessage({ text: `wrote ${ld} and its .ldx`, error: false }),
      (err) => setMessage({ text: `export failed: ${err.message}`, error: true }),
    );
  }, [app, outDir]);
  return { exportLap, exportMotec };
}

function sessionId(s: Session): number {
  return s.id;
}
