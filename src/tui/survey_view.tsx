/**
 * The survey view: start and stop the border survey, label its circuit, arm
 * manual marks, and watch what the run has laid: cells per side, the
 * circuit's coverage, the finish line, and the track map with the car on it.
 * Its state and keys are use_survey_state.ts's; this only draws.
 *
 * @module
 */
import { Box, Text } from "ink";
import type { SurveyStatus } from "../app/survey/survey_status.ts";
import type { CompiledTrack } from "../core/geometry/types.ts";
import type { ArmedMark } from "../core/survey/survey_step.ts";
import type { KeyHelp, ViewProps } from "./view_types.ts";
import { useSurveyState } from "./use_survey_state.ts";
import { LinePrompt } from "./line_prompt.tsx";
import { fit } from "./format.ts";
import { sideCoverageText } from "./coverage_text.ts";

/** The keys of the survey view, for the help overlay. */
export const SURVEY_KEYS: readonly KeyHelp[] = [
  { key: "s", action: "start the survey, or stop (and save) it; unnamed, it asks the name" },
  { key: "t", action: "set the circuit label (Enter saves, Esc cancels)" },
  { key: "d d", action: "discard a stopped run that waits for its name" },
  { key: "z x c", action: "arm a LEFT wall / runoff / edge mark" },
  { key: ", . /", action: "arm a RIGHT wall / runoff / edge mark" },
  { key: "Space", action: "disarm the mark" },
];

/** Width of the figures column; the map takes the rest. */
const PANEL = 40;

/** The survey view. */
export function SurveyView({ app, columns, rows, inputActive, setCapturing }: ViewProps) {
  const width = Math.max(60, columns);
  const mapCols = Math.max(10, width - PANEL - 1);
  // Two rows for the message and the keys, and one kept free (see LiveScreen).
  const mapRows = Math.max(4, rows - 3);
  const { status: s, compiled, map, draft, setDraft, saveLabel, message, confirmDiscard } =
    useSurveyState({
      app,
      mapCols,
      mapRows,
      inputActive,
      setCapturing,
    });
  return (
    <Box flexDirection="column" width={width}>
      <Box>
        <Box flexDirection="column" width={PANEL} flexShrink={0}>
          <SurveyFigures status={s} compiled={compiled} />
        </Box>
        <Box flexDirection="column" marginLeft={1}>
          {map
            ? map.map((line, i) => <Text key={i}>{line}</Text>)
            : <Text color="gray">{fit(mapPlaceholder(s), mapCols).trimEnd()}</Text>}
        </Box>
      </Box>
      <Text wrap="truncate" color={message?.error ? "red" : "cyan"}>{message?.text ?? " "}</Text>
      {draft !== null
        ? (
          <LinePrompt
            label={s.pending ? "Circuit name (saves the stopped run; Esc: later)" : "Circuit label"}
            value={draft}
            onChange={setDraft}
            onSubmit={saveLabel}
            focus={inputActive}
          />
        )
        : (
          <Text color={s.pending ? "yellow" : "gray"} wrap="truncate">
            {s.pending
              ? `t name and save the stopped run  d ${
                confirmDiscard ? "again: discard" : "d discard it"
              }`
              : `s ${s.running ? "stop" : "start"}  t label  z x c left  , . / right  Space disarm`}
          </Text>
        )}
    </Box>
  );
}

function mapPlaceholder(s: SurveyStatus): string {
  if (s.pending) return `No map: ${s.cells} cells wait for the circuit's name (t).`;
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
      <Text bold color={s.running ? "green" : s.pending ? "yellow" : undefined}>
        {s.running
          ? "Survey running"
          : s.pending
          ? "Stopped, waiting for a name"
          : "Survey stopped"}
      </Text>
      <Text wrap="truncate">{`Circuit  ${s.track || "(unlabelled)"}`}</Text>
      <Text wrap="truncate">
        {`Run      ${s.run ?? "-"}${s.slug ? `  (${s.slug})` : ""}`}
      </Text>
      <BigMark mark={s.mark} />
      <Text>{`Cells this run ${s.cells}`}</Text>
      <Text>{`  left ${s.cells_by_side.L}  right ${s.cells_by_side.R}`}</Text>
      {/* Each side says what its figure is of: a share of the lap once closed, metres before. */}
      <Text wrap="truncate">{`Left   ${cov ? sideCoverageText(cov.L) : "--"}`}</Text>
      <Text wrap="truncate">{`Right  ${cov ? sideCoverageText(cov.R) : "--"}`}</Text>
      <Text>{cov ? `Road   ${cov.road_pct.toFixed(1)}% with both borders` : "Road   --"}</Text>
      <Text wrap="truncate">{finishText(finish)}</Text>
      <Text>{`Width ${s.tw_m.toFixed(2)} m (${s.tw_source})`}</Text>
      <Text wrap="truncate">
        {`Points ${s.points.auto} auto ${s.points.straddle} straddle ${s.points.manual} manual`}
      </Text>
    </>
  );
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
