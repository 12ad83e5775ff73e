/**
 * Ink's `useInput` with its readiness made observable. Ink attaches a key
 * handler in an effect, after the frame that shows the component is drawn,
 * (and detaches one the same way), so a key sent as soon as the screen
 * changes can arrive before anyone listens, or while a handler that is being
 * turned off still listens. Every dashboard component takes keys through
 * {@linkcode useKeys}, which counts each change of its handler (on, or off)
 * once it is made; a test (or a driver of the dashboard) waits for the
 * count instead of sleeping. A read that brought several keys (`34`, a
 * pasted line ending in Enter) reaches the handler one key at a time
 * (split_keys.ts).
 *
 * @module
 */
import { useEffect } from "react";
import { type Key, useInput } from "ink";
import { splitKeys } from "./split_keys.ts";

let changes = 0;

/**
 * How many times a key handler was mounted, turned on or turned off so far
 * in this process; each change is counted only once it took effect.
 */
export function keyHandlerChanges(): number {
  return changes;
}

/**
 * `useInput(handler, options)`, with `handler` called once per key of what
 * a read brought (see {@linkcode splitKeys}), in order; each change counted
 * in {@linkcode keyHandlerChanges} once made.
 */
export function useKeys(
  handler: (input: string, key: Key) => void,
  options: { isActive?: boolean } = {},
): void {
  useInput((input, key) => {
    for (const [one, flags] of splitKeys(input, key)) handler(one, flags);
  }, options);
  // Declared after useInput, so it runs after useInput's own effects attached or detached it.
  const active = options.isActive !== false;
  useEffect(() => {
    changes++;
  }, [active]);
}
