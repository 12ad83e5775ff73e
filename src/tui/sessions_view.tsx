/**
 * The sessions view: every stored session, the laps of the selected one,
 * lap exports to files, and naming a session's track.
 *
 * @module
 */
import { useCallback, useEffect, useState } from "react";
import { Box, Text, useInput } from "ink";
import TextInput from "ink-text-input";
import type { LapSummary } from "../core/laps/lap.ts";
import type { Session } from "../core/laps/session.ts";
import { sessionLaps, sessions } from "../app/sessions.ts";
import { renameSession } from "../app/session_admin.ts";
import type { KeyHelp, ViewProps } from "./view_types.ts";
import { type ExportKind, writeLapExport } from "./export_lap.ts";
import { bestLap } from "./live_model.ts";
import { fit, INCOMPLETE_LEGEND, lapMark, lapTime, right } from "./format.ts";
import { useLoad } from "./use_load.ts";

/** The keys of the sessions view, for the help overlay. */
export const SESSIONS_KEYS: readonly KeyHelp[] = [
  { key: "↑ ↓", action: "select a session, or a lap once in its laps" },
  { key: "Enter", action: "go into the selected session's laps" },
  { key: "Esc", action: "back to the sessions; cancels a rename" },
  { key: "j", action: "export the selected lap as JSON (lap file)" },
  { key: "c", action: "export the selected lap as MoTeC CSV" },
  { key: "r", action: "name the session's track (Enter saves, Esc cancels)" },
];

type Focus = "sessions" | "laps";

/** Shown after the name being typed (with its leading gap, which JSX text would drop). */
const RENAME_HINT = "  Enter save  Esc cancel";

interface Message {
  text: string;
  error: boolean;
}

