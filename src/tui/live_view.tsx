/**
 * The live view: the telemetry link and capture, the live session, the lap
 * timer with its gap to the best lap ever at this circuit in this car and
 * the lap time it predicts, the sector splits, the car's instruments, the
 * fuel strategy, a small track map with the car, and the session's laps.
 * Once no packet came for a second, every readout greys out and the link
 * line says how long ago the last one came.
 *
 * @module
 */
import { useEffect } from "react";
import { Box, Text } from "ink";
import type { LiveFrameSource } from "../app/live/live_frame.ts";
import type { ViewProps } from "./view_types.ts";
import { useLiveState } from "./use_live_state.ts";
import { useSharedSectorClock } from "./sector_timing.ts";
import type {
  CarState,
  FuelPlan,
  LapRow,
  LinkState,
  LiveSnapshot,
  SessionInfo,
} from "./live_model.ts";
import type { SectorRow, SplitPace } from "./live_sectors.ts";
import { linkLine } from "./link_line.ts";
import { BAR_OFF, BAR_ON, LIGHT_OFF, LIGHT_ON, litLights, PedalBar, RevLights } from "./bars.tsx";
import {
  delta,
  fit,
  INCOMPLETE_LEGEND,
  lapMark,
  lapTime,
  lapTimer,
  plural,
  right,
  sectorTime,
} from "./format.ts";

/** Props of {@linkcode LiveView}. */
export interface LiveViewProps extends ViewProps {
  /** Called after every render that reached the screen (for measuring the redraw rate). */
  onRender?: () => void;
  /** The live frames; `app.frames` by default (tests pass a fake). */
  frames?: LiveFrameSource;
  /** The clock the link's silence is measured by, ms; the app's clock by default. */
  now?: () => number;
}

