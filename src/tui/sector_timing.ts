/**
 * The live sector timing of the whole dashboard: one {@linkcode SectorClock}
 * that follows the app's frames and stored laps for as long as the
 * dashboard runs, so the Live view shows the sectors already driven this
 * lap however often it was left and opened again (as the phone page does).
 * The root provides it; a Live view drawn alone (a test, a fake frame
 * source) times its own.
 *
 * @module
 */
import { createContext, useContext, useEffect, useMemo } from "react";
import type { AppFace } from "../app/create_app.ts";
import type { LiveFrameSource } from "../app/live/live_frame.ts";
import { SectorClock } from "./live_sectors.ts";

/**
 * Feeds `clock` every frame of `frames` (a sector change is timed to the
 * packet) and every lap `app` stores (its time closes the last sector).
 * Returns the function that stops it.
 */
export function followSectors(
  app: AppFace,
  frames: LiveFrameSource,
  clock: SectorClock,
): () => void {
  const offBus = app.bus.subscribe((event) => {
    if (event.type === "lap") clock.lapStored(event.lap.number, event.lap.time_ms);
  });
  // Every frame; this only compares two numbers.
  const offFrames = frames.subscribe(60, (f) => clock.frame(f));
  return () => {
    offBus();
    offFrames();
  };
}

/** The dashboard's sector clock, or null outside a dashboard that times sectors. */
export const SectorTiming = createContext<SectorClock | null>(null);

/**
 * A sector clock following `app.frames` and `app`'s laps from the first
 * render until the component unmounts (one per `app`), for
 * {@linkcode SectorTiming}'s provider.
 */
export function useSectorTiming(app: AppFace): SectorClock {
  const clock = useMemo(() => new SectorClock(), [app]);
  useEffect(() => followSectors(app, app.frames, clock), [app, clock]);
  return clock;
}

/**
 * The clock a Live view over `frames` reads: the dashboard's when it reads
 * the app's own frames (`frames` undefined), else null (it times its own).
 */
export function useSharedSectorClock(frames: LiveFrameSource | undefined): SectorClock | null {
  const shared = useContext(SectorTiming);
  return frames === undefined ? shared : null;
}
