/**
 * The bests view: the fastest complete lap of every circuit and car, its
 * gap to the circuit's outright best (any car) and the laps behind it;
 * Enter opens the selected lap in the analysis view.
 *
 * @module
 */
import { Box, Text } from "ink";
import type { BestItem } from "../app/laps/lap_listing.ts";
import type { KeyHelp, ViewProps } from "./view_types.ts";
import { fit, lapTime, plural, right } from "./format.ts";
import { signed } from "./corner_table.tsx";
import { rowsAround } from "./list_window.ts";
import { useBestsState } from "./use_bests_state.ts";

/** The keys of the bests view, for the help overlay. */
export const BESTS_KEYS: readonly KeyHelp[] = [
  { key: "↑ ↓", action: "select a circuit and car" },
  { key: "Enter", action: "open its best lap in the Analysis view" },
];

/** Shown in the gap column of a circuit's outright best. */
export const FASTEST = "fastest";

/** The keys line (a constant: JSX text would fold its double spaces). */
const HINT = "↑↓ select  Enter open in Analysis (5)";

/** Rows besides the list: title, heading, message, keys, and one kept free. */
const FIXED_ROWS = 5;

/** The bests view. */
export function BestsView({ app, columns, rows, inputActive, open }: ViewProps) {
  const s = useBestsState({ app, inputActive, open });
  const width = Math.max(60, columns);
  if (s.list === null) {
    return s.message
      ? <Text color="red">{s.message.text}</Text>
      : <Text color="gray">Loading bests...</Text>;
  }
  if (s.list.length === 0) {
    return (
      <Text color="gray">
        No bests yet: a lap counts once it is complete, in a session named after its circuit.
      </Text>
    );
  }
  const list = s.list;
  const circuits = new Set(list.map((b) => b.circuit)).size;
  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate">
        {`Bests (${plural(circuits, "circuit")}, ${plural(list.length, "best")})`}
      </Text>
      <Text wrap="truncate">
        {"  " + bestsRow(width - 2, "Circuit", "Car", "Best", "Gap", "Behind")}
      </Text>
      {rowsAround(list, s.index, Math.max(1, rows - FIXED_ROWS)).rows.map(({ item, at }) => (
        <Text
          key={`${item.circuit}:${item.car_id}`}
          wrap="truncate"
          inverse={at === s.index}
          color={item.gap_ms === 0 ? "green" : undefined}
        >
          {(at === s.index ? "> " : "  ") + cells(item, width - 2)}
        </Text>
      ))}
      <Text wrap="truncate" color={s.message?.error ? "red" : "cyan"}>
        {s.message?.text ?? " "}
      </Text>
      <Text color="gray" wrap="truncate">{HINT}</Text>
    </Box>
  );
}

/** One row of `best` in `width` cells. */
function cells(best: BestItem, width: number): string {
  return bestsRow(
    width,
    best.track,
    best.car_name,
    lapTime(best.time_ms),
    best.gap_ms === 0 ? FASTEST : signed(best.gap_ms / 1000),
    String(best.laps_behind),
  );
}

/** A row of the table: circuit and car share what the times leave. */
export function bestsRow(
  width: number,
  track: string,
  car: string,
  best: string,
  gap: string,
  behind: string,
): string {
  const free = width - 28;
  const trackWidth = Math.floor(free * 0.5);
  return `${fit(track, trackWidth)} ${fit(car, free - trackWidth)} ${right(best, 9)} ${
    right(gap, 8)
  } ${right(behind, 6)}`;
}
