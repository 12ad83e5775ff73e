/**
 * A line of free text a view reads (a name, a path, a label): while it is
 * open the view has the keyboard, so the root's own keys type into the text
 * instead, and Esc cancels it; closing it, or the view going away, gives
 * the keys back.
 *
 * @module
 */
import { useCallback, useEffect, useState } from "react";
import { useKeys } from "./use_keys.ts";

/** The entry's value and the ways to open, change and close it. */
export interface TextEntry<T> {
  /** What is being typed, or null while the entry is closed. */
  value: T | null;
  /** Opens the entry with `initial` and takes the keyboard. */
  open(initial: T): void;
  /** Replaces what is typed with `update(current)`; nothing once closed. */
  change(update: (current: T) => T): void;
  /** Closes the entry and gives the keyboard back. */
  close(): void;
}

/** Options of {@linkcode useTextEntry}. */
export interface TextEntryOptions {
  /** Tells the root that the view reads text (true) or no longer does (false). */
  setCapturing(on: boolean): void;
  /** False while an overlay has the keyboard: Esc is not the entry's then. */
  inputActive: boolean;
  /** Called after Esc closed the entry. */
  onCancel(): void;
}

/**
 * A text entry that holds the keyboard while open and closes on Esc. The
 * view's own key handler should ignore keys while `value` is not null.
 */
export function useTextEntry<T>(
  { setCapturing, inputActive, onCancel }: TextEntryOptions,
): TextEntry<T> {
  const [value, setValue] = useState<T | null>(null);
  const open = useCallback((initial: T) => {
    setValue(() => initial);
    setCapturing(true);
  }, [setCapturing]);
  const change = useCallback(
    (update: (current: T) => T) => setValue((v) => (v === null ? null : update(v))),
    [],
  );
  const close = useCallback(() => {
    setValue(null);
    setCapturing(false);
  }, [setCapturing]);
  useEffect(() => () => setCapturing(false), [setCapturing]);
  useKeys((_input, key) => {
    if (!key.escape) return;
    close();
    onCancel();
  }, { isActive: inputActive && value !== null });
  return { value, open, change, close };
}
