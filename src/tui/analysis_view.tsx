/**
 * The analysis view: a lap against a reference, over distance. Charts of
 * the time delta, speed, throttle and brake with a cursor that reads out
 * every channel and marks the spot on a small track map; the corner report
 * (most time lost first, the worst highlighted; Enter zooms the charts to
 * the selected corner) and the sector table with the theoretical best, and
 * a line of the lap's top coaching notes.
 *
 * @module
 */
import { Box, Text } from "ink";
import type { LapListItem } from "../app/laps/lap_listing.ts";
import type { KeyHelp, ViewProps } from "./view_types.ts";
import { useAnalysisState } from "./use_analysis_state.ts";
import { analysisLayout } from "./analysis_layout.ts";
import { AnalysisCharts, LAP_COLOR, REF_COLOR } from "./analysis_charts.tsx";
import { CornerTable, signed } from "./corner_table.tsx";
import { SectorTable } from "./sector_table.tsx";
import { LapPicker } from "./lap_picker.tsx";
import { lapTime } from "./format.ts";
import { notesLine } from "./notes_line.ts";

/** The keys of the analysis view, for the help overlay. */
export const ANALYSIS_KEYS: readonly KeyHelp[] = [
  { key: "← →", action: "move the cursor along the lap (one chart column)" },
  { key: "[ ]", action: "move the cursor ten columns (Shift+← → too)" },
  { key: "↑ ↓", action: "select a corner (or a lap in a list)" },
  { key: "Enter", action: "zoom the charts to the corner (or take the lap)" },
  { key: "Esc", action: "back to the whole lap (or close the list)" },
  { key: "l", action: "pick the lap to analyse from the circuit's laps" },
  { key: "r", action: "pick the reference lap" },
];

/** The keys line under the tables. */
const HINT = "←→ cursor  [ ] ×10  ↑↓ corner  Enter zoom  Esc whole lap  l lap  r ref";

/** The hint while a lap picker is open: the only keys it takes. */
export const PICKER_HINT = "↑↓ select a lap  Enter take it  Esc cancel";

/** After the lap when no other lap can be its reference (with its leading gap). */
const NO_REF = "  no reference: its only lap";

/** The analysis view. */
export function AnalysisView({ app, columns, rows, inputActive, param }: ViewProps) {
  const s = useAnalysisState({ app, columns, rows, inputActive, param });
  const layout = analysisLayout(columns, rows);
  const { choice, data } = s;
  const note = s.message
    ? <Text color={s.message.error ? "red" : "cyan"} wrap="truncate">{s.message.text}</Text>
    : null;
  if (choice === undefined) return note ?? <Text color="gray">Loading laps...</Text>;
  if (choice === null) {
    return (
      <Box flexDirection="column">
        <Text color="gray">
          No complete lap yet: Analysis compares a lap with a reference once one is stored.
        </Text>
        {note}
      </Box>
    );
  }
  return (
    <Box flexDirection="column" width={layout.width}>
      <Title lap={choice.lap} refLap={choice.ref} />
      {data
        ? (
          <AnalysisCharts
            comparison={data.comparison}
            window={s.window}
            layout={layout}
            cursor={s.cursor}
            cursorIndex={s.cursorIndex}
          />
        )
        : <Text color="gray">Analysing lap {choice.lap.id}...</Text>}
      {s.picker
        ? (
          <LapPicker
            laps={choice.laps}
            picker={s.picker}
            lapId={choice.lap.id}
            refId={choice.ref?.id ?? null}
            width={layout.width}
            rows={layout.tableRows}
          />
        )
        : data
        ? (
          <Box height={layout.tableRows}>
            <CornerTable
              report={data.corners}
              selected={s.cornerIndex}
              zoomed={s.window.corner?.n ?? null}
              width={layout.cornerWidth}
              rows={layout.tableRows}
            />
            <Box width={1} />
            <SectorTable
              sectors={data.sectors}
              session={data.sectorsOf}
              times={data.sectorTimes}
              width={layout.sectorWidth}
              rows={layout.tableRows}
            />
          </Box>
        )
        : null}
      {data
        ? (
          <Text color="cyan" wrap="truncate">
            {data.notes ? notesLine(data.notes) : "No reference: no coaching notes"}
          </Text>
        )
        : null}
      {note ?? <Text color="gray" wrap="truncate">{s.picker ? PICKER_HINT : HINT}</Text>}
    </Box>
  );
}

/** The lap and the reference: ids, session and number, times, the gap, the circuit and car. */
function Title({ lap, refLap }: { lap: LapListItem; refLap: LapListItem | null }) {
  const gap = refLap && lap.time_ms > 0 && refLap.time_ms > 0
    ? `  ${signed((lap.time_ms - refLap.time_ms) / 1000)}`
    : "";
  return (
    <Text wrap="truncate">
      <Text color={LAP_COLOR} bold>{`Lap ${lap.id}`}</Text>
      {` (S${lap.session_id} #${lap.number}) ${lapTime(lap.time_ms)}`}
      {refLap
        ? (
          <Text>
            {"  vs  "}
            <Text color={REF_COLOR} bold>{`ref ${refLap.id}`}</Text>
            {` (S${refLap.session_id} #${refLap.number}) ${lapTime(refLap.time_ms)}${gap}`}
          </Text>
        )
        : <Text color="gray">{NO_REF}</Text>}
      <Text color="gray">{`  ${lap.track || "unnamed"} · ${lap.car_name}`}</Text>
    </Text>
  );
}
