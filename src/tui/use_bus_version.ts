/**
 * A number that goes up whenever the application announces an event of one
 * of the given types: a view passes it as a dependency of what it loads,
 * so the load runs again when the data behind it changes.
 *
 * @module
 */
import { useEffect, useState } from "react";
import type { AppEvent } from "../app/events.ts";
import type { ViewProps } from "./view_types.ts";

/**
 * The count of `app`'s events of `types` since the view mounted (starting
 * at 0); subscribed while mounted, and again when `app` changes.
 */
export function useBusVersion(
  app: ViewProps["app"],
  types: readonly AppEvent["type"][],
): number {
  const [version, setVersion] = useState(0);
  const key = types.join(",");
  useEffect(
    () =>
      app.bus.subscribe((e) => {
        if (types.includes(e.type)) setVersion((v) => v + 1);
      }),
    // The types as text: a new array of the same types is the same subscription.
    [app, key],
  );
  return version;
}