/** The live view over `app`, redrawn at most 20 times a second. */
export function LiveView({ app, columns, rows, onRender, frames, now }: LiveViewProps) {
  const layout = liveLayout(columns, rows);
  const sectors = useSharedSectorClock(frames);
  const snapshot = useLiveState(app, { frames, now, map: layout.map, sectors });
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

/** Space between fields on a line (JSX would drop a literal one). */
const GAP = "  ";

/** Terminals at least this wide get the extra lap columns. */
export const WIDE = 100;

/** Terminals at least this wide get the track map beside the instruments. */
export const MAP_MIN_COLUMNS = 72;

/** Rows beside the map: sectors, speed, throttle, brake, fuel, tyres. */
const MAP_ROWS = 6;

/** How the live view splits a `columns` x `rows` area. */
export interface LiveLayout {
  width: number;
  /** Width of the readouts column (the whole width without a map). */
  left: number;
  /** The map's size in cells; 0 x 0 without one. */
  map: { cols: number; rows: number };
  /** Blank rows kept between the blocks (dropped when rows are short). */
  spaced: boolean;
  /** Rows of the laps table, header included; 0 drops the table. */
  lapRows: number;
}

/**
 * The layout for a `columns` x `rows` area: the map takes about 30 % of the
 * width from {@linkcode MAP_MIN_COLUMNS} on; when rows are short (a prompt
 * below) the blank rows go first, then the laps table, so the readouts stay.
 */
export function liveLayout(columns: number, rows: number): LiveLayout {
  const width = Math.max(40, columns);
  const mapCols = width >= MAP_MIN_COLUMNS
    ? Math.max(16, Math.min(48, Math.floor(width * 0.3)))
    : 0;
  // One row stays free: Ink clears the whole screen on every frame once the
  // output is as tall as the terminal.
  const usable = rows - 1;
  // Link, session, lap line, and the six rows beside the map.
  const core = 3 + MAP_ROWS;
  const spaced = usable >= core + 2 + 2;
  const lapRows = Math.max(0, usable - core - (spaced ? 2 : 0));
  return {
    width,
    left: mapCols ? width - mapCols - 1 : width,
    map: { cols: mapCols, rows: mapCols ? MAP_ROWS : 0 },
    spaced,
    lapRows: lapRows >= 2 ? lapRows : 0,
  };
}

/** Draws one snapshot of the live state. */
export function LiveScreen({ snapshot: s, columns, rows }: LiveScreenProps) {
  const layout = liveLayout(columns, rows);
  const { width, left } = layout;
  const stale = s.link.stale;
  const car = s.car;
  const dim = (color: string | undefined) => (stale ? "gray" : color);
  return (
    <Box flexDirection="column" width={width}>
      <LinkLine link={s.link} width={width} />
      {/* Before the corner its cue takes the free row, or when there is none the session's. */}
      {s.cue && !layout.spaced ? <CueLine cue={s.cue} /> : <SessionLine s={s} />}
      {layout.spaced ? s.cue ? <CueLine cue={s.cue} /> : <Box height={1} /> : null}
      <Text wrap="truncate" color={dim(undefined)}>
        <Text bold>{s.lap === null ? "Lap -" : s.lap === 0 ? "Out lap" : `Lap ${s.lap}`}</Text>
        {GAP}
        <Text bold>{lapTimer(s.timerMs)}</Text>
        {"  delta "}
        <Text color={dim(s.deltaMs === null ? undefined : s.deltaMs <= 0 ? "green" : "red")}>
          {delta(s.deltaMs)}
        </Text>
        {
          /* The frame says whose lap the gap runs against (yours, a teammate's, the same road's):
            the prediction is shortened so that an 80-column line still ends with its time. */
        }
        {s.referenceLabel === null
          ? `  predicted ${lapTime(s.predictedMs).slice(0, -1)}  best ever ${
            lapTime(s.referenceMs)
          }`
          : `  pred ${lapTime(s.predictedMs).slice(0, -1)}  vs ${s.referenceLabel}`}
      </Text>
      <Box>
        <Box flexDirection="column" width={left} flexShrink={0}>
          <SectorsLine sectors={s.sectors} stale={stale} />
          {car
            ? <CarLines car={car} fuel={s.fuel} width={left} stale={stale} />
            : <Text color="gray">No telemetry yet.</Text>}
        </Box>
        {s.map
          ? (
            <Box flexDirection="column" marginLeft={1}>
              {s.map.lines.map((line, i) => (
                <Text key={i} color={stale ? "gray" : s.map?.kind === "line" ? "cyan" : undefined}>
                  {line}
                </Text>
              ))}
            </Box>
          )
          : null}
      </Box>
      {layout.lapRows > 0
        ? (
          <>
            {layout.spaced ? <Box height={1} /> : null}
            <LapsTable
              laps={s.laps}
              rows={layout.lapRows}
              wide={width >= WIDE}
              error={s.error}
            />
          </>
        )
        : null}
    </Box>
  );
}

/** The readouts of the car, five rows, fitted to `width`. */
function CarLines(
  { car, fuel, width, stale }: {
    car: CarState;
    fuel: FuelPlan | null;
    width: number;
    stale: boolean;
  },
) {
  const bar = Math.max(10, Math.min(100, width - 16));
  const lights = Math.max(10, Math.min(30, width - 36));
  const lit = litLights(car.rpm, car.rpmAlertMin, car.rpmAlertMax, lights);
  return (
    <>
      <Text wrap="truncate" color={stale ? "gray" : undefined}>
        {`Speed ${right(String(car.speedKmh), 3)} km/h  Gear `}
        <Text bold>{car.gear}</Text>
        {`  RPM ${right(String(car.rpm), 5)} `}
        {stale ? LIGHT_ON.repeat(lit) + LIGHT_OFF.repeat(lights - lit) : (
          <RevLights
            rpm={car.rpm}
            alertMin={car.rpmAlertMin}
            alertMax={car.rpmAlertMax}
            lights={lights}
          />
        )}
      </Text>
      {stale
        ? (
          <>
            <Text color="gray" wrap="truncate">{staleBar("Throttle ", car.throttlePct, bar)}</Text>
            <Text color="gray" wrap="truncate">{staleBar("Brake    ", car.brakePct, bar)}</Text>
          </>
        )
        : (
          <>
            <PedalBar label="Throttle " pct={car.throttlePct} width={bar} color="green" />
            <PedalBar label="Brake    " pct={car.brakePct} width={bar} color="red" />
          </>
        )}
      <Text wrap="truncate" color={stale ? "gray" : undefined}>{fuelText(car, fuel)}</Text>
      <Text wrap="truncate" color={stale ? "gray" : undefined}>
        {`Tyres °C  FL ${car.tyres[0]}  FR ${car.tyres[1]}  RL ${car.tyres[2]}  ` +
          `RR ${car.tyres[3]}   Aids `}
        <Text color={car.tcs && !stale ? "yellow" : "gray"}>{car.tcs ? "TCS" : "tcs"}</Text>{" "}
        <Text color={car.asm && !stale ? "yellow" : "gray"}>{car.asm ? "ASM" : "asm"}</Text>
      </Text>
    </>
  );
}

/** A pedal bar drawn without colours, as {@linkcode PedalBar} lays it out. */
function staleBar(label: string, pct: number, width: number): string {
  const filled = Math.min(width, Math.max(0, Math.round(pct / 100 * width)));
  return `${label}${BAR_ON.repeat(filled)}${BAR_OFF.repeat(width - filled)}${right(`${pct}%`, 5)}`;
}

/** The fuel line: fuel on board, use per lap, laps it lasts and the lap to pit at. */
export function fuelText(car: Pick<CarState, "fuel">, fuel: FuelPlan | null): string {
  const head = `Fuel ${car.fuel.toFixed(1)} L`;
  if (!fuel || fuel.lapsLeft === null) return `${head}  laps left --`;
  const perLap = fuel.perLap === null ? "" : `  ${fuel.perLap.toFixed(2)} L/lap`;
  return `${head}${perLap}  ${fuel.lapsLeft.toFixed(1)} laps left  pit lap ${fuel.pitLap}`;
}

/** A split's colour: green at or under the personal best sector, yellow over it, plain without one. */
export function paceColor(pace: SplitPace): string | undefined {
  return pace === "faster" ? "green" : pace === "slower" ? "yellow" : undefined;
}

/** The sector splits, coloured green at or under the personal best and yellow over it. */
function SectorsLine({ sectors, stale }: { sectors: SectorRow | null; stale: boolean }) {
  if (!sectors || sectors.sectors.length === 0) {
    return <Text color="gray" wrap="truncate">Sectors --</Text>;
  }
  return (
    <Text wrap="truncate" color={stale ? "gray" : undefined}>
      {sectors.previous ? `Lap ${sectors.lap}` : "Sectors"}
      {sectors.sectors.map((k) => (
        <Text key={k.n}>
          {`  S${k.n} `}
          <Text
            color={stale ? "gray" : paceColor(k.pace)}
            bold={k.current}
          >
            {k.ms !== null ? sectorTime(k.ms) : k.current ? "…" : "--"}
          </Text>
        </Text>
      ))}
    </Text>
  );
}

function LinkLine({ link, width }: { link: LinkState; width: number }) {
  const up = link.state === "connected" && !link.stale;
  return (
    <Text wrap="truncate">
      <Text color={up ? "green" : link.stale ? "red" : "yellow"}>{up ? "●" : "○"}</Text>
      <Text color={link.stale ? "red" : undefined}>
        {" " + linkLine(link, width - 2)}
      </Text>
    </Text>
  );
}

/**
 * The badge of a name the logger found by itself, or null for a name a
 * driver gave (or none): `matched by signature`, `matched by bundle`, or
 * `matched by reference` (the shipped reference lines).
 */
export function matchBadge(source: SessionInfo["trackSource"]): string | null {
  return source === "signature" || source === "bundle" || source === "reference"
    ? `matched by ${source}`
    : null;
}

/**
 * The cue for the corner ahead, from the frame (`▶ Turn 4: brake later  lost
 * 0.28 s last lap`): the corner where the last lap lost most, said on the
 * straight before it.
 */
export function cueText(cue: { text: string; lossS: number }): string {
  return `▶ ${cue.text}  lost ${cue.lossS.toFixed(2)} s last lap`;
}

function CueLine({ cue }: { cue: { text: string; lossS: number } }) {
  return <Text bold color="yellow" wrap="truncate">{cueText(cue)}</Text>;
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
