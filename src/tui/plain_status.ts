/**
 * The dashboard's fallback when there is no terminal to draw in (stdin or
 * stdout is a pipe or a file): plain status lines every few seconds and one
 * line per completed lap.
 *
 * @module
 */
import type { AppFace } from "../app/create_app.ts";
import type { AppEvent } from "../app/events.ts";
import { LiveModel, type LiveSnapshot } from "./live_model.ts";
import { delta, lapTime, lapTimer } from "./format.ts";
import { coverageNote } from "../core/laps/coverage.ts";
import type { TuiNotices } from "./notices.ts";

/** Options of {@linkcode runPlainStatus}. */
export interface PlainStatusOptions {
  /** Stops the output; the returned promise resolves once it has. */
  signal?: AbortSignal;
  /** Milliseconds between status lines; 5000 by default. */
  intervalMs?: number;
  /** Where lines go (without line ends); `console.log` by default. */
  write?: (line: string) => void;
  /** Notices to print as they come (one posted before the start is printed first). */
  notices?: TuiNotices;
}

/** Default period of the status line, ms. */
export const PLAIN_INTERVAL_MS = 5000;

/** One status line for a live snapshot: link, session, lap. */
export function plainStatusLine(s: LiveSnapshot): string {
  const l = s.link;
  const link = l.state === "none"
    ? "no telemetry source"
    : `${l.state === "connected" ? "connected" : l.state === "waiting" ? "waiting" : "listening"}` +
      `${l.console ? ` ${l.console}` : ""} format ${
        l.format ?? "-"
      } ${l.pps} pkt/s drops ${l.drops}`;
  const session = s.session
    ? `session ${s.session.id} ${s.session.track || "unnamed"} laps ${s.session.laps} ` +
      `best ${lapTime(s.session.bestMs)}`
    : "no session yet";
  const lap = s.lap === null
    ? ""
    : ` | lap ${s.lap} ${lapTimer(s.timerMs)}${s.deltaMs === null ? "" : ` ${delta(s.deltaMs)}`}`;
  const car = s.car ? ` | ${s.car.speedKmh} km/h gear ${s.car.gear}` : "";
  const silent = l.stale ? ` (last packet ${l.lastPacketS} s ago)` : "";
  const store = l.store ? `${l.store} | ` : "";
  const hub = l.hub ? ` | ${l.hub.text}` : "";
  return `${store}${link}${silent}${hub} | ${session}${lap}${car}`;
}

/**
 * The line for a completed lap, or null for other events. An incomplete lap
 * ends with what it lacks, such as `(incomplete: 120 of 5942 samples
 * missing, longest gap 120 packets)`.
 */
export function plainEventLine(event: AppEvent): string | null {
  if (event.type !== "lap") return null;
  const { lap, session } = event;
  const events = Object.values(lap.event_counts).reduce((a, b) => a + b, 0);
  const best = lap.counts_for_best && lap.complete && session.best_lap_time_ms === lap.time_ms;
  const note = coverageNote(lap, lap.total_ticks);
  return `lap ${lap.number} ${lapTime(lap.time_ms)} fuel ${lap.fuel_consumed.toFixed(2)} ` +
    `events ${events} session ${session.id}${best ? " (best)" : ""}${note ? ` (${note})` : ""}`;
}

/**
 * Writes a status line now and every `intervalMs`, and a line per completed
 * lap, until `signal` aborts; then resolves after its reads have finished.
 * Never touches the terminal's modes.
 */
export function runPlainStatus(app: AppFace, opts: PlainStatusOptions = {}): Promise<void> {
  const write = opts.write ?? ((line: string) => console.log(line));
  const model = new LiveModel(app);
  model.start();
  const unsubscribe = app.bus.subscribe((event) => {
    const line = plainEventLine(event);
    if (line) write(line);
  });
  if (opts.notices?.current) write(opts.notices.current.text);
  // A cleared standing notice (null) has nothing to print: its end is said by the next one.
  const unnotice = opts.notices?.subscribe((n) => n && write(n.text)) ?? (() => {});
  write(plainStatusLine(model.snapshot()));
  const timer = setInterval(
    () => write(plainStatusLine(model.snapshot())),
    opts.intervalMs ?? PLAIN_INTERVAL_MS,
  );
  const { promise, resolve } = Promise.withResolvers<void>();
  const stop = () => {
    clearInterval(timer);
    unsubscribe();
    unnotice();
    model.stop();
    model.settled().then(resolve);
  };
  if (opts.signal?.aborted) stop();
  else opts.signal?.addEventListener("abort", stop, { once: true });
  return promise;
}
