/**
 * Ink's `useInput` with its readiness made observable. Ink attaches a key
 * handler in an effect, after the frame that shows the component is drawn,
 * (and detaches one the same way), so a key sent as soon as the screen
 * changes can arrive before anyone listens, or while a handler that is being
 * turned off still listens. Every dashboard component takes keys through
 * {@linkcode useKeys}, which counts each change of its handler (on, or off)
 * once it is made; a test (or a driver of the dashboard) waits for the
 * count instead of sleeping.
 *
 * @module
 */
import { useEffect } from "react";
import { type Key, useInput } from "ink";

let changes = 0;

/**
 * How many times a key handler was mounted, turned on or turned off so far
 * in this process; each change is counted only once it took effect.
 */
export function keyHandlerChanges(): number {
  return changes;
}

/** `useInput(handler, options)`, each change counted in {@linkcode keyHandlerChanges} once made. */
export function useKeys(
  handler: (input: string, key: Key) => void,
  options: { isActive?: boolean } = {},
): void {
  useInput(handler, options);
  // Declared after useInput, so it runs after useInput's own effects attached or detached it.
  useKeysCounted(options.isActive !== false);
}

/**
 * Counts, in {@linkcode keyHandlerChanges}, a key handler that a component
 * attaches by other means than {@linkcode useKeys} (a third-party input
 * such as `ink-text-input`'s): called in the component that renders that
 * input, whose effects run after its children's, so each mount or change of
 * `active` is counted once the child's handler is attached or detached.
 */
export function useKeysCounted(active: boolean): void {
  useEffect(() => {
    changes++;
  }, [active]);
}
