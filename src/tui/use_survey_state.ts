/**
 * The survey view's state and keys. The run's status comes from the bus's
 * `survey` events and the map from the circuit's compiled geometry, which is
 * read again only when a `bundle` event names the surveyed circuit. Per
 * packet, nothing happens here: the car's marker is placed from the latest
 * frame when the state is sampled (at most 20 times a second). The view only
 * draws what this returns.
 *
 * @module
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useInput } from "ink";
import type { SurveyStatus } from "../app/survey_status.ts";
import type { CompiledTrack } from "../core/geometry/types.ts";
import type { ArmedMark } from "../core/survey/survey_step.ts";
import type { ViewMessage, ViewProps } from "./view_types.ts";
import { useSampled } from "./use_app_state.ts";
import { useLoad } from "./use_load.ts";
import { useTextEntry } from "./use_text_entry.ts";
import { baseMap, carCell, type MapCell, withCar } from "./survey_map.ts";

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
  /** Saves `label`: names the running survey's circuit, or starts a survey on it. */
  saveLabel(label: string): void;
  message: ViewMessage | null;
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
  const entry = useTextEntry<string>({
    setCapturing,
    inputActive,
    onCancel: () => setMessage({ text: "label unchanged", error: false }),
  });
  const draft = entry.value;
  const [compiled, setCompiled] = useState<{ slug: string; doc: CompiledTrack } | null>(null);
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

  const wanted = slug.current;
  useLoad(
    () =>
      wanted === null ? null : app.geometry.compiled(wanted).then((doc) => ({ slug: wanted, doc })),
    [app, version],
    setCompiled,
    // No bundle yet (nothing saved): the map waits for the first save.
    () => setCompiled((c) => (c?.slug === wanted ? c : null)),
  );

  const map = useMemo(
    () => (compiled ? baseMap(compiled.doc, mapCols, mapRows) : null),
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
    const action = running
      ? app.survey.setTrack({ track: label })
      : app.survey.start({ track: label });
    report(action, (v) => {
      entry.close();
      const st = v as SurveyStatus;
      return running ? `circuit is now "${st.track}"` : `survey started on "${st.track}"`;
    });
  }, [app, report, entry.close]);

  useInput((input) => {
    if (draft !== null) return;
    if (input === "s") {
      if (app.survey.running) {
        report(app.survey.stop(), (v) => {
          const save = (v as SurveyStatus).last_save;
          return save
            ? `stopped: saved run ${save.run} of "${save.track}", ${save.edges} cells in all`
            : "stopped: nothing to save";
        });
      } else {
        report(app.survey.start({}), (v) => {
          const st = v as SurveyStatus;
          return st.track ? `survey started on "${st.track}"` : "survey started: press t to label";
        });
      }
    } else if (input === "t") {
      entry.open(s.track);
      setMessage(null);
    } else if (input === " " || MARK_KEYS[input]) {
      const mark = MARK_KEYS[input] ?? null;
      try {
        status.current = app.survey.mark(
          mark ? { side: mark.side, kind: mark.kind } : { side: null },
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
  };
}
