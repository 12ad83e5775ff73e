/**
 * The list a lap or a reference is picked from in the analysis view: the
 * laps of the circuit and car, fastest first, with their gap to the fastest
 * and what they are now (the lap, the reference).
 *
 * @module
 */
import { Box, Text } from "ink";
import type { LapListItem } from "../app/laps/lap_listing.ts";
import { fit, lapTime, right } from "./format.ts";
import { MoreLine, signed } from "./corner_table.tsx";
import { listWindow } from "./list_window.ts";
import type { Picker } from "./use_analysis_state.ts";

/** Props of {@linkcode LapPicker}. */
export interface LapPickerProps {
  laps: readonly LapListItem[];
  picker: Picker;
  /** Ids of the lap and the reference now shown. */
  lapId: number;
  refId: number | null;
  width: number;
  /** Lines drawn, the heading included. */
  rows: number;
}

/** The laps to pick from, the highlighted one inverse. */
export function LapPicker({ laps, picker, lapId, refId, width, rows }: LapPickerProps) {
  const fastest = laps.find((l) => l.time_ms > 0)?.time_ms ?? null;
  const title = picker.kind === "lap" ? "Pick the lap to analyse" : "Pick the reference";
  const window = listWindow(laps, picker.index, Math.max(1, rows - 1));
  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate">
        {fit(`${title} (${laps.length}, fastest first): ↑↓ Enter, Esc cancels`, width)}
      </Text>
      {window.above > 0 ? <MoreLine count={window.above} up /> : null}
      {window.rows.map(({ item, at }) => {
        const now = item.id === lapId ? "lap" : item.id === refId ? "ref" : "";
        const gap = fastest !== null && item.time_ms > 0
          ? signed((item.time_ms - fastest) / 1000)
          : "";
        const what = item.complete ? item.counts_for_best ? "" : "(partial)" : "! incomplete";
        return (
          <Text key={item.id} wrap="truncate" inverse={at === picker.index}>
            {fit(
              `${at === picker.index ? ">" : " "} ${right(String(item.id), 5)}  ` +
                `session ${item.session_id} lap ${item.number}`.padEnd(22) +
                `${right(lapTime(item.time_ms), 9)} ${right(gap, 7)}  ${fit(now, 3)}  ` +
                `${item.finished_at.slice(0, 16).replace("T", " ")}  ${what}`,
              width,
            ).trimEnd()}
          </Text>
        );
      })}
      {window.below > 0 ? <MoreLine count={window.below} up={false} /> : null}
    </Box>
  );
}
