/**
 * The live view's state: a {@linkcode LiveModel} following the app's bus
 * while the view is mounted, sampled at most 20 times a second. The view
 * only draws the snapshot this returns.
 *
 * @module
 */
import { useEffect, useMemo } from "react";
import type { App } from "../app/create_app.ts";
import { LiveModel, type LiveSnapshot } from "./live_model.ts";
import { useSampled } from "./use_app_state.ts";

/**
 * The live view's state for `app`, sampled at most 20 times a second. The
 * model behind it follows the app's bus while the component is mounted.
 */
export function useLiveState(app: App): LiveSnapshot {
  const model = useMemo(() => new LiveModel(app), [app]);
  useEffect(() => {
    model.start();
    return () => model.stop();
  }, [model]);
  return useSampled(() => model.snapshot());
}
