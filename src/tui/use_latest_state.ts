/**
 * State that a key handler can read back at once. Ink hands every key of a
 * burst (three Downs in one read, a held arrow's repeats) to the same
 * handler before React renders again, so a handler that computes the next
 * selection from the value it closed over moves once for the whole burst.
 * Reading and writing through this state instead makes each key see the
 * previous key's result.
 *
 * @module
 */
import { useCallback, useRef, useState } from "react";

/** The value to draw, and the latest value set (read by key handlers). */
export interface LatestState<T> {
  /** The value of this render. */
  value: T;
  /** The value most recently set, even when no render has happened since. */
  get(): T;
  /** Sets the value: `get` returns it at once, and a render follows. */
  set(next: T): void;
}

/**
 * A state whose `get` always returns the last `set`, so that several keys
 * handled between two renders each build on the one before. `set` and
 * `get` keep their identity across renders.
 */
export function useLatestState<T>(initial: T | (() => T)): LatestState<T> {
  const [value, setValue] = useState<T>(initial);
  const latest = useRef<T>(value);
  const get = useCallback(() => latest.current, []);
  const set = useCallback((next: T) => {
    latest.current = next;
    // A function value would be taken for an updater by React: wrap it.
    setValue(() => next);
  }, []);
  return { value, get, set };
}
