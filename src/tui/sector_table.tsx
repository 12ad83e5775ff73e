/**
 * The sector table: the lap's time through each sector of its circuit (of
 * its own session while unnamed, headed `Session N`) and car, the reference's (when there is room), the best anyone drove there,
 * and the theoretical best lap (the sum of the best sectors).
 *
 * @module
 */
import { Box, Text } from "ink";
import type { LapSectorTimes, SectorBests } from "../core/analysis/types.ts";
import { fit, lapTime, right } from "./format.ts";
import { MoreLine } from "./corner_table.tsx";
import { listWindow } from "./list_window.ts";

/** Narrowest table that also shows the reference's sector times. */
const WITH_REF_WIDTH = 36;

/** Props of {@linkcode SectorTable}. */
export interface SectorTableProps {
  /** Null when no lap of the circuit (the unnamed session) and car counts. */
  sectors: SectorBests | null;
  /** The session whose own sectors they are (it is unnamed); null for a named circuit's. */
  session?: number | null;
  times: { lap: LapSectorTimes; ref: LapSectorTimes | null } | null;
  width: number;
  /** Lines drawn at most. */
  rows: number;
}

/** Sector times of the lap (green where it holds the best), the bests, the theoretical best. */
export function SectorTable({ sectors, times, width, rows, session }: SectorTableProps) {
  if (!sectors) {
    return (
      <Box flexDirection="column" width={width}>
        <Text bold>Sectors</Text>
        <Text color="gray" wrap="wrap">Sectors need a lap that counts in this car.</Text>
      </Box>
    );
  }
  const withRef = width >= WITH_REF_WIDTH && times?.ref !== null;
  const cells = withRef ? 3 : 2;
  const nameWidth = Math.max(3, width - 8 * cells);
  const line = (name: string, values: string[]) =>
    fit(name, nameWidth) + values.slice(0, cells).map((v) => right(v, 8)).join("");
  const sec = (v: number | null | undefined) => v === null || v === undefined ? "--" : v.toFixed(3);
  const footer = 2;
  const shown = listWindow(sectors.sectors, 0, Math.max(1, rows - 1 - footer));
  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate">
        {line(
          session ? `Session ${session}` : "Sector",
          withRef ? ["lap", "ref", "best"] : ["lap", "best"],
        )}
      </Text>
      {shown.rows.map(({ item, at }) => {
        const mine = times?.lap.times_s[at] ?? null;
        const best = item.best_s;
        const holds = mine !== null && best !== null &&
          Math.round(mine * 1000) <= Math.round(best * 1000);
        const values = withRef
          ? [sec(mine), sec(times?.ref?.times_s[at]), sec(best)]
          : [sec(mine), sec(best)];
        return (
          <Text key={item.n} wrap="truncate" color={holds ? "green" : undefined}>
            {line(item.name, values)}
          </Text>
        );
      })}
      {shown.below > 0 ? <MoreLine count={shown.below} up={false} /> : null}
      <Text wrap="truncate" color="cyan">
        {fit(`Theoretical best ${lapTime(sectors.theoretical_best_ms)}`, width)}
      </Text>
      <Text wrap="truncate" color="gray">
        {fit(
          `Best lap ${lapTime(sectors.best_lap_ms)}${
            sectors.best_lap_id === null ? "" : ` (lap ${sectors.best_lap_id})`
          }`,
          width,
        )}
      </Text>
    </Box>
  );
}
