/**
 * The line an import's progress is drawn on: a bar over the three steps
 * and what the current one is doing; empty when no import runs.
 *
 * @module
 */
import { Text } from "ink";
import type { ImportProgress } from "../app/laps/files.ts";
import { importFraction } from "./import_progress.ts";
import { ProgressBar } from "./bars.tsx";

/** `Import [bar] step/3 what`, or an empty line for `progress` null; the bar fits `width`. */
export function ProgressLine(
  { progress: p, width }: { progress: ImportProgress | null; width: number },
) {
  if (p === null) return <Text></Text>;
  const kb = (n: number) => `${Math.ceil(n / 1024)} kB`;
  const label = p.phase === "read"
    ? `reading ${kb(p.bytes)} of ${kb(p.total)}`
    : p.phase === "parse"
    ? `parsing ${kb(p.total)}`
    : p.phase === "import"
    ? "validating, merging, storing"
    : p.phase === "record"
    ? `recording ${p.packets.done} of ${p.packets.total} packets`
    : `imported ${kb(p.total)}`;
  const step = p.phase === "done" ? 3 : p.phase === "read" ? 1 : p.phase === "parse" ? 2 : 3;
  return (
    <Text wrap="truncate">
      {"Import "}
      <ProgressBar fraction={importFraction(p)} width={Math.max(10, Math.min(30, width - 50))} />
      {` ${step}/3 ${label}`}
    </Text>
  );
}
