/**
 * The sessions view: every stored session, the laps of the selected one,
 * lap exports to files, naming a session's track, and importing laps from
 * a file (any format the `import` command takes) with progress.
 *
 * @module
 */
import { Box, Text } from "ink";
import { TextField } from "./text_field.tsx";
import type { LapSummary } from "../core/laps/lap.ts";
import type { Session } from "../core/laps/session.ts";
import type { KeyHelp, ViewProps } from "./view_types.ts";
import { bestLap } from "./live_model.ts";
import { fit, INCOMPLETE_LEGEND, lapMark, lapTime, right } from "./format.ts";
import { wrapText } from "./wrap_text.ts";
import { listWindow } from "./list_window.ts";
import { MoreLine } from "./corner_table.tsx";
import { type SessionsState, useSessionsState } from "./use_sessions_state.ts";
import { LinePrompt } from "./line_prompt.tsx";
import { ProgressLine } from "./import_progress_line.tsx";

/** The keys of the sessions view, for the help overlay. */
export const SESSIONS_KEYS: readonly KeyHelp[] = [
  { key: "↑ ↓", action: "select a session, or a lap once in its laps" },
  { key: "Enter", action: "go into the selected session's laps" },
  { key: "Esc", action: "back to the sessions; cancels a rename" },
  { key: "j", action: "export the selected lap as JSON (lap file) to the exports folder" },
  { key: "c", action: "export the selected lap as MoTeC CSV to the exports folder" },
  {
    key: "m",
    action: "export a MoTeC i2 log (.ld + .ldx) of the lap, or of the session",
  },
  { key: "r", action: "name the session's track (Enter saves, Esc cancels)" },
  { key: "i", action: "import laps from a file (lap file, gt7dashboard, MoTeC CSV/.ld)" },
];

/** Lines a message may take. */
const MESSAGE_LINES = 3;

/** Shown after the name being typed (with its leading gap, which JSX text would drop). */
const RENAME_HINT = "  Enter save  Esc cancel";

/** The sessions view. */
export function SessionsView(
  { app, columns, rows, outDir, inputActive, setCapturing }: ViewProps,
) {
  const s = useSessionsState({ app, outDir, inputActive, setCapturing });
  const { list, focus, lapIndex, draft } = s;
  const width = Math.max(40, columns);
  // Seven rows of titles, messages and keys; one row stays free (see LiveScreen).
  const listRows = Math.max(3, Math.floor((rows - 7) / 2));
  if (list === null) return <Text color="gray">Loading sessions...</Text>;
  if (list.length === 0) {
    return (
      <Box flexDirection="column" width={width}>
        <Text color="gray">
          No sessions yet: they appear with the first recorded lap, or import (i).
        </Text>
        <ImportLines s={s} width={width} focus={inputActive} />
      </Box>
    );
  }
  // The legend takes a lap's row while an incomplete lap is listed, so the view keeps its height.
  const legend = s.laps.some((l) => !l.complete);
  // A long message (the full path of an export) wraps rather than losing its file name; the
  // laps give up the rows it takes.
  const said = wrapText(s.message?.text ?? "", width, MESSAGE_LINES);
  const lapRows = Math.max(1, listRows - 1 - (said.length - 1));
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>Sessions ({list.length})</Text>
      <SessionsTable
        list={list}
        index={s.index}
        rows={listRows}
        width={width}
        active={focus === "sessions"}
      />
      <Box height={1} />
      <Text bold wrap="truncate">
        {s.current
          ? `Laps of session ${s.current.id} (${s.current.track_name || "unnamed"})`
          : "Laps"}
        {focus === "sessions" && s.laps.length > 0 ? "  Enter to pick one" : ""}
      </Text>
      {s.laps.length === 0
        ? <Text color="gray">{s.lapsLoaded ? "No laps." : "Loading laps..."}</Text>
        : (
          <LapsTable
            laps={s.laps}
            selected={focus === "laps" ? lapIndex : -1}
            rows={lapRows}
            legend={legend}
          />
        )}
      {said.map((line, i) => (
        <Text key={i} wrap="truncate" color={s.message?.error ? "red" : "cyan"}>{line || " "}</Text>
      ))}
      {s.lapImport.path !== null
        ? <ImportLines s={s} width={width} focus={inputActive} />
        : draft !== null
        ? (
          <Text wrap="truncate">
            {`Track name for session ${draft.id}: `}
            <TextField
              value={draft.text}
              onChange={s.setDraftText}
              onSubmit={s.save}
              focus={inputActive}
            />
            <Text color="gray">{RENAME_HINT}</Text>
          </Text>
        )
        : (
          <Text color="gray" wrap="truncate">
            {focus === "laps"
              ? "↑↓ lap  j JSON  c CSV  m MoTeC  r rename  i import  Esc back"
              : s.lapImport.progress
              ? <ProgressLine progress={s.lapImport.progress} width={width} />
              : "↑↓ session  Enter laps  m MoTeC  r rename  i import"}
          </Text>
        )}
    </Box>
  );
}

/**
 * The lap import's lines: the path prompt while typing, else its progress;
 * with no sessions listed, also the notice and the keys (the list's own
 * lines are not drawn then).
 */
