/**
 * The live view: the telemetry link, the live session, the lap timer with
 * its gap to the session best, the car's instruments and the session's laps.
 *
 * @module
 */
import { useEffect } from "react";
import { Box, Text } from "ink";
import type { ViewProps } from "./view_types.ts";
import { useLiveState } from "./use_live_state.ts";
import type { LapRow, LinkState, LiveSnapshot, SessionInfo } from "./live_model.ts";
import { PedalBar, RevLights } from "./bars.tsx";
import {
  delta,
  fit,
  INCOMPLETE_LEGEND,
  lapMark,
  lapTime,
  lapTimer,
  plural,
  right,
} from "./format.ts";

/** Props of {@linkcode LiveView}. */
export interface LiveViewProps extends ViewProps {
  /** Called after every render that reached the screen (for measuring the redraw rate). */
  onRender?: () => void;
}

/** The live view over `app`, redrawn at most 20 times a second. */
export function LiveView({ app, columns, rows, onRender }: LiveViewProps) {
  const snapshot = useLiveState(app);
  useEffect(() => {
    onRender?.();
  });
  return <LiveScreen snapshot={snapshot} columns={columns} rows={rows} />;
}

/** Props of {@linkcode LiveScreen}. */
export interface LiveScreenProps {
  snapshot: LiveSnapshot;
  columns: number;
  rows: number;
}

/** Rows the live view uses above its laps table. */
const FIXED_ROWS = 10;

/** Space between fields on a line (JSX would drop a literal one). */
const GAP = "  ";

/** Terminals at least this wide get the extra lap columns. */
export const WIDE = 100;

/** Draws one snapshot of the live state. */
export function LiveScreen({ snapshot: s, columns, rows }: LiveScreenProps) {
  const width = Math.max(40, columns);
  const bar = Math.max(10, Math.min(100, width - 16));
  const lights = Math.max(10, Math.min(30, width - 44));
  const car = s.car;
  // One row stays free: Ink clears the whole screen on every frame once the
  // output is as tall as the terminal.
  const lapRows = Math.max(2, rows - FIXED_ROWS - 1);
  return (
    <Box flexDirection="column" width={width}>
      <LinkLine link={s.link} width={width} />
      <SessionLine s={s} />
      <Box height={1} />
      <Text wrap="truncate">
        <Text bold>{s.lap === null ? "Lap -" : s.lap === 0 ? "Out lap" : `Lap ${s.lap}`}</Text>
        {GAP}
        <Text bold>{lapTimer(s.timerMs)}</Text>
        {"  delta "}
        <Text color={s.deltaMs === null ? undefined : s.deltaMs <= 0 ? "green" : "red"}>
          {delta(s.deltaMs)}
        </Text>
        {`  best ${lapTime(s.session?.bestMs ?? null)}`}
      </Text>
      {car
        ? (
          <>
            <Text wrap="truncate">
              {`Speed ${right(String(car.speedKmh), 3)} km/h  Gear `}
              <Text bold>{car.gear}</Text>
              {`  RPM ${right(String(car.rpm), 5)} `}
              <RevLights
                rpm={car.rpm}
                alertMin={car.rpmAlertMin}
                alertMax={car.rpmAlertMax}
                lights={lights}
              />
            </Text>
            <PedalBar label="Throttle " pct={car.throttlePct} width={bar} color="green" />
            <PedalBar label="Brake    " pct={car.brakePct} width={bar} color="red" />
            <Text wrap="truncate">
              {`Fuel ${car.fuel.toFixed(1)} L  `}
              {car.fuelLaps === null ? "laps left --" : `${car.fuelLaps.toFixed(1)} laps left`}
            </Text>
            <Text wrap="truncate">
              {`Tyres °C  FL ${car.tyres[0]}  FR ${car.tyres[1]}  RL ${car.tyres[2]}  ` +
                `RR ${car.tyres[3]}   Aids `}
              <Text color={car.tcs ? "yellow" : "gray"}>{car.tcs ? "TCS" : "tcs"}</Text>{" "}
              <Text color={car.asm ? "yellow" : "gray"}>{car.asm ? "ASM" : "asm"}</Text>
            </Text>
          </>
        )
        : <Text color="gray">No telemetry yet.</Text>}
      <Box height={1} />
      <LapsTable laps={s.laps} rows={lapRows} wide={width >= WIDE} error={s.error} />
    </Box>
  );
}

