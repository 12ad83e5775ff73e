/**
 * The survey view: start and stop the border survey, label its circuit, arm
 * manual marks, and watch what the run has laid: cells per side, the
 * circuit's coverage, the finish line, and the track map with the car on it.
 *
 * The run's status comes from the bus's `survey` events and the map from the
 * circuit's compiled geometry, which is read again only when a `bundle`
 * event names the surveyed circuit. Per packet, nothing happens here: the
 * car's marker is placed from the latest frame when the view samples its
 * state (at most 20 times a second).
 *
 * @module
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Box, Text, useInput } from "ink";
import type { SurveyStatus } from "../app/survey_status.ts";
import { compiledFor } from "../app/geometry.ts";
import type { CompiledTrack } from "../core/geometry/types.ts";
import type { ArmedMark } from "../core/survey/survey_step.ts";
import type { KeyHelp, ViewProps } from "./view_types.ts";
import { useSampled } from "./use_app_state.ts";
import { useLoad } from "./use_load.ts";
import { baseMap, carCell, type MapCell, withCar } from "./survey_map.ts";
import { LinePrompt } from "./line_prompt.tsx";
import { fit } from "./format.ts";

/** The keys of the survey view, for the help overlay. */
export const SURVEY_KEYS: readonly KeyHelp[] = [
  { key: "s", action: "start the survey, or stop (and save) it" },
  { key: "t", action: "set the circuit label (Enter saves, Esc cancels)" },
  { key: "z x c", action: "arm a LEFT wall / runoff / edge mark" },
  { key: ", . /", action: "arm a RIGHT wall / runoff / edge mark" },
  { key: "Space", action: "disarm the mark" },
];

/** The mark each key arms. */
export const MARK_KEYS: Readonly<Record<string, ArmedMark>> = {
  z: { side: "L", kind: "wall" },
  x: { side: "L", kind: "runoff" },
  c: { side: "L", kind: "edge" },
  ",": { side: "R", kind: "wall" },
  ".": { side: "R", kind: "runoff" },
  "/": { side: "R", kind: "edge" },
};

/** Width of the figures column; the map takes the rest. */
const PANEL = 40;

interface Message {
  text: string;
  error: boolean;
}

/** What the view samples: the run's status and the car's cell on the map. */
interface Sample {
  status: SurveyStatus;
  car: MapCell | null;
}

