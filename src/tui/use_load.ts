/**
 * A hook for reads a view shows: the store is asked again whenever the
 * view's inputs change, and only the newest answer lands.
 *
 * @module
 */
import { type DependencyList, useEffect } from "react";

/**
 * Calls `load` after every render in which `deps` changed, then hands its
 * result to `onValue` (or its failure to `onError`) unless a newer load
 * started or the component unmounted meanwhile: a slow read never
 * overwrites a newer one, and nothing is set after unmount. When `load`
 * returns null, nothing is read.
 */
export function useLoad<T>(
  load: () => Promise<T> | null,
  deps: DependencyList,
  onValue: (value: T) => void,
  onError: (err: Error) => void = () => {},
): void {
  useEffect(() => {
    const pending = load();
    if (pending === null) return;
    let live = true;
    pending.then(
      (value) => live && onValue(value),
      (err) => live && onError(err as Error),
    );
    return () => {
      live = false;
    };
  }, deps);
}