function ImportLines({ s, width, focus }: { s: SessionsState; width: number; focus: boolean }) {
  const { path, progress } = s.lapImport;
  if (path !== null) {
    return (
      <LinePrompt
        label="Import laps from"
        value={path}
        onChange={s.lapImport.setPath}
        onSubmit={s.lapImport.start}
        focus={focus}
      />
    );
  }
  if (s.list?.length) return <ProgressLine progress={progress} width={width} />;
  return (
    <Box flexDirection="column">
      {wrapText(s.message?.text ?? "", width, MESSAGE_LINES).map((line, i) => (
        <Text key={i} wrap="truncate" color={s.message?.error ? "red" : "cyan"}>{line || " "}</Text>
      ))}
      {progress
        ? <ProgressLine progress={progress} width={width} />
        : <Text color="gray">i import</Text>}
    </Box>
  );
}

interface SessionsTableProps {
  list: readonly Session[];
  index: number;
  rows: number;
  width: number;
  active: boolean;
}

function SessionsTable({ list, index, rows, width, active }: SessionsTableProps) {
  const shown = listWindow(list, index, rows - 1);
  const free = width - 36;
  const carWidth = Math.floor(free * 0.55);
  const trackWidth = free - carWidth;
  const row = (id: string, kind: string, car: string, track: string, laps: string, best: string) =>
    `${right(id, 4)} ${fit(kind, 8)} ${fit(car, carWidth)} ${fit(track, trackWidth)} ` +
    `${right(laps, 4)} ${right(best, 9)}`;
  return (
    <Box flexDirection="column">
      <Text>{"  " + row("Id", "Kind", "Car", "Track", "Laps", "Best")}</Text>
      {shown.above > 0 ? <MoreLine count={shown.above} up /> : null}
      {shown.rows.map(({ item, at }) => (
        <Text key={item.id} wrap="truncate" inverse={active && at === index}>
          {(at === index ? "> " : "  ") +
            row(
              String(item.id),
              item.kind,
              item.car_name,
              trackCell(item),
              String(item.lap_count),
              lapTime(item.best_lap_time_ms),
            )}
        </Text>
      ))}
      {shown.below > 0 ? <MoreLine count={shown.below} up={false} /> : null}
    </Box>
  );
}

interface LapsTableProps {
  laps: readonly LapSummary[];
  /** The lap picked, or -1 while the sessions have the keys. */
  selected: number;
  /** Lines for the laps, their `↑ N more` / `↓ N more` lines and the legend, the heading aside. */
  rows: number;
  /** Whether the incomplete-lap legend is drawn under the laps (it takes one of `rows`). */
  legend: boolean;
}

/** The laps of a session; laps left out are said (`↓ 3 more`), so a cut list never looks whole. */
function LapsTable({ laps, selected, rows, legend }: LapsTableProps) {
  const best = bestLap(laps);
  const shown = listWindow(laps, selected, rows - (legend ? 1 : 0));
  return (
    <Box flexDirection="column">
      <Text>
        {`  ${right("Id", 5)} ${right("Lap", 4)}  ${fit("Time", 9)} ${right("Fuel", 6)} ${
          right("Events", 6)
        }`}
      </Text>
      {shown.above > 0 ? <MoreLine count={shown.above} up /> : null}
      {shown.rows.map(({ item, at }) => (
        <Text
          key={item.id}
          wrap="truncate"
          inverse={at === selected}
          color={item === best ? "green" : item.complete ? undefined : "yellow"}
        >
          {`${at === selected ? ">" : " "} ${right(String(item.id), 5)} ` +
            `${right(String(item.number), 4)}  ${fit(lapTime(item.time_ms), 9)} ` +
            `${right(item.fuel_consumed.toFixed(2), 6)} ` +
            `${right(String(eventCount(item)), 6)}` +
            lapMark({
              best: item === best,
              counts: item.counts_for_best,
              complete: item.complete,
              missing: item.samples_missing,
            })}
        </Text>
      ))}
      {shown.below > 0 ? <MoreLine count={shown.below} up={false} /> : null}
      {legend ? <Text color="yellow" wrap="truncate">{INCOMPLETE_LEGEND}</Text> : null}
    </Box>
  );
}

/** Short badges of names the logger found by itself, after the track in the list. */
const SOURCE_MARK: Partial<Record<Session["track_source"], string>> = {
  reference: "ref",
  signature: "sig",
  bundle: "map",
};

/**
 * The track column: the name, or `unnamed`, with `[ref]`, `[sig]` or
 * `[map]` first when it was matched (by the shipped reference lines, a
 * stored signature or a surveyed bundle), so a cut name keeps its badge.
 */
export function trackCell(s: Pick<Session, "track_name" | "track_source">): string {
  const mark = SOURCE_MARK[s.track_source];
  const name = s.track_name || "unnamed";
  return mark && s.track_name ? `[${mark}] ${name}` : name;
}

function eventCount(lap: LapSummary): number {
  return Object.values(lap.event_counts).reduce((a, b) => a + b, 0);
}