/** The survey view. */
export function SurveyView({ app, columns, rows, inputActive, setCapturing }: ViewProps) {
  const status = useRef(app.survey.status());
  const [message, setMessage] = useState<Message | null>(null);
  const [draft, setDraft] = useState<string | null>(null);
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
    () => wanted === null ? null : compiledFor(app, wanted).then((doc) => ({ slug: wanted, doc })),
    [app, version],
    setCompiled,
    // No bundle yet (nothing saved): the map waits for the first save.
    () => setCompiled((c) => (c?.slug === wanted ? c : null)),
  );

  const width = Math.max(60, columns);
  const mapCols = Math.max(10, width - PANEL - 1);
  // Two rows for the message and the keys, and one kept free (see LiveScreen).
  const mapRows = Math.max(4, rows - 3);
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

  const stopLabelling = useCallback(() => {
    setDraft(null);
    setCapturing(false);
  }, [setCapturing]);
  useEffect(() => () => setCapturing(false), [setCapturing]);

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
      stopLabelling();
      const st = v as SurveyStatus;
      return running ? `circuit is now "${st.track}"` : `survey started on "${st.track}"`;
    });
  }, [app, report, stopLabelling]);

  useInput((input, key) => {
    if (draft !== null) {
      if (key.escape) {
        stopLabelling();
        setMessage({ text: "label unchanged", error: false });
      }
      return;
    }
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
      setDraft(s.track);
      setCapturing(true);
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

  const shownMap = map && compiled?.slug === s.slug ? withCar(map, sample.car) : null;
  return (
    <Box flexDirection="column" width={width}>
      <Box>
        <Box flexDirection="column" width={PANEL} flexShrink={0}>
          <SurveyFigures status={s} compiled={compiled?.slug === s.slug ? compiled.doc : null} />
        </Box>
        <Box flexDirection="column" marginLeft={1}>
          {shownMap
            ? shownMap.map((line, i) => <Text key={i}>{line}</Text>)
            : <Text color="gray">{fit(mapPlaceholder(s), mapCols).trimEnd()}</Text>}
        </Box>
      </Box>
      <Text wrap="truncate" color={message?.error ? "red" : "cyan"}>{message?.text ?? " "}</Text>
      {draft !== null
        ? (
          <LinePrompt
            label="Circuit label"
            value={draft}
            onChange={(v) => setDraft((d) => (d === null ? null : v))}
            onSubmit={saveLabel}
            focus={inputActive}
          />
        )
        : (
          <Text color="gray" wrap="truncate">
            {`s ${s.running ? "stop" : "start"}  t label  z x c left  , . / right  Space disarm`}
          </Text>
        )}
    </Box>
  );
}

function mapPlaceholder(s: SurveyStatus): string {
  if (s.slug === null) return "No map: label the circuit (t).";
  return "No map until the first save.";
}

/** The figures column of the survey view. */
function SurveyFigures(
  { status: s, compiled }: { status: SurveyStatus; compiled: CompiledTrack | null },
) {
  const cov = compiled?.coverage;
  const finish = s.finish;
  return (
    <>
      <Text bold color={s.running ? "green" : undefined}>
        {s.running ? "Survey running" : "Survey stopped"}
      </Text>
      <Text wrap="truncate">{`Circuit  ${s.track || "(unlabelled)"}`}</Text>
      <Text wrap="truncate">
        {`Run      ${s.run ?? "-"}${s.slug ? `  (${s.slug})` : ""}`}
      </Text>
      <BigMark mark={s.mark} />
      <Text>{`Cells this run ${s.cells}`}</Text>
      <Text>{`  left ${s.cells_by_side.L}  right ${s.cells_by_side.R}`}</Text>
      <Text>
        {cov ? `Coverage L ${cov.L.pct.toFixed(1)}%  R ${cov.R.pct.toFixed(1)}%` : "Coverage --"}
      </Text>
      <Text>
        {cov
          ? `Road ${cov.road_pct.toFixed(1)}%  ${closedText(cov.L.closed, cov.R.closed)}`
          : "Road --"}
      </Text>
      <Text wrap="truncate">{finishText(finish)}</Text>
      <Text>{`Width ${s.tw_m.toFixed(2)} m (${s.tw_source})`}</Text>
      <Text wrap="truncate">
        {`Points ${s.points.auto} auto ${s.points.straddle} straddle ${s.points.manual} manual`}
      </Text>
    </>
  );
}

function closedText(l: boolean, r: boolean): string {
  if (l && r) return "both sides closed";
  if (l || r) return `${l ? "left" : "right"} side closed`;
  return "not closed yet";
}

/** The finish line as the survey knows it. */
export function finishText(finish: SurveyStatus["finish"]): string {
  if (finish === null) return "Finish line not crossed yet";
  const n = `${finish.crossings} crossing${finish.crossings === 1 ? "" : "s"}`;
  return finish.confident
    ? `Finish line set (${n}, ±${finish.spread_m.toFixed(1)} m)`
    : `Finish line unsure (${n}, ±${finish.spread_m.toFixed(1)} m)`;
}

/** The mark line with none armed (a constant: JSX text would lose the spaces). */
const MARK_NONE = "Mark     none";

const KIND_COLOR = { wall: "red", runoff: "yellow", edge: "cyan" } as const;

/** The armed mark in a box three rows high, or one quiet line when none is armed. */
function BigMark({ mark }: { mark: ArmedMark | null }) {
  if (mark === null) {
    return (
      <Box height={3} flexDirection="column" justifyContent="center">
        <Text color="gray">{MARK_NONE}</Text>
      </Box>
    );
  }
  const side = mark.side === "L" ? "LEFT" : "RIGHT";
  const word = `${side} ${mark.kind.toUpperCase()}`;
  const big = [...word].join(" ");
  const arrow = mark.side === "L" ? "◀◀ " : "";
  const after = mark.side === "R" ? " ▶▶" : "";
  return (
    <Box borderStyle="bold" borderColor={KIND_COLOR[mark.kind]} width={PANEL - 2}>
      <Text bold color={KIND_COLOR[mark.kind]}>{`${arrow}${big}${after}`}</Text>
    </Box>
  );
}
