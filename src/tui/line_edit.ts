/**
 * Editing one line of text by keys, as a terminal's shell line does:
 * characters insert at the cursor, ← → Home End move it, Backspace and
 * Delete erase, Ctrl+U erases to the start, Ctrl+K to the end, Ctrl+W the
 * word before the cursor, Ctrl+A and Ctrl+E go to the start and the end.
 * No other modified key types anything (Ctrl+U is not a "u"). Pure, so the
 * field that uses it can apply several keys between two renders.
 *
 * @module
 */
import type { Key } from "ink";

/** A line being edited: its text and the cursor, in code points from the start. */
export interface LineState {
  text: string;
  cursor: number;
}

/** What a key did to a line: the line after it, and whether it asked to submit (Enter). */
export interface LineStep {
  line: LineState;
  submit: boolean;
}

/** `chars` joined, with the cursor at `cursor`. */
function at(chars: readonly string[], cursor: number): LineState {
  return { text: chars.join(""), cursor: Math.max(0, Math.min(chars.length, cursor)) };
}

/** The start of the word before `cursor` (spaces before it skipped, as Ctrl+W does). */
function wordStart(chars: readonly string[], cursor: number): number {
  let i = cursor;
  while (i > 0 && chars[i - 1] === " ") i--;
  while (i > 0 && chars[i - 1] !== " ") i--;
  return i;
}

/** What a Ctrl+letter does, or null when it does nothing. */
function controlKey(chars: string[], c: number, letter: string): LineState | null {
  switch (letter) {
    case "u":
      return at(chars.slice(c), 0);
    case "k":
      return at(chars.slice(0, c), c);
    case "w": {
      const from = wordStart(chars, c);
      return at([...chars.slice(0, from), ...chars.slice(c)], from);
    }
    case "a":
      return at(chars, 0);
    case "e":
      return at(chars, chars.length);
    default:
      return null;
  }
}

/**
 * `line` after the key `input`/`key` (one key: see split_keys.ts). Enter
 * leaves the line as it is and sets `submit`; keys a line does not take
 * (arrows up and down, Tab, Esc, unknown Ctrl or Alt keys) leave it as it is.
 * Control characters in `input` are never inserted.
 */
export function editLine(line: LineState, input: string, key: Key): LineStep {
  const chars = [...line.text];
  const c = Math.max(0, Math.min(chars.length, line.cursor));
  const same = { line, submit: false };
  if (key.return) return { line, submit: true };
  if (key.ctrl) {
    const next = controlKey(chars, c, input.toLowerCase());
    return next ? { line: next, submit: false } : same;
  }
  if (key.leftArrow) return { line: at(chars, c - 1), submit: false };
  if (key.rightArrow) return { line: at(chars, c + 1), submit: false };
  if (key.home) return { line: at(chars, 0), submit: false };
  if (key.end) return { line: at(chars, chars.length), submit: false };
  if (key.backspace) {
    return c === 0
      ? same
      : { line: at([...chars.slice(0, c - 1), ...chars.slice(c)], c - 1), submit: false };
  }
  if (key.delete) {
    return { line: at([...chars.slice(0, c), ...chars.slice(c + 1)], c), submit: false };
  }
  if (key.meta || key.escape || key.tab || key.upArrow || key.downArrow) return same;
  if (key.pageUp || key.pageDown) return same;
  const typed = [...input].filter((ch) => !/\p{Cc}/u.test(ch));
  if (typed.length === 0) return same;
  return {
    line: at([...chars.slice(0, c), ...typed, ...chars.slice(c)], c + typed.length),
    submit: false,
  };
}
