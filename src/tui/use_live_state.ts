/**
 * The live view's state: a {@linkcode LiveModel} following the app's bus
 * and live frames while the view is mounted, sampled at most 20 times a
 * second. The view only draws the snapshot this returns.
 *
 * @module
 */
import { useEffect, useMemo } from "react";
import type { AppFace } from "../app/create_app.ts";
import type { LiveFrameSource } from "../app/live/live_frame.ts";
import { LiveModel, type LiveSnapshot, type MapSize } from "./live_model.ts";
import { useSampled } from "./use_app_state.ts";
import type { SectorClock } from "./live_sectors.ts";

/** Options of {@linkcode useLiveState}. */
export interface LiveStateOptions {
  /** The live frames; `app.frames` by default. */
  frames?: LiveFrameSource;
  /** The clock the link's silence is measured by, ms; the app's clock by default. */
  now?: () => number;
  /** The dashboard's sector timing, which outlives the view; the model times its own without. */
  sectors?: SectorClock | null;
  /** The track map's size in cells (it follows resizes). */
  map: MapSize;
}

/**
 * The live view's state for `app`, sampled at most 20 times a second. The
 * model behind it follows the app's bus and frames while the component is
 * mounted; a new size takes effect at the next sample.
 */
export function useLiveState(app: AppFace, opts: LiveStateOptions): LiveSnapshot {
  const { frames, now, map, sectors } = opts;
  const model = useMemo(
    () => new LiveModel(app, { frames, now, sectors }),
    [app, frames, now, sectors],
  );
  useEffect(() => {
    model.start();
    return () => model.stop();
  }, [model]);
  return useSampled(() => model.snapshot(map));
}
