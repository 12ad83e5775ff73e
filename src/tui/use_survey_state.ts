/**
 * The survey view's state and keys. The run's status comes from the bus's
 * `survey` events and the map from the circuit's compiled geometry, which is
 * read again only when a `bundle` event names the surveyed circuit. Per
 * packet, nothing happens here: the car's marker is placed from the latest
 * frame when the state is sampled (at most 20 times a second). The view only
 * draws what this returns.
 *
 * A run stopped before its circuit was named keeps its cells: the stop
 * opens the label entry at once, and the run waits (through Esc too) until
 * a label saves it or `d` pressed twice discards it.
 *
 * @module
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { SurveyStatus } from "../app/survey/survey_status.ts";
import { parseBody } from "../app/request_body.ts";
import { startSchema, trackSchema } from "../app/survey/survey_body.ts";
import type { CompiledTrack } from "../core/geometry/types.ts";
import type { DrivenLine } from "../core/geometry/driven_line.ts";
import type { ArmedMark } from "../core/survey/survey_step.ts";
import type { ViewMessage, ViewProps } from "./view_types.ts";
import { useSampled } from "./use_app_state.ts";
import { useLoad } from "./use_load.ts";
import { useTextEntry } from "./use_text_entry.ts";
import { baseMap, carCell, type MapCell, withCar } from "./survey_map.ts";
import { useKeys } from "./use_keys.ts";

/** The mark each key arms. */
export const MARK_KEYS: Readonly<Record<string, ArmedMark>> = {
  z: { side: "L", kind: "wall" },
  x: { side: "L", kind: "runoff" },
  c: { side: "L", kind: "edge" },
  ",": { side: "R", kind: "wall" },
  ".": { side: "R", kind: "runoff" },
  "/": { side: "R", kind: "edge" },
};

/** What the survey view draws. */
export interface SurveyState {
  /** The run's status, as last sampled. */
  status: SurveyStatus;
  /** The surveyed circuit's compiled geometry, or null before its first save. */
  compiled: CompiledTrack | null;
  /** The map's lines with the car on it, or null with no map. */
  map: string[] | null;
  /** The circuit label being typed, or null when not typing. */
  draft: string | null;
  /** Replaces the label being typed. */
  setDraft(label: string): void;
  /**
   * Saves `label`: names the running survey's circuit, names and saves the
   * stopped run waiting for it, or starts a survey on it.
   */
  saveLabel(label: string): void;
  message: ViewMessage | null;
  /** True after a first `d` on a waiting run: a second one discards it. */
  confirmDiscard: boolean;
}

/** What the view samples: the run's status and the car's cell on the map. */
interface Sample {
  status: SurveyStatus;
  car: MapCell | null;
}

/**
 * The survey view's state over `app`, with a map of `mapCols` x `mapRows`
 * cells, answering its keys while `inputActive`.
 */
export function useSurveyState(
  { app, mapCols, mapRows, inputActive, setCapturing }:
    & Pick<ViewProps, "app" | "inputActive" | "setCapturing">
    & { mapCols: number; mapRows: number },
): SurveyState {
  const status = useRef(app.survey.status());
  const [message, setMessage] = useState<ViewMessage | null>(null);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const entry = useTextEntry<string>({
    setCapturing,
    inputActive,
    onCancel: () =>
      setMessage(
        status.current.pending
          ? { text: waitingText(status.current.cells), error: false }
          : { text: "label unchanged", error: false },
      ),
  });
  const draft = entry.value;
  const [compiled, setCompiled] = useState<
    { slug: string; doc: CompiledTrack; driven: DrivenLine } | null
  >(null);
  const { version, slug } = useSurveyBundle(app, status);

  const wanted = slug.current;
  useLoad(
    () =>
      wanted === null ? null : Promise.all([
        app.geometry.compiled(wanted),
        app.geometry.drivenLine(wanted),
      ]).then(([doc, driven]) => ({ slug: wanted, doc, driven })),
    [app, version],
    setCompiled,
    // No bundle yet (nothing saved): the map waits for the first save.
    () => setCompiled((c) => (c?.slug === wanted ? c : null)),
  );

  const map = useMemo(
    () => (compiled ? baseMap(compiled.doc, mapCols, mapRows, compiled.driven) : null),
    [compiled, mapCols, mapRows],
  );

  const sample = useSampled<Sample>(() => {
    const f = app.live.lastFrame;
    return {
      status: status.current,
      car: map && f ? carCell(map, f.posX, f.posZ) : null,
    };
  });
  const s = sample.status;

  const report = useCallback(
    (p: Promise<unknown>, ok: (value: unknown) => string | null) =>
      p.then(
        (v) => {
          // Results carry what events may not have yet (the run ordinal, read after the event).
          status.current = v as SurveyStatus;
          const text = ok(v);
          if (text !== null) setMessage({ text, error: false });
        },
        (err) => setMessage({ text: (err as Error).message, error: true }),
      ),
    [],
  );

  const saveLabel = useCallback((label: string) => {
    const running = app.survey.running;
    const waiting = app.survey.pending;
    // Typed text is held to the same rule a request body is, before the use case sees it.
    const action = Promise.resolve().then(() =>
      running || waiting
        ? app.survey.setTrack(parseBody(trackSchema, { track: label }, "survey track"))
        : app.survey.start(parseBody(startSchema, { track: label }, "survey start"))
    );
    report(action, (v) => {
      entry.close();
      const st = v as SurveyStatus;
      if (waiting) return savedText(st);
      return running ? `circuit is now "${st.track}"` : `survey started on "${st.track}"`;
    });
  }, [app, report, entry.close]);

  useKeys((input) => {
    if (draft !== null) return;
    if (input !== "d") setConfirmDiscard(false);
    if (input === "d" && app.survey.pending) {
      discardKey(app, status, confirmDiscard, setConfirmDiscard, setMessage);
    } else if (input === "s") {
      startOrStop(app, report, entry.open);
    } else if (input === "t") {
      entry.open(s.track);
      setMessage(null);
    } else if (input === " " || MARK_KEYS[input]) {
      const mark = MARK_KEYS[input] ?? null;
      try {
        status.current = app.survey.mark(
          mark ? { side: mark.side, kind: mark.kind } : { side: null, kind: "edge" },
        );
        setMessage(null);
      } catch (err) {
        setMessage({ text: (err as Error).message, error: true });
      }
    }
  }, { isActive: inputActive });

  const setDraft = useCallback((v: string) => entry.change(() => v), [entry.change]);

  const shown = compiled?.slug === s.slug ? compiled : null;
  return {
    status: s,
    compiled: shown?.doc ?? null,
    map: map && shown ? withCar(map, sample.car) : null,
    draft,
    setDraft,
    saveLabel,
    message,
    confirmDiscard,
  };
}

