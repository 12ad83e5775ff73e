/**
 * One key per call. Ink hands a handler what one read of the terminal
 * brought, split only at escape sequences, Backspace and Ctrl+C: two keys
 * typed quickly (`34`), a key and an Enter (`AB⏎`), a pasted line ending in
 * a newline, or a Ctrl+U among letters arrive as one string, which no
 * handler recognises as any of its keys. {@linkcode splitKeys} turns such a
 * string into the keys it is made of, each with the flags a terminal would
 * have given it alone. Pure.
 *
 * @module
 */
import type { Key } from "ink";

/** A key as a handler receives it: the text, and its flags. */
export type KeyPress = readonly [input: string, key: Key];

/** Every flag off: the flags of a plain character. */
const PLAIN: Omit<Key, "eventType"> = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/** The key one character of a multi-key string stands for, as Ink reports it when alone. */
function keyOf(ch: string, base: Key): KeyPress {
  const key: Key = { ...base, ...PLAIN };
  const code = ch.codePointAt(0) ?? 0;
  // A newline is what a pasted line ends with: it submits like the Enter key.
  if (ch === "\r" || ch === "\n") return ["", { ...key, return: true }];
  if (ch === "\t") return ["", { ...key, tab: true }];
  if (ch === "\x7f" || ch === "\b") return ["", { ...key, backspace: true }];
  // Ctrl+A .. Ctrl+Z are bytes 1 to 26; Ink names them by their letter with ctrl set.
  if (code >= 1 && code <= 26) return [String.fromCharCode(code + 96), { ...key, ctrl: true }];
  // Other control characters are no key any handler takes.
  if (code < 32 || (code >= 0x7f && code < 0xa0)) return ["", key];
  return [ch, { ...key, shift: /^[A-Z]$/.test(ch) }];
}

/**
 * The keys `input` (with Ink's flags `key`) is made of, in order: itself
 * when it is one key already (one character, a named key, a modified key);
 * otherwise one entry per character, where CR and LF are Enter, TAB is Tab,
 * DEL and BS are Backspace, and bytes 1 to 26 are Ctrl+A to Ctrl+Z. A
 * lone LF is Enter too.
 */
export function splitKeys(input: string, key: Key): KeyPress[] {
  const chars = [...input];
  // Ink names a lone LF `enter`, not `return`, and hands it over as text: it is Enter all the same.
  if (input === "\n" && !key.ctrl && !key.meta) return [keyOf(input, key)];
  if (chars.length <= 1 || key.ctrl || key.meta) return [[input, key]];
  return chars.map((ch) => keyOf(ch, key));
}
