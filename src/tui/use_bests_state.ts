/**
 * The bests view's state and keys: the fastest lap of every circuit and car
 * (re-read in the background whenever a lap or a session changes), the
 * selected row, and opening the selected lap in the analysis view.
 *
 * @module
 */
import { useState } from "react";
import type { BestItem } from "../app/laps/lap_listing.ts";
import type { ViewMessage, ViewParam, ViewProps } from "./view_types.ts";
import { useLatestState } from "./use_latest_state.ts";
import { useLoad } from "./use_load.ts";
import { indexOfKey, movedKey } from "./list_selection.ts";
import { useBusVersion } from "./use_bus_version.ts";
import { useKeys } from "./use_keys.ts";

/** What the bests view draws. */
export interface BestsState {
  /** By circuit, then time; null while loading. */
  list: BestItem[] | null;
  /** The selected row. */
  index: number;
  message: ViewMessage | null;
}

/**
 * What Enter on `best` opens the analysis view with: the lap, against the
 * circuit's outright best when that is another car's lap (the gap the row
 * shows), else against the analysis view's default reference.
 */
export function analysisParam(best: BestItem, list: readonly BestItem[]): ViewParam {
  const outright = list.find((b) => b.circuit === best.circuit && b.gap_ms === 0);
  const ref = best.gap_ms > 0 && outright && outright.lap_id !== best.lap_id
    ? outright.lap_id
    : null;
  return { lap: best.lap_id, ref };
}

/** The bests view's state over `app`, answering its keys while `inputActive`. */
export function useBestsState(
  { app, inputActive, open }: Pick<ViewProps, "app" | "inputActive" | "open">,
): BestsState {
  const version = useBusVersion(app, ["lap", "session"]);
  const [list, setList] = useState<BestItem[] | null>(null);
  // The selection follows its circuit and car when the list is re-read.
  // Read back by the key handler, so every key of a burst moves from where the last one left.
  const selected = useLatestState<string | null>(null);
  const [message, setMessage] = useState<ViewMessage | null>(null);

  useLoad(
    () => app.sessions.bests(),
    [app, version],
    setList,
    (err) => setMessage({ text: `cannot read the bests: ${err.message}`, error: true }),
  );

  const index = indexOfKey(list, selected.value, rowKey);

  useKeys((_input, key) => {
    if (!list || list.length === 0) return;
    const at = indexOfKey(list, selected.get(), rowKey);
    if (key.upArrow || key.downArrow) {
      selected.set(movedKey(list, selected.get(), key.upArrow ? -1 : 1, rowKey));
    } else if (key.return) {
      if (!open) {
        setMessage({ text: "the analysis view is not available here", error: true });
        return;
      }
      open("analysis", analysisParam(list[at], list));
    }
  }, { isActive: inputActive });

  return { list, index, message };
}

function rowKey(b: BestItem): string {
  return `${b.circuit}\u0000${b.car_id}`;
}