/** The sessions view. */
export function SessionsView(
  { app, columns, rows, outDir, inputActive, setCapturing }: ViewProps,
) {
  const [version, setVersion] = useState(0);
  const [list, setList] = useState<Session[] | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [laps, setLaps] = useState<LapSummary[]>([]);
  const [lapsOf, setLapsOf] = useState<number | null>(null);
  const [lapIndex, setLapIndex] = useState(0);
  const [focus, setFocus] = useState<Focus>("sessions");
  // The session being named is pinned: a new session arriving meanwhile must not take the name.
  const [draft, setDraft] = useState<{ id: number; text: string } | null>(null);
  const [message, setMessage] = useState<Message | null>(null);

  useEffect(() => app.bus.subscribe(() => setVersion((v) => v + 1)), [app]);

  useLoad(
    () => sessions(app),
    [app, version],
    setList,
    (err) => setMessage({ text: `cannot list sessions: ${err.message}`, error: true }),
  );

  const index = list ? Math.max(0, list.findIndex((s) => s.id === selectedId)) : 0;
  const current = list?.[index] ?? null;

  useLoad(
    () => current && sessionLaps(app, current.id).then((all) => ({ id: current.id, all })),
    [app, current?.id, version],
    ({ id, all }) => {
      setLaps(all);
      setLapsOf(id);
    },
    (err) => setMessage({ text: `cannot list laps: ${err.message}`, error: true }),
  );

  const shownLaps = lapsOf === current?.id ? laps : [];
  const lap = focus === "laps" ? shownLaps[Math.min(lapIndex, shownLaps.length - 1)] : undefined;

  const exportLap = useCallback((kind: ExportKind) => {
    if (!lap) {
      setMessage({ text: "press Enter to go into the laps, then pick one to export", error: true });
      return;
    }
    writeLapExport(app, lap.id, kind, outDir).then(
      (path) => setMessage({ text: `wrote ${path}`, error: false }),
      (err) => setMessage({ text: `export failed: ${err.message}`, error: true }),
    );
  }, [app, lap?.id, outDir]);

  const stopRenaming = useCallback(() => {
    setDraft(null);
    setCapturing(false);
  }, [setCapturing]);
  useEffect(() => () => setCapturing(false), [setCapturing]);

  const save = useCallback((name: string) => {
    if (!draft) return;
    renameSession(app, draft.id, name).then(
      (updated) => {
        stopRenaming();
        setMessage({ text: `session ${updated.id} is now "${updated.track_name}"`, error: false });
        setVersion((v) => v + 1);
      },
      (err) => setMessage({ text: err.message, error: true }),
    );
  }, [app, draft?.id, stopRenaming]);

  useInput((input, key) => {
    if (draft !== null) {
      if (key.escape) {
        stopRenaming();
        setMessage({ text: "rename cancelled", error: false });
      }
      return;
    }
    if (key.upArrow || key.downArrow) {
      const step = key.upArrow ? -1 : 1;
      if (focus === "laps") {
        setLapIndex((i) => clamp(i + step, 0, shownLaps.length - 1));
      } else if (list && list.length > 0) {
        setSelectedId(list[clamp(index + step, 0, list.length - 1)].id);
        setLapIndex(0);
      }
      return;
    }
    if (key.return && focus === "sessions" && current && shownLaps.length > 0) {
      setSelectedId(current.id);
      setFocus("laps");
      setLapIndex(0);
    } else if (key.escape && focus === "laps") {
      setFocus("sessions");
    } else if (input === "j" || input === "c") {
      exportLap(input === "j" ? "json" : "csv");
    } else if (input === "r" && current) {
      setSelectedId(current.id);
      setDraft({ id: current.id, text: current.track_name });
      setCapturing(true);
      setMessage(null);
    }
  }, { isActive: inputActive });

  const width = Math.max(40, columns);
  // Seven rows of titles, messages and keys; one row stays free (see LiveScreen).
  const listRows = Math.max(3, Math.floor((rows - 7) / 2));
  if (list === null) return <Text color="gray">Loading sessions...</Text>;
  if (list.length === 0) {
    return <Text color="gray">No sessions yet: they appear with the first recorded lap.</Text>;
  }
  const best = bestLap(shownLaps);
  // The legend takes a lap's row while an incomplete lap is listed, so the view keeps its height.
  const legend = shownLaps.some((l) => !l.complete);
  const lapRows = listRows - 1 - (legend ? 1 : 0);
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>Sessions ({list.length})</Text>
      <SessionsTable
        list={list}
        index={index}
        rows={listRows}
        width={width}
        active={focus === "sessions"}
      />
      <Box height={1} />
      <Text bold wrap="truncate">
        {current ? `Laps of session ${current.id} (${current.track_name || "unnamed"})` : "Laps"}
        {focus === "sessions" && shownLaps.length > 0 ? "  Enter to pick one" : ""}
      </Text>
      {shownLaps.length === 0
        ? <Text color="gray">{lapsOf === current?.id ? "No laps." : "Loading laps..."}</Text>
        : (
          <Box flexDirection="column">
            <Text>
              {`  ${right("Id", 5)} ${right("Lap", 4)}  ${fit("Time", 9)} ${right("Fuel", 6)} ${
                right("Events", 6)
              }`}
            </Text>
            {window(shownLaps, focus === "laps" ? lapIndex : -1, lapRows).map((
              { item, at },
            ) => (
              <Text
                key={item.id}
                wrap="truncate"
                inverse={focus === "laps" && at === lapIndex}
                color={item === best ? "green" : item.complete ? undefined : "yellow"}
              >
                {`${focus === "laps" && at === lapIndex ? ">" : " "} ${
                  right(String(item.id), 5)
                } ` +
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
            {legend ? <Text color="yellow" wrap="truncate">{INCOMPLETE_LEGEND}</Text> : null}
          </Box>
        )}
      <Text wrap="truncate" color={message?.error ? "red" : "cyan"}>{message?.text ?? " "}</Text>
      {draft !== null
        ? (
          <Text wrap="truncate">
            {`Track name for session ${draft.id}: `}
            <TextInput
              value={draft.text}
              onChange={(text) => setDraft({ id: draft.id, text })}
              onSubmit={save}
              focus={inputActive}
            />
            <Text color="gray">{RENAME_HINT}</Text>
          </Text>
        )
        : (
          <Text color="gray" wrap="truncate">
            {focus === "laps"
              ? "↑↓ lap  j JSON  c CSV  r rename  Esc back"
              : "↑↓ session  Enter laps  r rename"}
          </Text>
        )}
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
  const free = width - 36;
  const carWidth = Math.floor(free * 0.55);
  const trackWidth = free - carWidth;
  const row = (id: string, kind: string, car: string, track: string, laps: string, best: string) =>
    `${right(id, 4)} ${fit(kind, 8)} ${fit(car, carWidth)} ${fit(track, trackWidth)} ` +
    `${right(laps, 4)} ${right(best, 9)}`;
  return (
    <Box flexDirection="column">
      <Text>{"  " + row("Id", "Kind", "Car", "Track", "Laps", "Best")}</Text>
      {window(list, index, rows - 1).map(({ item, at }) => (
        <Text key={item.id} wrap="truncate" inverse={active && at === index}>
          {(at === index ? "> " : "  ") +
            row(
              String(item.id),
              item.kind,
              item.car_name,
              item.track_name || "unnamed",
              String(item.lap_count),
              lapTime(item.best_lap_time_ms),
            )}
        </Text>
      ))}
    </Box>
  );
}

/** At most `size` items around `selected`, each with its index in `items`. */
function window<T>(items: readonly T[], selected: number, size: number) {
  const n = Math.max(1, size);
  const start = clamp(selected - Math.floor(n / 2), 0, Math.max(0, items.length - n));
  return items.slice(start, start + n).map((item, i) => ({ item, at: start + i }));
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(Math.max(v, lo), Math.max(lo, hi));
}

function eventCount(lap: LapSummary): number {
  return Object.values(lap.event_counts).reduce((a, b) => a + b, 0);
}