/**
 * The bundle the survey saves to, as the bus tells of it: its slug (kept
 * in a ref, read when loading) and a version that goes up when the survey
 * moves to another bundle or that bundle changes. Keeps `status` current.
 */
function useSurveyBundle(
  app: ViewProps["app"],
  status: { current: SurveyStatus },
): { version: number; slug: { current: string | null } } {
  const [version, setVersion] = useState(0);
  const slug = useRef<string | null>(status.current.slug);

  useEffect(() =>
    app.bus.subscribe((event) => {
      if (event.type === "survey") {
        status.current = event.status;
        if (event.status.slug !== slug.current && event.status.slug !== null) {
          slug.current = event.status.slug;
          setVersion((v) => v + 1);
        }
      } else if (event.type === "bundle" && event.slug === slug.current) {
        setVersion((v) => v + 1);
      }
    }), [app]);
  return { version, slug };
}

/**
 * Key d while a stopped run waits: the first press asks for a second, the
 * second discards the run, saying how many cells went.
 */
function discardKey(
  app: ViewProps["app"],
  status: { current: SurveyStatus },
  confirmed: boolean,
  setConfirmDiscard: (confirm: boolean) => void,
  setMessage: (message: ViewMessage | null) => void,
): void {
  if (!confirmed) {
    setConfirmDiscard(true);
    setMessage({
      text: `press d again to discard the ${status.current.cells} cells of the stopped run`,
      error: false,
    });
    return;
  }
  setConfirmDiscard(false);
  const cells = status.current.cells;
  try {
    status.current = app.survey.discard();
    setMessage({ text: `discarded the stopped run (${cells} cells)`, error: false });
  } catch (err) {
    setMessage({ text: (err as Error).message, error: true });
  }
}

/**
 * Key s: stops a running survey (asking, through `openEntry`, for the name
 * a stopped run lacks) or starts one, reporting the outcome.
 */
function startOrStop(
  app: ViewProps["app"],
  report: (p: Promise<unknown>, ok: (value: unknown) => string | null) => Promise<void>,
  openEntry: (text: string) => void,
): void {
  if (app.survey.running) {
    report(app.survey.stop(), (v) => {
      const st = v as SurveyStatus;
      if (st.pending) {
        // Nothing is lost: the driver is asked for the name the run lacks.
        openEntry("");
        return `stopped: ${st.cells} cells kept; type the circuit's name to save them`;
      }
      return st.last_save ? savedText(st) : "stopped: nothing to save";
    });
  } else {
    report(app.survey.start({}), (v) => {
      const st = v as SurveyStatus;
      return st.track ? `survey started on "${st.track}"` : "survey started: press t to label";
    });
  }
}

/** What the driver is told while a stopped run waits for its name. */
export function waitingText(cells: number): string {
  return `the stopped run keeps its ${cells} cells: t names and saves it, d d discards it`;
}

/** What the driver is told after a stop that saved. */
function savedText(st: SurveyStatus): string {
  const save = st.last_save!;
  return `stopped: saved run ${save.run} of "${save.track}", ${save.edges} cells in all`;
}