function LinkLine({ link, width }: { link: LinkState; width: number }) {
  const stats = `format ${link.format ?? "-"}  ${link.pps} pkt/s  drops ${link.drops}`;
  let head: string;
  switch (link.state) {
    case "connected":
      head = `connected  console ${link.console ?? "(passive)"}`;
      break;
    case "waiting":
      head = `waiting for console ${link.console}`;
      break;
    case "listening":
      head = `listening on ${link.listen} (no console set)`;
      break;
    case "none":
      head = "no telemetry source";
      break;
  }
  return (
    <Text wrap="truncate">
      <Text color={link.state === "connected" ? "green" : "yellow"}>
        {link.state === "connected" ? "●" : "○"}
      </Text>
      {" " + fit(`${head}  ${stats}`, width - 2).trimEnd()}
    </Text>
  );
}

/** The badge of a name set by matching, or null for a name a driver gave (or none). */
export function matchBadge(source: SessionInfo["trackSource"]): string | null {
  return source === "signature" || source === "bundle" ? `matched by ${source}` : null;
}

function SessionLine({ s }: { s: LiveSnapshot }) {
  const session = s.session;
  if (!session) return <Text>No session yet: it starts with the first completed lap.</Text>;
  const badge = matchBadge(session.trackSource);
  return (
    <Text wrap="truncate">
      {`Session ${session.id}  ${session.track || "unnamed"}`}
      {badge ? " " : ""}
      {badge ? <Text color="black" backgroundColor="green">{`[${badge}]`}</Text> : null}
      {`  ${session.car}  ${plural(session.laps, "lap")}`}
    </Text>
  );
}

interface LapsTableProps {
  laps: readonly LapRow[];
  rows: number;
  wide: boolean;
  error: string | null;
}

/**
 * The session's latest laps, newest last, the best one marked and every
 * incomplete one flagged, with a legend line while one is in view.
 */
function LapsTable({ laps, rows, wide, error }: LapsTableProps) {
  if (error) return <Text color="red">Laps unavailable: {error}</Text>;
  if (laps.length === 0) return <Text color="gray">No laps in this session yet.</Text>;
  let shown = laps.slice(-Math.max(1, rows - 1));
  const legend = shown.some((l) => !l.complete);
  // The legend takes a lap's row, so the table never grows past its rows.
  if (legend && shown.length > 1 && shown.length >= rows - 1) shown = shown.slice(1);
  const head = `${right("Lap", 4)}  ${fit("Time", 9)} ${right("Fuel", 6)} ${right("Events", 6)}` +
    (wide ? `  ${right("Top km/h", 8)} ${right("Full thr", 8)}` : "");
  return (
    <Box flexDirection="column">
      <Text bold>{head}</Text>
      {shown.map((l) => (
        <Text key={l.id} wrap="truncate" color={lapColor(l)}>
          {`${right(String(l.number), 4)}  ${fit(lapTime(l.timeMs), 9)} ` +
            `${right(l.fuel.toFixed(2), 6)} ${right(String(l.events), 6)}` +
            (wide ? `  ${right(String(l.topSpeed), 8)} ${right(`${l.fullThrottle}%`, 8)}` : "") +
            lapMark(l)}
        </Text>
      ))}
      {legend ? <Text color="yellow" wrap="truncate">{INCOMPLETE_LEGEND}</Text> : null}
    </Box>
  );
}

/** Green for the best lap, yellow for an incomplete one, gray for a partial one. */
function lapColor(l: LapRow): string | undefined {
  if (l.best) return "green";
  if (!l.complete) return "yellow";
  return l.counts ? undefined : "gray";
}
